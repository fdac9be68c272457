// The validation guard's own test: a hazard that synchronization validation
// can see must be reported and counted, or the zero-message checks elsewhere
// prove nothing. (Syncval tracks descriptor-bound and transfer accesses only:
// vkscan's shaders reach memory through buffer device addresses, which it
// cannot see, so this uses transfer commands.)
#include <doctest/doctest.h>

#include <optional>

#include "device/device_impl.hpp"
#include "host/device_buffer.hpp"
#include "reliability_util.hpp"
#include "test_device.hpp"
#include "validation_guard.hpp"

using namespace vkscan;
using namespace vkscan::test;

TEST_CASE("validation: a missing barrier between two transfers is reported") {
  DeviceOptions options;
  options.enableValidation = true;
  uint64_t before = detail::processValidationMessageCount();
  std::optional<Device> device(createDevice(options));
  Device::Impl& impl = Device::Access::impl(*device);
  if (!impl.validationEnabled) {
    CHECK_FALSE(validationRequired());
    MESSAGE("VK_LAYER_KHRONOS_validation is not installed; nothing to test");
    return;
  }
  REQUIRE(impl.synchronizationValidation);
  {
    const VolkDeviceTable& vk = impl.vk;
    CumulativeSummationDesc desc = packedDesc(DataType::Float32, {1000}, 0);
    detail::DeviceBuffer in(impl, desc.input.totalBytes());
    detail::DeviceBuffer out(impl, desc.output.totalBytes());
    auto poolInfo =
        detail::vkStruct<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
    poolInfo.queueFamilyIndex = impl.queueFamilyIndex;
    VkCommandPool pool = VK_NULL_HANDLE;
    REQUIRE(vk.vkCreateCommandPool(impl.device, &poolInfo, nullptr, &pool) == VK_SUCCESS);
    auto allocate = detail::vkStruct<VkCommandBufferAllocateInfo>(
        VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
    allocate.commandPool = pool;
    allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate.commandBufferCount = 1;
    VkCommandBuffer commandBuffer = VK_NULL_HANDLE;
    REQUIRE(vk.vkAllocateCommandBuffers(impl.device, &allocate, &commandBuffer) == VK_SUCCESS);
    auto begin =
        detail::vkStruct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
    REQUIRE(vk.vkBeginCommandBuffer(commandBuffer, &begin) == VK_SUCCESS);
    // A fill and a copy into the same buffer with no barrier between them:
    // write after write.
    vk.vkCmdFillBuffer(commandBuffer, out.buffer(), 0, VK_WHOLE_SIZE, 0);
    VkBufferCopy region{0, 0, desc.input.totalBytes()};
    vk.vkCmdCopyBuffer(commandBuffer, in.buffer(), out.buffer(), 1, &region);
    REQUIRE(vk.vkEndCommandBuffer(commandBuffer) == VK_SUCCESS);
    CHECK(validationMessageCount(*device) > 0);
    vk.vkDestroyCommandPool(impl.device, pool, nullptr);
  }
  device.reset();
  uint64_t provoked = detail::processValidationMessageCount() - before;
  MESSAGE("validation messages provoked on purpose: " << provoked);
  CHECK(provoked > 0);
  expectValidationMessages(provoked);
}

TEST_CASE("validation: validationEnabled() says whether the layer's messages are counted") {
  CHECK_FALSE(validationEnabled(createDevice(DeviceOptions{})));
  DeviceOptions options;
  options.enableValidation = true;
  const Device device = createDevice(options);
  CHECK(validationEnabled(device) == Device::Access::impl(device).validationEnabled);
  if (validationRequired()) CHECK(validationEnabled(device));
  // The engine's instance has no messenger of vkscan's, whatever the options.
  CHECK_FALSE(validationEnabled(Device(externalDeviceOf(device))));
}
