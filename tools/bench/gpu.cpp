#include "gpu.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>

namespace vkscan::bench {
namespace {

using detail::check;
using detail::vkStruct;

static_assert(sizeof(CopyParams) == 40, "CopyParams must match copy.comp");
static_assert(sizeof(NaiveParams) == 40, "NaiveParams must match naive.comp");
constexpr uint32_t kPushBytes = sizeof(NaiveParams);
constexpr uint32_t kMaxDescriptorSets = 256;

// Workgroups past the 65,535 limit of one dimension go to Y; the kernels
// flatten the id again with groupsX.
void splitGroups(uint64_t groups, uint32_t& groupsX, uint32_t& groupsY) {
  groupsX = static_cast<uint32_t>(std::min<uint64_t>(groups, kMaxGroupsPerDimension));
  uint64_t y = groupsX == 0 ? 0 : (groups + groupsX - 1) / groupsX;
  if (y > kMaxGroupsPerDimension)
    throw Error("benchmark dispatch of " + std::to_string(groups) + " groups is too large");
  groupsY = static_cast<uint32_t>(y);
}

// Everything the previous submission wrote (by compute or transfer) is
// ordered before this one's compute and transfer work; the fence wait alone
// only covers the host.
void barrierFromPreviousWork(const VolkDeviceTable& vk, VkCommandBuffer commandBuffer) {
  auto barrier = vkStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                          VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  VkPipelineStageFlags stages =
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
  vk.vkCmdPipelineBarrier(commandBuffer, stages, stages, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

// The host reads results after the fence.
void barrierToHost(const VolkDeviceTable& vk, VkCommandBuffer commandBuffer) {
  auto barrier = vkStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vk.vkCmdPipelineBarrier(commandBuffer,
                          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                          VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

}  // namespace

TimedCommands::~TimedCommands() {
  const VolkDeviceTable& vk = gpu_.vk();
  VkDevice device = gpu_.impl().device;
  if (queries_ != VK_NULL_HANDLE) vk.vkDestroyQueryPool(device, queries_, nullptr);
  if (commandBuffer_ != VK_NULL_HANDLE) {
    vk.vkFreeCommandBuffers(device, gpu_.pool_, 1, &commandBuffer_);
  }
}

Gpu::Gpu(const Device& device) : impl_(detail::DeviceAccess::impl(device)) {
  // A destructor does not run for a constructor that throws.
  try {
    createObjects();
  } catch (...) {
    destroyObjects();
    throw;
  }
}

void Gpu::createObjects() {
  const VolkDeviceTable& vk = impl_.vk;
  auto pool = vkStruct<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool.queueFamilyIndex = impl_.queueFamilyIndex;
  check(vk.vkCreateCommandPool(impl_.device, &pool, nullptr, &pool_), "vkCreateCommandPool");
  auto allocate =
      vkStruct<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  allocate.commandPool = pool_;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = 1;
  check(vk.vkAllocateCommandBuffers(impl_.device, &allocate, &scratch_),
        "vkAllocateCommandBuffers");
  auto fence = vkStruct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  check(vk.vkCreateFence(impl_.device, &fence, nullptr, &fence_), "vkCreateFence");
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, kPushBytes};
  auto layout = vkStruct<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  layout.pushConstantRangeCount = 1;
  layout.pPushConstantRanges = &range;
  check(vk.vkCreatePipelineLayout(impl_.device, &layout, nullptr, &layout_),
        "vkCreatePipelineLayout");

  VkDescriptorSetLayoutBinding bindings[2] = {
      {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
      {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
  auto setLayout = vkStruct<VkDescriptorSetLayoutCreateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
  setLayout.bindingCount = 2;
  setLayout.pBindings = bindings;
  check(vk.vkCreateDescriptorSetLayout(impl_.device, &setLayout, nullptr, &setLayout_),
        "vkCreateDescriptorSetLayout");
  layout.setLayoutCount = 1;
  layout.pSetLayouts = &setLayout_;
  check(vk.vkCreatePipelineLayout(impl_.device, &layout, nullptr, &descriptorLayout_),
        "vkCreatePipelineLayout");

  bindings[0].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
  check(vk.vkCreateDescriptorSetLayout(impl_.device, &setLayout, nullptr, &texelSetLayout_),
        "vkCreateDescriptorSetLayout");
  layout.pSetLayouts = &texelSetLayout_;
  check(vk.vkCreatePipelineLayout(impl_.device, &layout, nullptr, &texelLayout_),
        "vkCreatePipelineLayout");
  VkDescriptorPoolSize poolSizes[2] = {
      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2 * kMaxDescriptorSets},
      {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, kMaxDescriptorSets}};
  auto descriptorPool =
      vkStruct<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
  descriptorPool.maxSets = kMaxDescriptorSets;
  descriptorPool.poolSizeCount = 2;
  descriptorPool.pPoolSizes = poolSizes;
  check(vk.vkCreateDescriptorPool(impl_.device, &descriptorPool, nullptr, &descriptorPool_),
        "vkCreateDescriptorPool");
}

Gpu::~Gpu() {
  destroyObjects();
}

void Gpu::destroyObjects() noexcept {
  const VolkDeviceTable& vk = impl_.vk;
  for (auto& entry : pipelines_) vk.vkDestroyPipeline(impl_.device, entry.second, nullptr);
  if (layout_ != VK_NULL_HANDLE) vk.vkDestroyPipelineLayout(impl_.device, layout_, nullptr);
  if (descriptorLayout_ != VK_NULL_HANDLE) {
    vk.vkDestroyPipelineLayout(impl_.device, descriptorLayout_, nullptr);
  }
  if (setLayout_ != VK_NULL_HANDLE) {
    vk.vkDestroyDescriptorSetLayout(impl_.device, setLayout_, nullptr);
  }
  if (texelLayout_ != VK_NULL_HANDLE) {
    vk.vkDestroyPipelineLayout(impl_.device, texelLayout_, nullptr);
  }
  if (texelSetLayout_ != VK_NULL_HANDLE) {
    vk.vkDestroyDescriptorSetLayout(impl_.device, texelSetLayout_, nullptr);
  }
  if (descriptorPool_ != VK_NULL_HANDLE) {
    vk.vkDestroyDescriptorPool(impl_.device, descriptorPool_, nullptr);
  }
  if (fence_ != VK_NULL_HANDLE) vk.vkDestroyFence(impl_.device, fence_, nullptr);
  if (pool_ != VK_NULL_HANDLE) vk.vkDestroyCommandPool(impl_.device, pool_, nullptr);
}

VkDeviceAddress Gpu::address(const DeviceBuffer& buffer) const {
  auto info = vkStruct<VkBufferDeviceAddressInfo>(VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO);
  info.buffer = buffer.buffer();
  return impl_.vk.vkGetBufferDeviceAddress(impl_.device, &info);
}

VkPipeline Gpu::pipeline(const uint32_t* words, size_t wordCount, uint32_t workgroupSize,
                         Bindings bindings, bool wholeTiles) {
  auto key = std::make_tuple(words, workgroupSize, wholeTiles);
  auto found = pipelines_.find(key);
  if (found != pipelines_.end()) return found->second;

  const uint32_t constants[2] = {workgroupSize, wholeTiles ? VK_TRUE : VK_FALSE};
  const VkSpecializationMapEntry entries[2] = {{0, 0, sizeof(uint32_t)},
                                               {1, sizeof(uint32_t), sizeof(uint32_t)}};
  VkSpecializationInfo specialization{2, entries, sizeof(constants), constants};
  VkPipeline pipeline =
      detail::createComputePipeline(impl_.vk, impl_.device, VK_NULL_HANDLE, words, wordCount,
                                    layoutFor(bindings), &specialization);
  pipelines_.emplace(key, pipeline);
  return pipeline;
}

VkDescriptorSet Gpu::allocateSet(VkDescriptorSetLayout layout) {
  auto allocate =
      vkStruct<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
  allocate.descriptorPool = descriptorPool_;
  allocate.descriptorSetCount = 1;
  allocate.pSetLayouts = &layout;
  VkDescriptorSet set = VK_NULL_HANDLE;
  check(impl_.vk.vkAllocateDescriptorSets(impl_.device, &allocate, &set),
        "vkAllocateDescriptorSets");
  return set;
}

VkDescriptorSet Gpu::bufferPair(const DeviceBuffer& source, const DeviceBuffer& destination) {
  const VolkDeviceTable& vk = impl_.vk;
  VkDescriptorSet set = allocateSet(setLayout_);
  VkDescriptorBufferInfo buffers[2] = {{source.buffer(), 0, VK_WHOLE_SIZE},
                                       {destination.buffer(), 0, VK_WHOLE_SIZE}};
  auto write = vkStruct<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
  write.dstSet = set;
  write.dstBinding = 0;
  write.descriptorCount = 2;
  write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  write.pBufferInfo = buffers;
  vk.vkUpdateDescriptorSets(impl_.device, 1, &write, 0, nullptr);
  return set;
}

VkDescriptorSet Gpu::texelSourcePair(const DeviceBuffer& source, const DeviceBuffer& destination) {
  const VolkDeviceTable& vk = impl_.vk;
  VkBufferView view = source.texelView();
  if (view == VK_NULL_HANDLE) throw Error("texelSourcePair: the source buffer has no texel view");
  VkDescriptorSet set = allocateSet(texelSetLayout_);
  VkDescriptorBufferInfo target{destination.buffer(), 0, VK_WHOLE_SIZE};
  VkWriteDescriptorSet writes[2];
  for (uint32_t i = 0; i < 2; ++i) {
    writes[i] = vkStruct<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    writes[i].dstSet = set;
    writes[i].dstBinding = i;
    writes[i].descriptorCount = 1;
  }
  writes[0].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
  writes[0].pTexelBufferView = &view;
  writes[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  writes[1].pBufferInfo = &target;
  vk.vkUpdateDescriptorSets(impl_.device, 2, writes, 0, nullptr);
  return set;
}

void Gpu::releaseDescriptorSets() {
  check(impl_.vk.vkResetDescriptorPool(impl_.device, descriptorPool_, 0), "vkResetDescriptorPool");
}

VkPipelineLayout Gpu::layoutFor(Bindings bindings) const {
  switch (bindings) {
    case Bindings::StorageBuffers:
      return descriptorLayout_;
    case Bindings::TexelSource:
      return texelLayout_;
    case Bindings::Addresses:
      break;
  }
  return layout_;
}

void Gpu::recordCopy(VkCommandBuffer commandBuffer, VkPipeline pipeline, const CopyParams& params,
                     const CopyDispatch& dispatch, VkDescriptorSet set, Bindings bindings) const {
  CopyParams pushed = params;
  pushed.groupsX = dispatch.groupsX;
  pushed.firstGroup = dispatch.firstGroup;
  VkPipelineLayout layout = layoutFor(bindings);
  impl_.vk.vkCmdBindPipeline(commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  if (set != VK_NULL_HANDLE) {
    impl_.vk.vkCmdBindDescriptorSets(commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1,
                                     &set, 0, nullptr);
  }
  impl_.vk.vkCmdPushConstants(commandBuffer, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(pushed),
                              &pushed);
  impl_.vk.vkCmdDispatch(commandBuffer, dispatch.groupsX, dispatch.groupsY, 1);
}

void Gpu::recordNaive(VkCommandBuffer commandBuffer, VkPipeline pipeline, const NaiveParams& params,
                      uint32_t workgroupSize) const {
  NaiveParams pushed = params;
  uint64_t groups = (uint64_t(params.lineCount) + workgroupSize - 1) / workgroupSize;
  uint32_t groupsY = 0;
  splitGroups(groups, pushed.groupsX, groupsY);
  if (groups == 0) return;
  impl_.vk.vkCmdBindPipeline(commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  impl_.vk.vkCmdPushConstants(commandBuffer, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                              sizeof(pushed), &pushed);
  impl_.vk.vkCmdDispatch(commandBuffer, pushed.groupsX, groupsY, 1);
}

void Gpu::recordBarrier(VkCommandBuffer commandBuffer) const {
  barrierFromPreviousWork(impl_.vk, commandBuffer);
}

void Gpu::recordRestore(VkCommandBuffer commandBuffer, const DeviceBuffer& source,
                        const DeviceBuffer& destination, VkDeviceSize bytes) const {
  VkBufferCopy region{0, 0, bytes};
  impl_.vk.vkCmdCopyBuffer(commandBuffer, source.buffer(), destination.buffer(), 1, &region);
  // The scan reads (and in place writes) what the copy wrote.
  auto barrier = vkStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  impl_.vk.vkCmdPipelineBarrier(commandBuffer, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0, nullptr, 0,
                                nullptr);
}

std::unique_ptr<TimedCommands> Gpu::record(const Recorder& body, const Recorder& prologue) {
  const VolkDeviceTable& vk = impl_.vk;
  std::unique_ptr<TimedCommands> commands(new TimedCommands(*this));
  auto allocate =
      vkStruct<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  allocate.commandPool = pool_;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = 1;
  check(vk.vkAllocateCommandBuffers(impl_.device, &allocate, &commands->commandBuffer_),
        "vkAllocateCommandBuffers");
  auto queries = vkStruct<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
  queries.queryType = VK_QUERY_TYPE_TIMESTAMP;
  queries.queryCount = 2;
  check(vk.vkCreateQueryPool(impl_.device, &queries, nullptr, &commands->queries_),
        "vkCreateQueryPool");

  VkCommandBuffer commandBuffer = commands->commandBuffer_;
  auto begin = vkStruct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  check(vk.vkBeginCommandBuffer(commandBuffer, &begin), "vkBeginCommandBuffer");
  vk.vkCmdResetQueryPool(commandBuffer, commands->queries_, 0, 2);
  barrierFromPreviousWork(vk, commandBuffer);
  if (prologue) prologue(commandBuffer);
  // BOTTOM_OF_PIPE: written once everything recorded before has finished.
  vk.vkCmdWriteTimestamp(commandBuffer, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, commands->queries_,
                         0);
  body(commandBuffer);
  vk.vkCmdWriteTimestamp(commandBuffer, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, commands->queries_,
                         1);
  barrierToHost(vk, commandBuffer);
  check(vk.vkEndCommandBuffer(commandBuffer), "vkEndCommandBuffer");
  return commands;
}

Sample Gpu::submit(TimedCommands& commands) {
  const VolkDeviceTable& vk = impl_.vk;
  auto submit = vkStruct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands.commandBuffer_;
  auto start = std::chrono::steady_clock::now();
  {
    std::lock_guard<std::mutex> lock(impl_.queueMutex);
    check(vk.vkQueueSubmit(impl_.queue, 1, &submit, fence_), "vkQueueSubmit");
  }
  check(vk.vkWaitForFences(impl_.device, 1, &fence_, VK_TRUE, impl_.options.timeoutNs),
        "vkWaitForFences");
  auto end = std::chrono::steady_clock::now();
  check(vk.vkResetFences(impl_.device, 1, &fence_), "vkResetFences");
  uint64_t stamps[2] = {0, 0};
  check(
      vk.vkGetQueryPoolResults(impl_.device, commands.queries_, 0, 2, sizeof(stamps), stamps,
                               sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
      "vkGetQueryPoolResults");
  Sample sample;
  sample.gpuNs = double(stamps[1] - stamps[0]) * double(impl_.capabilities.timestampPeriod);
  sample.wallNs = std::chrono::duration<double, std::nano>(end - start).count();
  return sample;
}

}  // namespace vkscan::bench
