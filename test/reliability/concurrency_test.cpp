// Eight threads share one Device: they create operators for overlapping
// pipeline keys (same and different types and flags) at the same time and
// record and submit them concurrently, half through run() and half
// through their own command buffers submitted under the device's queue lock.
// Built with -fsanitize=thread in CI (scripts/ci-reliability.sh).
#include <doctest/doctest.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "device/device_impl.hpp"
#include "host/device_buffer.hpp"
#include "recording.hpp"
#include "reliability_util.hpp"

using namespace vkscan;
using namespace vkscan::test;

namespace {

// Records op into a command buffer of the thread's own pool and submits it
// under the queue lock, as an engine sharing vkscan's queue would.
std::vector<uint8_t> recordAndSubmit(const Device& device, const CumulativeSummationDesc& desc,
                                     const std::vector<uint8_t>& input) {
  Device::Impl& impl = Device::Access::impl(device);
  const VolkDeviceTable& vk = impl.vk;
  Operator op = device.createOperator(desc);
  detail::DeviceBuffer in(impl, desc.input.totalBytes());
  detail::DeviceBuffer out(impl, desc.output.totalBytes());
  detail::DeviceBuffer scratch(impl, op.scratchSize());
  std::memcpy(in.mapped(), input.data(), input.size());

  auto poolInfo =
      detail::vkStruct<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  poolInfo.queueFamilyIndex = impl.queueFamilyIndex;
  VkCommandPool pool = VK_NULL_HANDLE;
  detail::check(vk.vkCreateCommandPool(impl.device, &poolInfo, nullptr, &pool),
                "vkCreateCommandPool");
  auto allocate =
      detail::vkStruct<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  allocate.commandPool = pool;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = 1;
  VkCommandBuffer commandBuffer = VK_NULL_HANDLE;
  detail::check(vk.vkAllocateCommandBuffers(impl.device, &allocate, &commandBuffer),
                "vkAllocateCommandBuffers");
  auto begin =
      detail::vkStruct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  detail::check(vk.vkBeginCommandBuffer(commandBuffer, &begin), "vkBeginCommandBuffer");
  op.record(commandBuffer, in.binding(), out.binding(),
            op.scratchSize() > 0 ? scratch.binding() : BufferBinding{});
  detail::barrierComputeToHost(vk, commandBuffer);
  detail::check(vk.vkEndCommandBuffer(commandBuffer), "vkEndCommandBuffer");

  auto fenceInfo = detail::vkStruct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  VkFence fence = VK_NULL_HANDLE;
  detail::check(vk.vkCreateFence(impl.device, &fenceInfo, nullptr, &fence), "vkCreateFence");
  auto submit = detail::vkStruct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commandBuffer;
  {
    std::lock_guard<std::mutex> lock(impl.queueMutex);
    detail::check(vk.vkQueueSubmit(impl.queue, 1, &submit, fence), "vkQueueSubmit");
  }
  detail::check(vk.vkWaitForFences(impl.device, 1, &fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
  std::vector<uint8_t> output(desc.output.totalBytes());
  std::memcpy(output.data(), out.mapped(), output.size());
  vk.vkDestroyFence(impl.device, fence, nullptr);
  vk.vkDestroyCommandPool(impl.device, pool, nullptr);
  return output;
}

}  // namespace

TEST_CASE("concurrency: 8 threads create, record and submit overlapping operators") {
  // Room for only a few of the operators, so that the threads also evict
  // each other's from the operator cache while others hit it.
  DeviceOptions options = testDeviceOptions();
  options.operatorCacheCapacity = 4;
  Device device = createDevice(options);
  const DataType types[] = {DataType::Float32, DataType::Float32, DataType::Int32,
                            DataType::Float16, DataType::UInt64,  DataType::Float64};
  const int kThreads = 8;
  const int kRounds = 6;
  std::atomic<int> matched{0};
  std::atomic<int> runs{0};
  std::atomic<int> errors{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < kRounds; ++round) {
        // Threads t and t + 4 ask for the same keys at the same time; the
        // others differ in type, direction or exclusivity.
        DataType type = types[(t % 4 + round) % 6];
        bool exclusive = (t + round) % 2 == 0;
        AxisDirection direction =
            t % 3 == 0 ? AxisDirection::Decreasing : AxisDirection::Increasing;
        CumulativeSummationDesc desc = packedDesc(
            type, {round % 2 ? 3u : 40u, 2000u + 700u * round}, round % 2, exclusive, direction);
        uint64_t seed = 1000 + t * 100 + round;
        try {
          std::vector<uint8_t> input = randomInput(desc, seed);
          std::vector<uint8_t> expected = referenceOutput(desc, input, {});
          std::vector<uint8_t> output;
          if (t % 2 == 0) {
            output.assign(desc.output.totalBytes(), 0);
            run(device, desc, input.data(), output.data());
          } else {
            output = recordAndSubmit(device, desc, input);
          }
          if (output == expected) ++matched;
        } catch (const std::exception&) {
          ++errors;
        }
        ++runs;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  MESSAGE("concurrent runs: " << runs.load() << ", matching the reference: " << matched.load());
  CHECK(errors == 0);
  CHECK(matched == kThreads * kRounds);
}
