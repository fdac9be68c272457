#include "recording.hpp"

#include <algorithm>
#include <array>

#include "problem.hpp"

namespace vkscan::detail {
namespace {

const ResolvedBinding* bindingOf(BufferRole role, const ResolvedBindings& bindings) {
  switch (role) {
    case BufferRole::Input:
      return &bindings.input;
    case BufferRole::Output:
      return &bindings.output;
    case BufferRole::Scratch:
      return &bindings.scratch;
    case BufferRole::Indices:
      return &bindings.indices;
    case BufferRole::CarryIn:
      return &bindings.carryIn;
    case BufferRole::Totals:
      return &bindings.totals;
    case BufferRole::None:
      break;
  }
  return nullptr;
}

VkDeviceAddress resolve(BufferRole role, uint64_t offset, const ResolvedBindings& bindings) {
  const ResolvedBinding* binding = bindingOf(role, bindings);
  return binding != nullptr ? binding->address + offset : 0;
}

// A storage-buffer descriptor for `binding`, bound from its offset rounded
// down to the device's alignment; `lead` gets the bytes in front of it.
VkDescriptorBufferInfo storageRange(const ResolvedBinding& binding, uint64_t alignment,
                                    uint64_t& lead) {
  VkDescriptorBufferInfo info{};
  info.buffer = binding.binding.buffer;
  info.offset = binding.binding.offset / alignment * alignment;
  lead = binding.binding.offset - info.offset;
  // Whole 32-bit words: packed halves load the word that holds the last one.
  info.range = lead + std::min<uint64_t>(binding.binding.size, (binding.bytes + 3) / 4 * 4);
  return info;
}

// Binds the dispatch's input, output and aux as storage buffers 0, 1, 2 and
// turns the address fields into element offsets from those bindings. Roles a
// dispatch does not use get the output binding (always valid), which the
// kernel never touches.
void pushStorageBuffers(const VolkDeviceTable& vk, VkCommandBuffer commandBuffer,
                        VkPipelineLayout layout, const Dispatch& dispatch,
                        const ResolvedBindings& bindings, ScanParams& params) {
  const ResolvedBinding* roles[3] = {bindingOf(dispatch.in, bindings),
                                     bindingOf(dispatch.out, bindings),
                                     dispatch.hasAux ? bindingOf(dispatch.aux, bindings) : nullptr};
  uint64_t byteOffsets[3] = {dispatch.inByteOffset, dispatch.outByteOffset, dispatch.auxByteOffset};
  uint64_t elementSizes[3] = {dataTypeSize(dispatch.pipeline.type),
                              dataTypeSize(dispatch.pipeline.type),
                              dataTypeSize(accumulationType(dispatch.pipeline.type))};
  uint64_t elementOffsets[3] = {0, 0, 0};
  VkDescriptorBufferInfo infos[3];
  VkWriteDescriptorSet writes[4];
  for (uint32_t i = 0; i < 3; ++i) {
    const ResolvedBinding* binding = roles[i] != nullptr ? roles[i] : &bindings.output;
    uint64_t lead = 0;
    infos[i] = storageRange(*binding, bindings.storageBufferAlignment, lead);
    if (roles[i] != nullptr) elementOffsets[i] = (lead + byteOffsets[i]) / elementSizes[i];
    writes[i] = storageBufferWrite(i, &infos[i]);
  }
  uint32_t writeCount = 3;
  if (bindings.inputTexelView != VK_NULL_HANDLE && readsInputTexels(dispatch)) {
    writes[3] = vkStruct<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    writes[3].dstBinding = 3;
    writes[3].descriptorCount = 1;
    writes[3].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
    writes[3].pTexelBufferView = &bindings.inputTexelView;
    writeCount = 4;
  }
  vk.vkCmdPushDescriptorSetKHR(commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, writeCount,
                               writes);
  params.inAddr = elementOffsets[0];
  params.outAddr = elementOffsets[1];
  params.auxAddr = elementOffsets[2];
  if (dispatch.hasAux) params.flags |= VKSCAN_FLAG_HAS_AUX;
}

// Each pass reads what the previous one wrote (totals, carries, or in place
// the output), and may overwrite what an earlier one read (scratch reused by
// the next piece): read-after-write and write-after-read on compute, which a
// compute-to-compute memory barrier covers. A pass that starts by writing
// scratch (a clear, a line carries' header) needs the same order before
// those transfers too; as the first pass, that barrier extends the caller's
// (earlier accesses of scratch before compute, as record() asks) to them, so
// the contract stays.
void barrierBetweenPasses(const VolkDeviceTable& vk, VkCommandBuffer commandBuffer,
                          bool beforeClear) {
  auto barrier = vkStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                          (beforeClear ? VK_ACCESS_TRANSFER_WRITE_BIT : 0);
  VkPipelineStageFlags dstStages =
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | (beforeClear ? VK_PIPELINE_STAGE_TRANSFER_BIT : 0);
  vk.vkCmdPipelineBarrier(commandBuffer, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, dstStages, 0, 1,
                          &barrier, 0, nullptr, 0, nullptr);
}

// The line carries' header (Dispatch::writesLineCarries,
// kernels/line_carries.glsl): the addresses of line 0's carry-in and total,
// then each tensor's three line strides, 64-bit values as 32-bit words, low
// word first.
std::array<uint32_t, kLineCarriesHeaderBytes / 4> lineCarriesHeader(
    const Dispatch& dispatch, const ResolvedBindings& bindings) {
  uint64_t accumulator = dataTypeSize(accumulationType(dispatch.pipeline.type));
  auto at = [&](bool bound, BufferRole role, int64_t element) -> uint64_t {
    return bound ? resolve(role, static_cast<uint64_t>(element) * accumulator, bindings) : 0;
  };
  const uint64_t fields[8] = {
      at(dispatch.pipeline.lineCarryIn, BufferRole::CarryIn, dispatch.carryBase),
      at(dispatch.pipeline.lineTotals, BufferRole::Totals, dispatch.totalsBase),
      static_cast<uint64_t>(dispatch.carryStrides[0]),
      static_cast<uint64_t>(dispatch.carryStrides[1]),
      static_cast<uint64_t>(dispatch.carryStrides[2]),
      static_cast<uint64_t>(dispatch.totalsStrides[0]),
      static_cast<uint64_t>(dispatch.totalsStrides[1]),
      static_cast<uint64_t>(dispatch.totalsStrides[2]),
  };
  std::array<uint32_t, kLineCarriesHeaderBytes / 4> words{};
  for (size_t i = 0; i < 8; ++i) {
    words[2 * i] = static_cast<uint32_t>(fields[i]);
    words[2 * i + 1] = static_cast<uint32_t>(fields[i] >> 32);
  }
  return words;
}

// Fills the dispatch's clear range of scratch with its clear word, writes
// its line carries' header, and makes both visible to the dispatch.
void prepareScratch(const VolkDeviceTable& vk, VkCommandBuffer commandBuffer,
                    const Dispatch& dispatch, const ResolvedBindings& bindings) {
  const BufferBinding& scratch = bindings.scratch.binding;
  if (dispatch.clearBytes > 0) {
    vk.vkCmdFillBuffer(commandBuffer, scratch.buffer, scratch.offset + dispatch.clearByteOffset,
                       dispatch.clearBytes, dispatch.clearWord);
  }
  if (dispatch.writesLineCarries) {
    std::array<uint32_t, kLineCarriesHeaderBytes / 4> header =
        lineCarriesHeader(dispatch, bindings);
    vk.vkCmdUpdateBuffer(commandBuffer, scratch.buffer,
                         scratch.offset + dispatch.lineCarriesByteOffset, sizeof(header),
                         header.data());
  }
  auto barrier = vkStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  vk.vkCmdPipelineBarrier(commandBuffer, VK_PIPELINE_STAGE_TRANSFER_BIT,
                          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0, nullptr, 0,
                          nullptr);
}

}  // namespace

void barrierComputeToHost(const VolkDeviceTable& vk, VkCommandBuffer commandBuffer) {
  auto barrier = vkStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vk.vkCmdPipelineBarrier(commandBuffer, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                          VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

void recordPlan(const VolkDeviceTable& vk, VkCommandBuffer commandBuffer, VkPipelineLayout layout,
                const Plan& plan, const std::vector<VkPipeline>& pipelines,
                const ResolvedBindings& bindings) {
  VkPipeline bound = VK_NULL_HANDLE;
  for (size_t i = 0; i < plan.dispatches.size(); ++i) {
    const Dispatch& dispatch = plan.dispatches[i];
    bool transfers = dispatch.clearBytes > 0 || dispatch.writesLineCarries;
    if (i > 0 || transfers) barrierBetweenPasses(vk, commandBuffer, transfers);
    if (transfers) prepareScratch(vk, commandBuffer, dispatch, bindings);
    if (pipelines[i] != bound) {
      vk.vkCmdBindPipeline(commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines[i]);
      bound = pipelines[i];
    }
    ScanParams params = dispatch.params;
    if (dispatch.pipeline.storageBuffers) {
      pushStorageBuffers(vk, commandBuffer, layout, dispatch, bindings, params);
    } else {
      params.inAddr = resolve(dispatch.in, dispatch.inByteOffset, bindings);
      params.outAddr = resolve(dispatch.out, dispatch.outByteOffset, bindings);
      params.auxAddr =
          dispatch.hasAux ? resolve(dispatch.aux, dispatch.auxByteOffset, bindings) : 0;
    }
    vk.vkCmdPushConstants(commandBuffer, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(params),
                          &params);
    vk.vkCmdDispatch(commandBuffer, dispatch.groupsX, dispatch.groupsY, 1);
  }
}

}  // namespace vkscan::detail
