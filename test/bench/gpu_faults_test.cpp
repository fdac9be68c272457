// The benchmark's Gpu on a Device whose Vulkan calls fail one at a time
// (the reliability suite's DeviceHooks): a constructor that throws part-way
// must destroy what it made, as no destructor runs for it.
#include <doctest/doctest.h>

#include <string>

#include "device_hooks.hpp"
#include "gpu.hpp"
#include "test_device.hpp"

using namespace vkscan;
using namespace vkscan::test;

TEST_CASE("Gpu: a constructor that fails part-way leaves no command pool or fence") {
  {
    Device device(testDeviceOptions());
    DeviceHooks hooks(device);
    {
      bench::Gpu gpu(device);
      CHECK(liveObjects()[ObjectKind::CommandPool] == 1);
      CHECK(liveObjects()[ObjectKind::Fence] == 1);
    }
    CHECK(liveObjects()[ObjectKind::CommandPool] == 0);
    CHECK(liveObjects()[ObjectKind::Fence] == 0);
  }
  const std::string functions[] = {"vkCreateCommandPool", "vkAllocateCommandBuffers",
                                   "vkCreateFence"};
  for (const std::string& function : functions) {
    CAPTURE(function);
    Device device(testDeviceOptions());
    DeviceHooks hooks(device);
    hooks.failCall(function, 1, VK_ERROR_OUT_OF_HOST_MEMORY);
    CHECK_THROWS_AS(bench::Gpu{device}, VulkanError);
    CHECK(hooks.faultFired());
    const std::string objects = liveObjects().describe();
    CAPTURE(objects);
    CHECK(liveObjects()[ObjectKind::CommandPool] == 0);
    CHECK(liveObjects()[ObjectKind::Fence] == 0);
  }
}
