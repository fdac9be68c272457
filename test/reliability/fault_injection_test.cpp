// Fault injection: every Vulkan call run() makes that can fail is
// made to fail, one at a time, on a Device of its own. Each failure must come
// back as VulkanError naming the call and its VkResult, leave the caller's
// output untouched, leak nothing, and leave the Device usable.
#include <doctest/doctest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "device_hooks.hpp"
#include "reliability_util.hpp"

using namespace vkscan;
using namespace vkscan::test;

namespace {

// Long enough for several dispatches, several pipelines and scratch.
CumulativeSummationDesc multiPassDesc() {
  return packedDesc(DataType::Float32, {300007}, 0);
}

VkResult faultFor(const std::string& function) {
  if (function == "vkQueueSubmit" || function == "vkWaitForFences") return VK_ERROR_DEVICE_LOST;
  if (function == "vkAllocateCommandBuffers" || function == "vkBeginCommandBuffer" ||
      function == "vkEndCommandBuffer" || function == "vkCreateCommandPool") {
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  if (function == "vkMapMemory") return VK_ERROR_MEMORY_MAP_FAILED;
  return VK_ERROR_OUT_OF_DEVICE_MEMORY;
}

// Every kind of object but pipelines must be back to none; pipelines alive
// must be exactly the ones the device's cache holds.
void checkNothingLeaked(const Device& device) {
  LiveObjects live = liveObjects();
  std::string objects = live.describe();
  CAPTURE(objects);
  CHECK(live[ObjectKind::Buffer] == 0);
  CHECK(live[ObjectKind::Memory] == 0);
  CHECK(live[ObjectKind::Mapping] == 0);
  CHECK(live[ObjectKind::CommandPool] == 0);
  CHECK(live[ObjectKind::Fence] == 0);
  CHECK(live[ObjectKind::ShaderModule] == 0);
  CHECK(live[ObjectKind::Pipeline] == static_cast<int64_t>(test::pipelineCount(device)));
}

}  // namespace

TEST_CASE("fault injection: each failing call gives VulkanError, keeps the output, leaks nothing") {
  CumulativeSummationDesc desc = multiPassDesc();
  std::vector<uint8_t> input = randomInput(desc, 1);

  int faults = 0;
  for (bool inPlace : {false, true}) {
    CAPTURE(inPlace);
    // How often one first run() on a fresh device calls each function.
    std::map<std::string, uint64_t> callsPerRun;
    {
      Device device = createDevice(testDeviceOptions());
      DeviceHooks hooks(device);
      std::vector<uint8_t> buffer = input;
      std::vector<uint8_t> output(desc.output.totalBytes());
      run(device, desc, buffer.data(), inPlace ? buffer.data() : output.data());
      for (const std::string& function : faultableFunctions()) {
        callsPerRun[function] = hooks.calls(function);
      }
      checkNothingLeaked(device);
    }
    CHECK(callsPerRun["vkCreateComputePipelines"] >= 1);
    CHECK(callsPerRun["vkAllocateMemory"] >= 2);

    for (const std::string& function : faultableFunctions()) {
      for (uint64_t nth = 1; nth <= callsPerRun[function]; ++nth) {
        VkResult result = faultFor(function);
        CAPTURE(function);
        CAPTURE(nth);
        Device device = createDevice(testDeviceOptions());
        DeviceHooks hooks(device);
        LiveObjects baseline = liveObjects();
        for (size_t i = 0; i < kObjectKinds; ++i) REQUIRE(baseline.count[i] == 0);

        std::vector<uint8_t> output(desc.output.totalBytes(), 0x5A);
        if (inPlace) output = input;
        const std::vector<uint8_t> untouched = output;
        hooks.failCall(function, nth, result);
        bool threw = false;
        try {
          run(device, desc, inPlace ? output.data() : input.data(), output.data());
        } catch (const VulkanError& error) {
          threw = true;
          CHECK(error.result() == result);
          CHECK(error.call() == function);
          CHECK(std::string(error.what()).find(vkResultName(result)) != std::string::npos);
        }
        CHECK(hooks.faultFired());
        CHECK(threw);
        CHECK(output == untouched);
        checkNothingLeaked(device);
        ++faults;

        // The same device works once the call succeeds again.
        hooks.restore();
        CHECK(runMatchesReference(device, desc, 2));
      }
    }
  }
  MESSAGE("faults injected: " << faults);
  CHECK(faults >= 26);
}

TEST_CASE("fault injection: a failing pipeline batch releases the pipelines it did create") {
  // Two operators whose plans need different pipelines, created in one batch
  // each; the hooked call creates all but the last and fails.
  Device device = createDevice(testDeviceOptions());
  DeviceHooks hooks(device);
  hooks.failCall("vkCreateComputePipelines", 1, VK_ERROR_OUT_OF_DEVICE_MEMORY);
  CHECK_THROWS_AS(device.createOperator(multiPassDesc()), VulkanError);
  CHECK(hooks.faultFired());
  CHECK(test::pipelineCount(device) == 0);
  checkNothingLeaked(device);
  hooks.clearFaults();
  Operator op = device.createOperator(multiPassDesc());
  // Several pipelines in the batch, so the failure above was a partial one.
  CHECK(test::pipelineCount(device) >= 2);
  checkNothingLeaked(device);
  hooks.restore();
  CHECK(runMatchesReference(device, multiPassDesc(), 3));
}

// --- timeouts ---------------------------------------------------------------

TEST_CASE("timeout: a fence that never signals gives VK_TIMEOUT, not a hang") {
  DeviceOptions options = testDeviceOptions();
  options.timeoutNs = 1000ull * 1000 * 1000;  // first-dispatch compiles fit in it
  Device device = createDevice(options);
  DeviceHooks hooks(device);
  CumulativeSummationDesc desc = multiPassDesc();
  CHECK(runMatchesReference(device, desc, 4));  // pipelines compiled, not timed

  hooks.dropSubmitFences(true);
  std::vector<uint8_t> input = randomInput(desc, 5);
  std::vector<uint8_t> output(desc.output.totalBytes(), 0x33);
  const std::vector<uint8_t> untouched = output;
  bool timedOut = false;
  try {
    run(device, desc, input.data(), output.data());
  } catch (const VulkanError& error) {
    timedOut = error.result() == VK_TIMEOUT && error.call() == "vkWaitForFences";
  }
  CHECK(timedOut);
  CHECK(output == untouched);
  // Nothing the GPU may still use was destroyed: the run's buffers, memory,
  // mappings, pool and fence are all alive.
  LiveObjects inFlight = liveObjects();
  std::string objects = inFlight.describe();
  CAPTURE(objects);
  CHECK(inFlight[ObjectKind::Buffer] >= 2);
  CHECK(inFlight[ObjectKind::Memory] == inFlight[ObjectKind::Buffer]);
  CHECK(inFlight[ObjectKind::Mapping] == inFlight[ObjectKind::Buffer]);
  CHECK(inFlight[ObjectKind::CommandPool] == 1);
  CHECK(inFlight[ObjectKind::Fence] == 1);

  // While the fence stays unsignalled, a later run keeps them alive too.
  hooks.dropSubmitFences(false);
  CHECK(runMatchesReference(device, desc, 6));
  CHECK(liveObjects()[ObjectKind::Fence] == 1);

  // The GPU finishes: the next run frees what the timed-out one held.
  hooks.signalDroppedFences();
  CHECK(runMatchesReference(device, desc, 7));
  checkNothingLeaked(device);
}

TEST_CASE("timeout: destroying the device waits for timed-out work, then frees it") {
  DeviceOptions options = testDeviceOptions();
  options.timeoutNs = 1000 * 1000;
  CumulativeSummationDesc desc = multiPassDesc();
  std::vector<uint8_t> input = randomInput(desc, 8);
  std::vector<uint8_t> output(desc.output.totalBytes());
  std::optional<Device> device(createDevice(options));
  DeviceHooks hooks(*device);
  hooks.dropSubmitFences(true);
  CHECK_THROWS_AS(run(*device, desc, input.data(), output.data()), VulkanError);
  CHECK(liveObjects()[ObjectKind::Fence] == 1);
  hooks.signalDroppedFences();
  hooks.dropSubmitFences(false);
  hooks.keepThroughTeardown();
  device.reset();
  LiveObjects after = liveObjects();
  std::string objects = after.describe();
  CAPTURE(objects);
  for (size_t i = 0; i < kObjectKinds; ++i) CHECK(after.count[i] == 0);
}

TEST_CASE("regression: buffers of a timed-out run() were destroyed while the GPU used them") {
  // A real timeout: work that takes far longer than 1 microsecond. Before the
  // fix, unwinding destroyed the in-flight buffers (the validation layer
  // reports vkDestroyBuffer on a buffer in use; the guard fails the test).
  DeviceOptions options = testDeviceOptions();
  options.timeoutNs = 1000;
  Device device = createDevice(options);
  CumulativeSummationDesc desc = packedDesc(DataType::Float32, {1u << 23}, 0);
  std::vector<uint8_t> input = randomInput(desc, 10);
  std::vector<uint8_t> output(desc.output.totalBytes(), 0x11);
  const std::vector<uint8_t> untouched = output;
  DeviceHooks hooks(device);  // counting only
  try {
    run(device, desc, input.data(), output.data());
    MESSAGE("the run finished within 1 us; the timeout path was not taken");
  } catch (const VulkanError& error) {
    CHECK(error.result() == VK_TIMEOUT);
    CHECK(output == untouched);
    CHECK(liveObjects()[ObjectKind::Buffer] >= 2);
  }
}
