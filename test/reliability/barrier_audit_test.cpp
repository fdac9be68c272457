// Barrier audit. Synchronization validation cannot check vkscan's barriers:
// the kernels reach memory through buffer device addresses in push
// constants, which the layer does not track (removing every barrier between
// passes raises no message, and lavapipe still computes the right result,
// as it runs dispatches in order). So this test records operators with the
// recording calls hooked, works out from each dispatch's push constants the
// memory it may read and write, and requires a compute-to-compute barrier
// with the right access masks between every two dispatches that conflict,
// and transfer-to-compute or compute-to-transfer barriers around the scratch
// clears (vkCmdFillBuffer) of single-pass plans.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "device/device_impl.hpp"
#include "host/device_buffer.hpp"
#include "reliability_util.hpp"
#include "scan_params.h"

using namespace vkscan;
using namespace vkscan::test;

namespace {

struct Range {
  uint64_t begin = 0, end = 0;
  bool overlaps(const Range& o) const { return begin < o.end && o.begin < end; }
};

struct Event {
  bool dispatch = false;
  detail::ScanParams params{};  // dispatch
  bool fill = false;
  Range filled;  // fill: device addresses written
  VkPipelineStageFlags srcStage = 0, dstStage = 0;
  VkAccessFlags srcAccess = 0, dstAccess = 0;  // barrier
};

std::vector<Event> trace;
detail::ScanParams lastParams{};
VolkDeviceTable original{};
VkDevice hookedDevice = VK_NULL_HANDLE;

VKAPI_ATTR void VKAPI_CALL hookPushConstants(VkCommandBuffer cb, VkPipelineLayout layout,
                                             VkShaderStageFlags stages, uint32_t offset,
                                             uint32_t size, const void* values) {
  if (offset == 0 && size == sizeof(detail::ScanParams)) std::memcpy(&lastParams, values, size);
  original.vkCmdPushConstants(cb, layout, stages, offset, size, values);
}

VKAPI_ATTR void VKAPI_CALL hookDispatch(VkCommandBuffer cb, uint32_t x, uint32_t y, uint32_t z) {
  Event event;
  event.dispatch = true;
  event.params = lastParams;
  trace.push_back(event);
  original.vkCmdDispatch(cb, x, y, z);
}

VKAPI_ATTR void VKAPI_CALL hookFillBuffer(VkCommandBuffer cb, VkBuffer buffer, VkDeviceSize offset,
                                          VkDeviceSize size, uint32_t data) {
  auto info =
      detail::vkStruct<VkBufferDeviceAddressInfo>(VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO);
  info.buffer = buffer;
  uint64_t address = original.vkGetBufferDeviceAddress(hookedDevice, &info) + offset;
  Event event;
  event.fill = true;
  event.filled = {address, address + size};
  trace.push_back(event);
  original.vkCmdFillBuffer(cb, buffer, offset, size, data);
}

VKAPI_ATTR void VKAPI_CALL hookPipelineBarrier(
    VkCommandBuffer cb, VkPipelineStageFlags src, VkPipelineStageFlags dst, VkDependencyFlags flags,
    uint32_t memoryCount, const VkMemoryBarrier* memory, uint32_t bufferCount,
    const VkBufferMemoryBarrier* buffers, uint32_t imageCount, const VkImageMemoryBarrier* images) {
  Event event;
  event.srcStage = src;
  event.dstStage = dst;
  for (uint32_t i = 0; i < memoryCount; ++i) {
    event.srcAccess |= memory[i].srcAccessMask;
    event.dstAccess |= memory[i].dstAccessMask;
  }
  trace.push_back(event);
  original.vkCmdPipelineBarrier(cb, src, dst, flags, memoryCount, memory, bufferCount, buffers,
                                imageCount, images);
}

// Bytes a dispatch may touch from `address`, over-estimated (8-byte
// elements, 4 interleaved lanes): more conflicts only demand more barriers.
Range reach(uint64_t address, int64_t axisStride, const int64_t lineStride[3],
            const detail::ScanParams& p) {
  if (address == 0) return {};
  int64_t low = 0, high = 3;
  auto add = [&](int64_t count, int64_t stride) {
    int64_t r = (count - 1) * stride;
    (r < 0 ? low : high) += r;
  };
  add(p.axisLen, axisStride);
  for (int i = 0; i < 3; ++i) add(p.lineSize[i], lineStride[i]);
  return {address + low * 8, address + (high + 1) * 8};
}

struct Access {
  std::vector<Range> reads, writes;
};

Access accessOf(const Event& event) {
  Access a;
  if (event.fill) {
    a.writes.push_back(event.filled);
    return a;
  }
  const detail::ScanParams& p = event.params;
  a.reads.push_back(reach(p.inAddr, p.inAxisStride, p.inLineStride, p));
  a.writes.push_back(reach(p.outAddr, p.outAxisStride, p.outLineStride, p));
  if (p.auxAddr != 0) {
    Range aux{p.auxAddr, p.auxAddr + uint64_t{p.lineCount} * p.chunksPerLine * 4 * 8};
    a.reads.push_back(aux);  // a scan reads carries, a reduce writes totals
    a.writes.push_back(aux);
  }
  return a;
}

bool any(const std::vector<Range>& a, const std::vector<Range>& b) {
  for (const Range& x : a) {
    for (const Range& y : b) {
      if (x.overlaps(y)) return true;
    }
  }
  return false;
}

// Stage and access masks of a command that reads or writes memory.
VkPipelineStageFlags stageOf(const Event& e) {
  return e.fill ? VK_PIPELINE_STAGE_TRANSFER_BIT : VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
}
VkAccessFlags readAccessOf(const Event&) {
  return VK_ACCESS_SHADER_READ_BIT;
}
VkAccessFlags writeAccessOf(const Event& e) {
  return e.fill ? VK_ACCESS_TRANSFER_WRITE_BIT : VK_ACCESS_SHADER_WRITE_BIT;
}

// Checks the trace; returns the number of conflicting pairs of commands
// (dispatches and scratch clears).
int audit() {
  int conflicts = 0;
  for (size_t i = 0; i < trace.size(); ++i) {
    if (!trace[i].dispatch && !trace[i].fill) continue;
    Access first = accessOf(trace[i]);
    for (size_t j = i + 1; j < trace.size(); ++j) {
      if (!trace[j].dispatch && !trace[j].fill) continue;
      Access second = accessOf(trace[j]);
      bool raw = any(first.writes, second.reads);
      bool waw = any(first.writes, second.writes);
      bool war = any(first.reads, second.writes);
      if (!raw && !waw && !war) continue;
      ++conflicts;
      VkAccessFlags wantDst =
          (raw ? readAccessOf(trace[j]) : 0) | (waw ? writeAccessOf(trace[j]) : 0);
      // One barrier from i's stage to j's, or two that chain (the first's
      // destination stages meet the second's source stages).
      bool ordered = false;
      for (size_t k = i + 1; k < j; ++k) {
        const Event& from = trace[k];
        if (from.dispatch || from.fill || !(from.srcStage & stageOf(trace[i]))) continue;
        for (size_t l = k; l < j; ++l) {
          const Event& to = trace[l];
          if (to.dispatch || to.fill || !(to.dstStage & stageOf(trace[j]))) continue;
          if (l > k && !(from.dstStage & to.srcStage)) continue;
          bool memory = !(raw || waw) || ((from.srcAccess & writeAccessOf(trace[i])) &&
                                          (to.dstAccess & wantDst) == wantDst);
          ordered = ordered || memory;
        }
      }
      CAPTURE(i);
      CAPTURE(j);
      CAPTURE(raw);
      CAPTURE(waw);
      CAPTURE(war);
      CHECK(ordered);
    }
  }
  for (const Event& e : trace) {
    CHECK((e.srcStage & VK_PIPELINE_STAGE_ALL_COMMANDS_BIT) == 0);
    CHECK((e.dstStage & VK_PIPELINE_STAGE_ALL_COMMANDS_BIT) == 0);
  }
  return conflicts;
}

// Two pieces (four line dimensions that cannot merge: no stride is the next
// inner one times its size), each a single pass with look-back on a CPU
// device (8 lines, fewer than the test's threshold for whole lines), clearing
// the same scratch one after the other. Lines on vectors: the plain build of the pass.
CumulativeSummationDesc lookbackPieces() {
  CumulativeSummationDesc desc = packedDesc(DataType::Float32, {2, 2, 2, 2, 5000}, 4);
  desc.input.strides = {40112, 20048, 10016, 5004, 1};
  desc.output = desc.input;
  return desc;
}

}  // namespace

TEST_CASE("barrier audit: every conflicting pair of passes is separated by a barrier") {
  // Device addresses, so that the push constants say where each dispatch
  // reaches (storage-buffer dispatches carry offsets into their bindings);
  // recording places the same barriers either way.
  DeviceOptions options = testDeviceOptions();
  options.disablePushDescriptor = true;
  Device device = createDevice(options);
  Device::Impl& impl = Device::Access::impl(device);
  original = impl.vk;
  hookedDevice = impl.device;
  detail::Tuning native = impl.tuning;
  // lookbackPieces()' lines take the look-back pass whatever the host: on
  // one core, or at subgroup size 4 on two, 8 lines are walked whole, and
  // the shortfall (Tuning::wholeLineShortfall) would lower the floor of 16
  // by up to a subgroup less one.
  native.wholeLineInvocations = std::max<uint64_t>(native.wholeLineInvocations, 16);
  native.wholeLineShortfall = 0;
  const detail::Tuning gpu = detail::tuningFor(detail::DeviceClass::Gpu, 32, 1024, {});
  int dispatches = 0, conflicts = 0, fills = 0;
  for (const detail::Tuning& tuning : {native, gpu}) {
    impl.tuning = tuning;
    for (CumulativeSummationDesc desc :
         {packedDesc(DataType::Float32, {1000003}, 0),
          packedDesc(DataType::Float16, {3, 200001}, 1, true, AxisDirection::Decreasing),
          packedDesc(DataType::Float64, {70001, 40}, 0),
          packedDesc(DataType::Int32, {9, 9, 9, 9, 9, 70}, 5),
          packedDesc(DataType::UInt64, {5000, 5000}, 0, true), lookbackPieces()}) {
      std::string what = describe(desc);
      CAPTURE(what);
      Operator op = device.createOperator(desc);
      detail::DeviceBuffer in(impl, desc.input.totalBytes());
      detail::DeviceBuffer out(impl, desc.output.totalBytes());
      detail::DeviceBuffer scratch(impl, op.scratchSize());
      auto poolInfo =
          detail::vkStruct<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
      poolInfo.queueFamilyIndex = impl.queueFamilyIndex;
      VkCommandPool pool = VK_NULL_HANDLE;
      REQUIRE(impl.vk.vkCreateCommandPool(impl.device, &poolInfo, nullptr, &pool) == VK_SUCCESS);
      auto allocate = detail::vkStruct<VkCommandBufferAllocateInfo>(
          VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
      allocate.commandPool = pool;
      allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
      allocate.commandBufferCount = 1;
      VkCommandBuffer cb = VK_NULL_HANDLE;
      REQUIRE(impl.vk.vkAllocateCommandBuffers(impl.device, &allocate, &cb) == VK_SUCCESS);
      auto begin =
          detail::vkStruct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
      REQUIRE(impl.vk.vkBeginCommandBuffer(cb, &begin) == VK_SUCCESS);
      for (bool inPlace : {false, true}) {
        trace.clear();
        impl.vk.vkCmdPushConstants = hookPushConstants;
        impl.vk.vkCmdDispatch = hookDispatch;
        impl.vk.vkCmdPipelineBarrier = hookPipelineBarrier;
        impl.vk.vkCmdFillBuffer = hookFillBuffer;
        op.record(cb, in.binding(), inPlace ? in.binding() : out.binding(),
                  op.scratchSize() > 0 ? scratch.binding() : BufferBinding{});
        impl.vk = original;
        CHECK(trace.size() >= op.dispatchCount());
        dispatches += static_cast<int>(op.dispatchCount());
        conflicts += audit();
        for (const Event& e : trace) fills += e.fill ? 1 : 0;
        // The caller's side of the contract between two records.
        auto barrier = detail::vkStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
        barrier.srcAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
        barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
        original.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0,
                                      nullptr, 0, nullptr);
      }
      REQUIRE(impl.vk.vkEndCommandBuffer(cb) == VK_SUCCESS);
      impl.vk.vkDestroyCommandPool(impl.device, pool, nullptr);
    }
  }
  MESSAGE("dispatches audited: " << dispatches << ", scratch clears: " << fills
                                 << ", conflicting pairs ordered: " << conflicts);
  CHECK(conflicts > 0);
  if (native.chunkLookbackMaxElements > 0) CHECK(fills > 0);
}
