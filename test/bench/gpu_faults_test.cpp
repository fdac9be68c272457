// The benchmark's Gpu on a function table whose calls fail one at a time: a
// constructor that throws part-way must destroy what it made, as no
// destructor runs for it.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vkscan/host.hpp>

#include "gpu.hpp"

using namespace vkscan;

namespace {

// The real functions, the objects made through the wrappers and not yet
// destroyed, and the one call to fail.
struct Hooks {
  VolkDeviceTable real{};
  int64_t commandPools = 0;
  int64_t fences = 0;
  std::string failing;
  uint64_t nth = 0;
  uint64_t calls = 0;
  bool fired = false;
} hooks;

bool injectFault(const char* function) {
  if (hooks.failing != function || ++hooks.calls != hooks.nth) return false;
  hooks.fired = true;
  return true;
}

VKAPI_ATTR VkResult VKAPI_CALL createCommandPool(VkDevice device,
                                                 const VkCommandPoolCreateInfo* info,
                                                 const VkAllocationCallbacks* allocator,
                                                 VkCommandPool* pool) {
  if (injectFault("vkCreateCommandPool")) return VK_ERROR_OUT_OF_HOST_MEMORY;
  VkResult result = hooks.real.vkCreateCommandPool(device, info, allocator, pool);
  if (result == VK_SUCCESS) ++hooks.commandPools;
  return result;
}

VKAPI_ATTR void VKAPI_CALL destroyCommandPool(VkDevice device, VkCommandPool pool,
                                              const VkAllocationCallbacks* allocator) {
  if (pool != VK_NULL_HANDLE) --hooks.commandPools;
  hooks.real.vkDestroyCommandPool(device, pool, allocator);
}

VKAPI_ATTR VkResult VKAPI_CALL allocateCommandBuffers(VkDevice device,
                                                      const VkCommandBufferAllocateInfo* info,
                                                      VkCommandBuffer* buffers) {
  if (injectFault("vkAllocateCommandBuffers")) return VK_ERROR_OUT_OF_HOST_MEMORY;
  return hooks.real.vkAllocateCommandBuffers(device, info, buffers);
}

VKAPI_ATTR VkResult VKAPI_CALL createFence(VkDevice device, const VkFenceCreateInfo* info,
                                           const VkAllocationCallbacks* allocator, VkFence* fence) {
  if (injectFault("vkCreateFence")) return VK_ERROR_OUT_OF_HOST_MEMORY;
  VkResult result = hooks.real.vkCreateFence(device, info, allocator, fence);
  if (result == VK_SUCCESS) ++hooks.fences;
  return result;
}

VKAPI_ATTR void VKAPI_CALL destroyFence(VkDevice device, VkFence fence,
                                        const VkAllocationCallbacks* allocator) {
  if (fence != VK_NULL_HANDLE) --hooks.fences;
  hooks.real.vkDestroyFence(device, fence, allocator);
}

// `device`'s functions, with the wrappers above in place; counting restarts.
VolkDeviceTable hookedTable(const Device& device, const std::string& failing, uint64_t nth) {
  REQUIRE(volkInitialize() == VK_SUCCESS);
  volkLoadInstanceOnly(device.instance());
  volkLoadDeviceTable(&hooks.real, device.handle());
  hooks.commandPools = hooks.fences = 0;
  hooks.failing = failing;
  hooks.nth = nth;
  hooks.calls = 0;
  hooks.fired = false;
  VolkDeviceTable table = hooks.real;
  table.vkCreateCommandPool = createCommandPool;
  table.vkDestroyCommandPool = destroyCommandPool;
  table.vkAllocateCommandBuffers = allocateCommandBuffers;
  table.vkCreateFence = createFence;
  table.vkDestroyFence = destroyFence;
  return table;
}

DeviceOptions validatedOptions() {
  DeviceOptions options;
  options.enableValidation = true;
  return options;
}

}  // namespace

TEST_CASE("Gpu: a constructor that fails part-way leaves no command pool or fence") {
  {
    Device device = createDevice(validatedOptions());
    {
      bench::Gpu gpu(device, hookedTable(device, "", 0));
      CHECK(hooks.commandPools == 1);
      CHECK(hooks.fences == 1);
    }
    CHECK(hooks.commandPools == 0);
    CHECK(hooks.fences == 0);
    CHECK(validationMessageCount(device) == 0);
  }
  const std::string functions[] = {"vkCreateCommandPool", "vkAllocateCommandBuffers",
                                   "vkCreateFence"};
  for (const std::string& function : functions) {
    CAPTURE(function);
    Device device = createDevice(validatedOptions());
    VolkDeviceTable table = hookedTable(device, function, 1);
    CHECK_THROWS_AS(bench::Gpu(device, table), VulkanError);
    CHECK(hooks.fired);
    CHECK(hooks.commandPools == 0);
    CHECK(hooks.fences == 0);
    CHECK(validationMessageCount(device) == 0);
  }
}
