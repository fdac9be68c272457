#include "gpu.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>

#include "device_buffer.hpp"

namespace vkscan::bench {
namespace {

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

// volk's instance-level functions are globals that follow the last instance
// loaded: each use loads the device's own instance first.
void loadInstance(const Device& device) {
  if (volkInitialize() != VK_SUCCESS) {
    throw Unsupported("vkscan-bench: the Vulkan loader (libvulkan.so.1) cannot be loaded");
  }
  volkLoadInstanceOnly(device.instance());
}

VkPhysicalDeviceMemoryProperties memoryPropertiesOf(const Device& device) {
  loadInstance(device);
  VkPhysicalDeviceMemoryProperties memory{};
  vkGetPhysicalDeviceMemoryProperties(device.physicalDevice(), &memory);
  return memory;
}

// Device-local memory the host cannot map, or a device that is a GPU: the
// tensors then go to device-local memory (Gpu::tensorPlacement()).
bool wantsDeviceLocal(const DeviceCapabilities& caps,
                      const VkPhysicalDeviceMemoryProperties& memory) {
  if (caps.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU ||
      caps.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU)
    return true;
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
    const VkMemoryPropertyFlags flags = memory.memoryTypes[i].propertyFlags;
    if ((flags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) &&
        !(flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
      return true;
  }
  return false;
}

// One staging chunk: large enough that a GiB tensor takes a few dozen
// submissions, small enough to stay a modest pinned host allocation.
constexpr VkDeviceSize kStagingBytes = 64ull << 20;

VkPipeline createComputePipeline(const VolkDeviceTable& vk, VkDevice device, const uint32_t* words,
                                 size_t wordCount, VkPipelineLayout layout,
                                 const VkSpecializationInfo* specialization) {
  auto moduleInfo = vkStruct<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  moduleInfo.codeSize = wordCount * sizeof(uint32_t);
  moduleInfo.pCode = words;
  VkShaderModule module = VK_NULL_HANDLE;
  check(vk.vkCreateShaderModule(device, &moduleInfo, nullptr, &module), "vkCreateShaderModule");
  auto info = vkStruct<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  info.stage = vkStruct<VkPipelineShaderStageCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module;
  info.stage.pName = "main";
  info.stage.pSpecializationInfo = specialization;
  info.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkResult result =
      vk.vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
  vk.vkDestroyShaderModule(device, module, nullptr);
  check(result, "vkCreateComputePipelines");
  return pipeline;
}

}  // namespace

TimedCommands::~TimedCommands() {
  const VolkDeviceTable& vk = gpu_.vk();
  VkDevice device = gpu_.device();
  if (queries_ != VK_NULL_HANDLE) vk.vkDestroyQueryPool(device, queries_, nullptr);
  if (commandBuffer_ != VK_NULL_HANDLE) {
    vk.vkFreeCommandBuffers(device, gpu_.pool_, 1, &commandBuffer_);
  }
}

VolkDeviceTable Gpu::loadTable(const Device& device) {
  loadInstance(device);
  VolkDeviceTable vk{};
  volkLoadDeviceTable(&vk, device.handle());
  return vk;
}

Gpu::Gpu(const Device& device) : Gpu(device, loadTable(device)) {}

Gpu::Gpu(const Device& device, const VolkDeviceTable& vk)
    : vk_(vk),
      device_(device.handle()),
      queue_(device.queue()),
      queueFamilyIndex_(device.queueFamilyIndex()),
      capabilities_(vkscan::capabilities(device)),
      memory_(memoryPropertiesOf(device)),
      placement_(wantsDeviceLocal(capabilities_, memory_) ? Placement::DeviceLocal
                                                          : Placement::HostVisible) {
  // A destructor does not run for a constructor that throws.
  try {
    createObjects();
  } catch (...) {
    destroyObjects();
    throw;
  }
}

void Gpu::createObjects() {
  const VolkDeviceTable& vk = vk_;
  auto pool = vkStruct<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool.queueFamilyIndex = queueFamilyIndex_;
  check(vk.vkCreateCommandPool(device_, &pool, nullptr, &pool_), "vkCreateCommandPool");
  auto allocate =
      vkStruct<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  allocate.commandPool = pool_;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = 1;
  check(vk.vkAllocateCommandBuffers(device_, &allocate, &scratch_), "vkAllocateCommandBuffers");
  auto fence = vkStruct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  check(vk.vkCreateFence(device_, &fence, nullptr, &fence_), "vkCreateFence");
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, kPushBytes};
  auto layout = vkStruct<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  layout.pushConstantRangeCount = 1;
  layout.pPushConstantRanges = &range;
  check(vk.vkCreatePipelineLayout(device_, &layout, nullptr, &layout_), "vkCreatePipelineLayout");

  VkDescriptorSetLayoutBinding bindings[2] = {
      {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
      {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
  auto setLayout = vkStruct<VkDescriptorSetLayoutCreateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
  setLayout.bindingCount = 2;
  setLayout.pBindings = bindings;
  check(vk.vkCreateDescriptorSetLayout(device_, &setLayout, nullptr, &setLayout_),
        "vkCreateDescriptorSetLayout");
  layout.setLayoutCount = 1;
  layout.pSetLayouts = &setLayout_;
  check(vk.vkCreatePipelineLayout(device_, &layout, nullptr, &descriptorLayout_),
        "vkCreatePipelineLayout");

  bindings[0].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
  check(vk.vkCreateDescriptorSetLayout(device_, &setLayout, nullptr, &texelSetLayout_),
        "vkCreateDescriptorSetLayout");
  layout.pSetLayouts = &texelSetLayout_;
  check(vk.vkCreatePipelineLayout(device_, &layout, nullptr, &texelLayout_),
        "vkCreatePipelineLayout");
  VkDescriptorPoolSize poolSizes[2] = {
      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2 * kMaxDescriptorSets},
      {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, kMaxDescriptorSets}};
  auto descriptorPool =
      vkStruct<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
  descriptorPool.maxSets = kMaxDescriptorSets;
  descriptorPool.poolSizeCount = 2;
  descriptorPool.pPoolSizes = poolSizes;
  check(vk.vkCreateDescriptorPool(device_, &descriptorPool, nullptr, &descriptorPool_),
        "vkCreateDescriptorPool");
}

Gpu::~Gpu() {
  staging_.reset();
  destroyObjects();
}

void Gpu::destroyObjects() noexcept {
  const VolkDeviceTable& vk = vk_;
  for (auto& entry : pipelines_) vk.vkDestroyPipeline(device_, entry.second, nullptr);
  if (layout_ != VK_NULL_HANDLE) vk.vkDestroyPipelineLayout(device_, layout_, nullptr);
  if (descriptorLayout_ != VK_NULL_HANDLE) {
    vk.vkDestroyPipelineLayout(device_, descriptorLayout_, nullptr);
  }
  if (setLayout_ != VK_NULL_HANDLE) {
    vk.vkDestroyDescriptorSetLayout(device_, setLayout_, nullptr);
  }
  if (texelLayout_ != VK_NULL_HANDLE) {
    vk.vkDestroyPipelineLayout(device_, texelLayout_, nullptr);
  }
  if (texelSetLayout_ != VK_NULL_HANDLE) {
    vk.vkDestroyDescriptorSetLayout(device_, texelSetLayout_, nullptr);
  }
  if (descriptorPool_ != VK_NULL_HANDLE) {
    vk.vkDestroyDescriptorPool(device_, descriptorPool_, nullptr);
  }
  if (fence_ != VK_NULL_HANDLE) vk.vkDestroyFence(device_, fence_, nullptr);
  if (pool_ != VK_NULL_HANDLE) vk.vkDestroyCommandPool(device_, pool_, nullptr);
}

VkDeviceAddress Gpu::address(const DeviceBuffer& buffer) const {
  auto info = vkStruct<VkBufferDeviceAddressInfo>(VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO);
  info.buffer = buffer.buffer();
  return vk_.vkGetBufferDeviceAddress(device_, &info);
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
      createComputePipeline(vk_, device_, words, wordCount, layoutFor(bindings), &specialization);
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
  check(vk_.vkAllocateDescriptorSets(device_, &allocate, &set), "vkAllocateDescriptorSets");
  return set;
}

VkDescriptorSet Gpu::bufferPair(const DeviceBuffer& source, const DeviceBuffer& destination) {
  const VolkDeviceTable& vk = vk_;
  VkDescriptorSet set = allocateSet(setLayout_);
  VkDescriptorBufferInfo buffers[2] = {{source.buffer(), 0, VK_WHOLE_SIZE},
                                       {destination.buffer(), 0, VK_WHOLE_SIZE}};
  auto write = vkStruct<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
  write.dstSet = set;
  write.dstBinding = 0;
  write.descriptorCount = 2;
  write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  write.pBufferInfo = buffers;
  vk.vkUpdateDescriptorSets(device_, 1, &write, 0, nullptr);
  return set;
}

VkDescriptorSet Gpu::texelSourcePair(const DeviceBuffer& source, const DeviceBuffer& destination) {
  const VolkDeviceTable& vk = vk_;
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
  vk.vkUpdateDescriptorSets(device_, 2, writes, 0, nullptr);
  return set;
}

void Gpu::releaseDescriptorSets() {
  check(vk_.vkResetDescriptorPool(device_, descriptorPool_, 0), "vkResetDescriptorPool");
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
  vk_.vkCmdBindPipeline(commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  if (set != VK_NULL_HANDLE) {
    vk_.vkCmdBindDescriptorSets(commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set,
                                0, nullptr);
  }
  vk_.vkCmdPushConstants(commandBuffer, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(pushed),
                         &pushed);
  vk_.vkCmdDispatch(commandBuffer, dispatch.groupsX, dispatch.groupsY, 1);
}

void Gpu::recordNaive(VkCommandBuffer commandBuffer, VkPipeline pipeline, const NaiveParams& params,
                      uint32_t workgroupSize) const {
  NaiveParams pushed = params;
  uint64_t groups = (uint64_t(params.lineCount) + workgroupSize - 1) / workgroupSize;
  uint32_t groupsY = 0;
  splitGroups(groups, pushed.groupsX, groupsY);
  if (groups == 0) return;
  vk_.vkCmdBindPipeline(commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vk_.vkCmdPushConstants(commandBuffer, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(pushed),
                         &pushed);
  vk_.vkCmdDispatch(commandBuffer, pushed.groupsX, groupsY, 1);
}

void Gpu::recordBarrier(VkCommandBuffer commandBuffer) const {
  barrierFromPreviousWork(vk_, commandBuffer);
}

void Gpu::recordRestore(VkCommandBuffer commandBuffer, const DeviceBuffer& source,
                        const DeviceBuffer& destination, VkDeviceSize bytes) const {
  VkBufferCopy region{0, 0, bytes};
  vk_.vkCmdCopyBuffer(commandBuffer, source.buffer(), destination.buffer(), 1, &region);
  // The scan reads (and in place writes) what the copy wrote.
  auto barrier = vkStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  vk_.vkCmdPipelineBarrier(commandBuffer, VK_PIPELINE_STAGE_TRANSFER_BIT,
                           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0, nullptr, 0,
                           nullptr);
}

std::unique_ptr<TimedCommands> Gpu::record(const Recorder& body, const Recorder& prologue) {
  const VolkDeviceTable& vk = vk_;
  std::unique_ptr<TimedCommands> commands(new TimedCommands(*this));
  auto allocate =
      vkStruct<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  allocate.commandPool = pool_;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = 1;
  check(vk.vkAllocateCommandBuffers(device_, &allocate, &commands->commandBuffer_),
        "vkAllocateCommandBuffers");
  auto queries = vkStruct<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
  queries.queryType = VK_QUERY_TYPE_TIMESTAMP;
  queries.queryCount = 2;
  check(vk.vkCreateQueryPool(device_, &queries, nullptr, &commands->queries_), "vkCreateQueryPool");

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
  const VolkDeviceTable& vk = vk_;
  auto submit = vkStruct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands.commandBuffer_;
  // No lock: the benchmark is single-threaded and never calls vkscan::run(),
  // the one user of the queue inside vkscan.
  auto start = std::chrono::steady_clock::now();
  check(vk.vkQueueSubmit(queue_, 1, &submit, fence_), "vkQueueSubmit");
  check(vk.vkWaitForFences(device_, 1, &fence_, VK_TRUE, kSubmitTimeoutNs), "vkWaitForFences");
  auto end = std::chrono::steady_clock::now();
  check(vk.vkResetFences(device_, 1, &fence_), "vkResetFences");
  uint64_t stamps[2] = {0, 0};
  check(
      vk.vkGetQueryPoolResults(device_, commands.queries_, 0, 2, sizeof(stamps), stamps,
                               sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
      "vkGetQueryPoolResults");
  Sample sample;
  sample.gpuNs = double(stamps[1] - stamps[0]) * double(capabilities_.timestampPeriod);
  sample.wallNs = std::chrono::duration<double, std::nano>(end - start).count();
  return sample;
}

void Gpu::stage(VkDeviceSize bytes, const ChunkCopy& copy) {
  const VkDeviceSize chunk = std::min(bytes, kStagingBytes);
  if (!staging_ || staging_->size() < chunk) {
    staging_.reset();
    staging_ = std::make_unique<DeviceBuffer>(*this, chunk);
  }
  for (VkDeviceSize offset = 0; offset < bytes; offset += chunk) {
    copy(*staging_, offset, std::min(chunk, bytes - offset));
  }
}

void Gpu::upload(const DeviceBuffer& buffer, const void* data, VkDeviceSize bytes) {
  if (buffer.mapped() != nullptr) {
    std::memcpy(buffer.mapped(), data, bytes);
    return;
  }
  stage(bytes, [&](const DeviceBuffer& staging, VkDeviceSize offset, VkDeviceSize size) {
    std::memcpy(staging.mapped(), static_cast<const uint8_t*>(data) + offset, size);
    // record() orders the copy after earlier work and its writes before later work.
    auto commands = record([&](VkCommandBuffer commandBuffer) {
      VkBufferCopy region{0, offset, size};
      vk_.vkCmdCopyBuffer(commandBuffer, staging.buffer(), buffer.buffer(), 1, &region);
    });
    submit(*commands);
  });
}

void Gpu::download(const DeviceBuffer& buffer, void* data, VkDeviceSize bytes) {
  if (buffer.mapped() != nullptr) {
    std::memcpy(data, buffer.mapped(), bytes);
    return;
  }
  stage(bytes, [&](const DeviceBuffer& staging, VkDeviceSize offset, VkDeviceSize size) {
    auto commands = record([&](VkCommandBuffer commandBuffer) {
      VkBufferCopy region{offset, 0, size};
      vk_.vkCmdCopyBuffer(commandBuffer, buffer.buffer(), staging.buffer(), 1, &region);
    });
    submit(*commands);  // ends with a barrier to host reads
    std::memcpy(static_cast<uint8_t*>(data) + offset, staging.mapped(), size);
  });
}

}  // namespace vkscan::bench
