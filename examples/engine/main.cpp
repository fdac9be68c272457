// An engine that owns its Vulkan objects and records a vkscan operator
// between two passes of its own, in one command buffer:
//
//   produce x[i] = i % 7 + 1 -> barrier -> vkscan: cumsum = inclusive sum of x
//   -> barrier -> consume y[i] = 2 * cumsum[i] -> copy y to a staging buffer
//
// The instance, device, queue, memory, pipelines and command buffer are the
// engine's; vkscan gets the handles and what the device was created with.
// Under VK_LAYER_KHRONOS_validation (with synchronization validation) any
// message fails the run, so the barriers below are the ones the contract in
// <vkscan/vkscan.hpp> asks for, no more.
//
// Environment: VKSCAN_DEVICE picks a device by index or by part of its name;
// VKSCAN_REQUIRE_VALIDATION=1 fails when the layer is not installed.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>
#include <vkscan/vkscan.hpp>

// The engine's shaders as SPIR-V words, generated at build time
// (CMakeLists.txt).
#include "consume.spv.h"
#include "produce.spv.h"

namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";
// Not a power of two, so the scan ends in a partial tile.
constexpr uint32_t kCount = 1000003;
constexpr uint32_t kWorkgroupSize = 64;  // local_size_x of both shaders

uint32_t validationMessages = 0;

// A Vulkan struct with its sType (and pNext) set and every other member zero.
template <typename T>
T make(VkStructureType type, void* next = nullptr) {
  T value{};
  value.sType = type;
  value.pNext = next;
  return value;
}

void check(VkResult result, const char* call) {
  if (result != VK_SUCCESS) {
    throw std::runtime_error(std::string(call) + " failed: " + vkscan::vkResultName(result));
  }
}

VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                         VkDebugUtilsMessageTypeFlagsEXT,
                                         const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  ++validationMessages;
  std::fprintf(stderr, "validation: %s\n", data->pMessage);
  return VK_FALSE;
}

bool hasLayer(const char* name) {
  uint32_t count = 0;
  vkEnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> layers(count);
  vkEnumerateInstanceLayerProperties(&count, layers.data());
  for (const VkLayerProperties& layer : layers) {
    if (std::strcmp(layer.layerName, name) == 0) return true;
  }
  return false;
}

bool hasDeviceExtension(VkPhysicalDevice physical, const char* name) {
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, extensions.data());
  for (const VkExtensionProperties& extension : extensions) {
    if (std::strcmp(extension.extensionName, name) == 0) return true;
  }
  return false;
}

uint32_t computeFamily(VkPhysicalDevice physical) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, families.data());
  for (uint32_t i = 0; i < count; ++i) {
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) return i;
  }
  return UINT32_MAX;
}

// The first device with Vulkan 1.2 and a compute queue, or the one
// VKSCAN_DEVICE names by index or by part of its name.
VkPhysicalDevice pickPhysicalDevice(VkInstance instance) {
  uint32_t count = 0;
  check(vkEnumeratePhysicalDevices(instance, &count, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> devices(count);
  check(vkEnumeratePhysicalDevices(instance, &count, devices.data()), "vkEnumeratePhysicalDevices");
  const char* wanted = std::getenv("VKSCAN_DEVICE");
  for (uint32_t i = 0; i < count; ++i) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(devices[i], &properties);
    if (wanted != nullptr && *wanted != '\0' && std::to_string(i) != wanted &&
        std::strstr(properties.deviceName, wanted) == nullptr) {
      continue;
    }
    if (properties.apiVersion >= VK_API_VERSION_1_2 && computeFamily(devices[i]) != UINT32_MAX) {
      std::printf("device: %s\n", properties.deviceName);
      return devices[i];
    }
  }
  throw std::runtime_error("no Vulkan 1.2 device with a compute queue (or VKSCAN_DEVICE's)");
}

struct Buffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
};

// A buffer with its own memory: of a type with all of `required`, and with
// `preferred` too where one has it (device-local for the GPU's buffers).
Buffer createBuffer(VkPhysicalDevice physical, VkDevice device, VkDeviceSize size,
                    VkBufferUsageFlags usage, VkMemoryPropertyFlags required,
                    VkMemoryPropertyFlags preferred) {
  Buffer result;
  auto info = make<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  info.size = size;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  check(vkCreateBuffer(device, &info, nullptr, &result.buffer), "vkCreateBuffer");

  VkMemoryRequirements needs;
  vkGetBufferMemoryRequirements(device, result.buffer, &needs);
  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(physical, &memory);
  uint32_t type = UINT32_MAX;
  for (VkMemoryPropertyFlags want : {required | preferred, required}) {
    for (uint32_t i = 0; i < memory.memoryTypeCount && type == UINT32_MAX; ++i) {
      const VkMemoryPropertyFlags has = memory.memoryTypes[i].propertyFlags;
      if ((needs.memoryTypeBits & (1u << i)) && (has & want) == want) type = i;
    }
  }
  if (type == UINT32_MAX) throw std::runtime_error("no memory type fits a buffer");

  // vkscan reaches its buffers by device address, which Vulkan allows only
  // for memory allocated with this flag.
  auto flags = make<VkMemoryAllocateFlagsInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO);
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  auto allocate = make<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  allocate.pNext = (usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT) ? &flags : nullptr;
  allocate.allocationSize = needs.size;
  allocate.memoryTypeIndex = type;
  check(vkAllocateMemory(device, &allocate, nullptr, &result.memory), "vkAllocateMemory");
  check(vkBindBufferMemory(device, result.buffer, result.memory, 0), "vkBindBufferMemory");
  return result;
}

void destroyBuffer(VkDevice device, Buffer& buffer) {
  vkDestroyBuffer(device, buffer.buffer, nullptr);
  vkFreeMemory(device, buffer.memory, nullptr);
}

// One global memory barrier: all the example's hazards are on whole buffers.
void barrier(VkCommandBuffer commands, VkPipelineStageFlags srcStage, VkAccessFlags srcAccess,
             VkPipelineStageFlags dstStage, VkAccessFlags dstAccess) {
  auto memory = make<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  memory.srcAccessMask = srcAccess;
  memory.dstAccessMask = dstAccess;
  vkCmdPipelineBarrier(commands, srcStage, dstStage, 0, 1, &memory, 0, nullptr, 0, nullptr);
}

VkPipeline createPipeline(VkDevice device, VkPipelineLayout layout, const uint32_t* code,
                          size_t bytes) {
  auto moduleInfo = make<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  moduleInfo.codeSize = bytes;
  moduleInfo.pCode = code;
  VkShaderModule module = VK_NULL_HANDLE;
  check(vkCreateShaderModule(device, &moduleInfo, nullptr, &module), "vkCreateShaderModule");
  auto info = make<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module;
  info.stage.pName = "main";
  info.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  const VkResult result =
      vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
  vkDestroyShaderModule(device, module, nullptr);
  check(result, "vkCreateComputePipelines");
  return pipeline;
}

int run() {
  // --- Instance: validation with synchronization validation when installed.
  const char* require = std::getenv("VKSCAN_REQUIRE_VALIDATION");
  const bool requireValidation = require != nullptr && std::strcmp(require, "1") == 0;
  const bool validating = hasLayer(kValidationLayer);
  if (!validating && requireValidation) {
    std::fprintf(stderr, "error: %s is not installed (VKSCAN_REQUIRE_VALIDATION=1)\n",
                 kValidationLayer);
    return 1;
  }
  if (!validating) std::printf("note: %s is not installed; nothing is checked\n", kValidationLayer);
  auto app = make<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.pApplicationName = "vkscan engine example";
  app.apiVersion = VK_API_VERSION_1_2;
  // Synchronization validation is off by default; it is what checks barriers.
  const VkValidationFeatureEnableEXT enables[] = {
      VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  auto features = make<VkValidationFeaturesEXT>(VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT);
  features.enabledValidationFeatureCount = 1;
  features.pEnabledValidationFeatures = enables;
  auto messengerInfo = make<VkDebugUtilsMessengerCreateInfoEXT>(
      VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT);
  messengerInfo.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                                  VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messengerInfo.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                              VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                              VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messengerInfo.pfnUserCallback = onMessage;
  // Chained here, the messenger also sees vkCreateInstance and vkDestroyInstance.
  features.pNext = &messengerInfo;
  const char* instanceExtensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME,
                                      VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME};
  auto instanceInfo = make<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  instanceInfo.pApplicationInfo = &app;
  if (validating) {
    instanceInfo.pNext = &features;
    instanceInfo.enabledLayerCount = 1;
    instanceInfo.ppEnabledLayerNames = &kValidationLayer;
    instanceInfo.enabledExtensionCount = 2;
    instanceInfo.ppEnabledExtensionNames = instanceExtensions;
  }
  VkInstance instance = VK_NULL_HANDLE;
  check(vkCreateInstance(&instanceInfo, nullptr, &instance), "vkCreateInstance");
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  if (validating) {
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
    check(create(instance, &messengerInfo, nullptr, &messenger), "vkCreateDebugUtilsMessengerEXT");
  }

  // --- Device: the features this engine wants, as one chain.
  VkPhysicalDevice physical = pickPhysicalDevice(instance);
  auto supported12 =
      make<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  auto supported11 = make<VkPhysicalDeviceVulkan11Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &supported12);
  auto supported =
      make<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &supported11);
  vkGetPhysicalDeviceFeatures2(physical, &supported);
  if (!supported12.bufferDeviceAddress) throw std::runtime_error("no bufferDeviceAddress");

  auto enabled12 =
      make<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  enabled12.bufferDeviceAddress = VK_TRUE;  // vkscan requires it
  auto enabled11 = make<VkPhysicalDeviceVulkan11Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &enabled12);
  // Optional for vkscan: without them it uses 32-bit words (same results).
  enabled11.storageBuffer16BitAccess = supported11.storageBuffer16BitAccess;
  auto enabled =
      make<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &enabled11);
  enabled.features.shaderInt64 = supported.features.shaderInt64;

  // VK_KHR_push_descriptor is optional too; enabled here to show listing it.
  std::vector<const char*> deviceExtensions;
  if (hasDeviceExtension(physical, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME)) {
    deviceExtensions.push_back(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  }
  const uint32_t family = computeFamily(physical);
  const float priority = 1.0f;
  auto queueInfo = make<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  queueInfo.queueFamilyIndex = family;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  auto deviceInfo = make<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &enabled);
  deviceInfo.queueCreateInfoCount = 1;
  deviceInfo.pQueueCreateInfos = &queueInfo;
  deviceInfo.enabledExtensionCount = static_cast<uint32_t>(deviceExtensions.size());
  deviceInfo.ppEnabledExtensionNames = deviceExtensions.data();
  VkDevice device = VK_NULL_HANDLE;
  check(vkCreateDevice(physical, &deviceInfo, nullptr, &device), "vkCreateDevice");
  VkQueue queue = VK_NULL_HANDLE;
  vkGetDeviceQueue(device, family, 0, &queue);

  bool correct = false;
  {  // vkscan's objects live in this scope: they must go before the device.
    // --- vkscan: the same handles, feature chain and extensions as above.
    vkscan::ExternalDevice external;
    external.instance = instance;
    external.physicalDevice = physical;
    external.device = device;
    external.getInstanceProcAddr = vkGetInstanceProcAddr;
    external.enabledFeatures = &enabled;
    external.enabledExtensionCount = static_cast<uint32_t>(deviceExtensions.size());
    external.enabledExtensionNames = deviceExtensions.data();
    // external.queue stays null: only vkscan::run() submits; this engine does.
    vkscan::Device scanDevice(external);

    vkscan::CumulativeSummationDesc desc;
    desc.input = {vkscan::DataType::UInt32, {kCount}, {}};
    desc.output = desc.input;
    desc.axis = 0;
    const vkscan::Operator scan = scanDevice.createOperator(desc);
    std::printf("vkscan plan:\n%s", scan.describe().c_str());
    const VkDeviceSize bytes = desc.input.totalBytes();

    // --- Buffers. vkscan's bindings (x, cumsum, scratch) need STORAGE_BUFFER and
    // SHADER_DEVICE_ADDRESS; scratch also TRANSFER_DST (vkscan may fill part of it).
    const VkBufferUsageFlags scanUsage =
        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    const VkMemoryPropertyFlags local = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    Buffer x = createBuffer(physical, device, bytes, scanUsage, 0, local);
    Buffer cumsum = createBuffer(physical, device, bytes, scanUsage, 0, local);
    Buffer scratch;  // none when the plan needs none
    if (scan.scratchSize() > 0) {
      scratch = createBuffer(physical, device, scan.scratchSize(),
                             scanUsage | VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0, local);
    }
    Buffer y = createBuffer(physical, device, bytes,
                            VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                            0, local);
    Buffer staging =
        createBuffer(physical, device, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                     VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 0);

    // --- The engine's passes: binding 0 in, binding 1 out, the count pushed.
    VkDescriptorSetLayoutBinding bindings[2] = {};
    for (uint32_t i = 0; i < 2; ++i) {
      bindings[i].binding = i;
      bindings[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      bindings[i].descriptorCount = 1;
      bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    auto setLayoutInfo =
        make<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
    setLayoutInfo.bindingCount = 2;
    setLayoutInfo.pBindings = bindings;
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    check(vkCreateDescriptorSetLayout(device, &setLayoutInfo, nullptr, &setLayout),
          "vkCreateDescriptorSetLayout");
    const VkPushConstantRange pushRange = {VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(uint32_t)};
    auto layoutInfo =
        make<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
    layoutInfo.setLayoutCount = 1;
    layoutInfo.pSetLayouts = &setLayout;
    layoutInfo.pushConstantRangeCount = 1;
    layoutInfo.pPushConstantRanges = &pushRange;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    check(vkCreatePipelineLayout(device, &layoutInfo, nullptr, &layout), "vkCreatePipelineLayout");
    VkPipeline produce = createPipeline(device, layout, kProduceSpirv, sizeof(kProduceSpirv));
    VkPipeline consume = createPipeline(device, layout, kConsumeSpirv, sizeof(kConsumeSpirv));

    const VkDescriptorPoolSize poolSize = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4};
    auto poolInfo = make<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
    poolInfo.maxSets = 2;
    poolInfo.poolSizeCount = 1;
    poolInfo.pPoolSizes = &poolSize;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    check(vkCreateDescriptorPool(device, &poolInfo, nullptr, &pool), "vkCreateDescriptorPool");
    const VkDescriptorSetLayout setLayouts[2] = {setLayout, setLayout};
    auto setInfo =
        make<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
    setInfo.descriptorPool = pool;
    setInfo.descriptorSetCount = 2;
    setInfo.pSetLayouts = setLayouts;
    VkDescriptorSet sets[2];  // [0] the producer's, [1] the consumer's
    check(vkAllocateDescriptorSets(device, &setInfo, sets), "vkAllocateDescriptorSets");
    const VkDescriptorBufferInfo xInfo = {x.buffer, 0, bytes};
    const VkDescriptorBufferInfo cumsumInfo = {cumsum.buffer, 0, bytes};
    const VkDescriptorBufferInfo yInfo = {y.buffer, 0, bytes};
    VkWriteDescriptorSet writes[3] = {};
    const VkDescriptorSet writeSets[3] = {sets[0], sets[1], sets[1]};
    const uint32_t writeBindings[3] = {1, 0, 1};  // producer: x out; consumer: cumsum in, y out
    const VkDescriptorBufferInfo* writeBuffers[3] = {&xInfo, &cumsumInfo, &yInfo};
    for (int i = 0; i < 3; ++i) {
      writes[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
      writes[i].dstSet = writeSets[i];
      writes[i].dstBinding = writeBindings[i];
      writes[i].descriptorCount = 1;
      writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      writes[i].pBufferInfo = writeBuffers[i];
    }
    vkUpdateDescriptorSets(device, 3, writes, 0, nullptr);

    // --- One command buffer: produce, scan, consume, read back.
    auto commandPoolInfo =
        make<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
    commandPoolInfo.queueFamilyIndex = family;
    VkCommandPool commandPool = VK_NULL_HANDLE;
    check(vkCreateCommandPool(device, &commandPoolInfo, nullptr, &commandPool),
          "vkCreateCommandPool");
    auto commandInfo =
        make<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
    commandInfo.commandPool = commandPool;
    commandInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    commandInfo.commandBufferCount = 1;
    VkCommandBuffer commands = VK_NULL_HANDLE;
    check(vkAllocateCommandBuffers(device, &commandInfo, &commands), "vkAllocateCommandBuffers");
    auto begin = make<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(vkBeginCommandBuffer(commands, &begin), "vkBeginCommandBuffer");

    const uint32_t groups = (kCount + kWorkgroupSize - 1) / kWorkgroupSize;
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, produce);
    vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &sets[0], 0,
                            nullptr);
    vkCmdPushConstants(commands, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(kCount), &kCount);
    vkCmdDispatch(commands, groups, 1, 1);

    // vkscan's "before": the producer's writes to x made visible to compute
    // shaders that read and write. The same compute->compute dependency also
    // orders earlier reads of cumsum and scratch (a previous frame's consumer)
    // before the scan overwrites them.
    barrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    scan.record(commands, {x.buffer, 0, bytes}, {cumsum.buffer, 0, bytes},
                {scratch.buffer, 0, scan.scratchSize()});
    // vkscan's "after": cumsum is written by compute shaders; this consumer
    // reads it in a compute shader.
    barrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);

    // record() changed the bound pipeline, the push constants and (with
    // VK_KHR_push_descriptor) set 0: bind all three again.
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, consume);
    vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &sets[1], 0,
                            nullptr);
    vkCmdPushConstants(commands, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(kCount), &kCount);
    vkCmdDispatch(commands, groups, 1, 1);

    // The consumer's writes to y, then read by the copy.
    barrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
            VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    const VkBufferCopy region = {0, 0, bytes};
    vkCmdCopyBuffer(commands, y.buffer, staging.buffer, 1, &region);
    // The fence makes the work finished, not its writes visible to the host.
    barrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
            VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    check(vkEndCommandBuffer(commands), "vkEndCommandBuffer");

    auto fenceInfo = make<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
    VkFence fence = VK_NULL_HANDLE;
    check(vkCreateFence(device, &fenceInfo, nullptr, &fence), "vkCreateFence");
    auto submit = make<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commands;
    check(vkQueueSubmit(queue, 1, &submit, fence), "vkQueueSubmit");
    check(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");

    // --- Check against a CPU loop; integers, so exactly.
    void* mapped = nullptr;
    check(vkMapMemory(device, staging.memory, 0, bytes, 0, &mapped), "vkMapMemory");
    const auto* result = static_cast<const uint32_t*>(mapped);
    uint32_t sum = 0;
    correct = true;
    for (uint32_t i = 0; i < kCount && correct; ++i) {
      sum += i % 7 + 1;
      if (result[i] != 2 * sum) {
        std::fprintf(stderr, "y[%u] = %u, expected %u\n", i, result[i], 2 * sum);
        correct = false;
      }
    }
    vkUnmapMemory(device, staging.memory);
    if (correct) std::printf("OK: y[i] = 2 * cumsum(x)[i] for %u elements\n", kCount);

    vkDestroyFence(device, fence, nullptr);
    vkDestroyCommandPool(device, commandPool, nullptr);
    vkDestroyDescriptorPool(device, pool, nullptr);
    vkDestroyPipeline(device, consume, nullptr);
    vkDestroyPipeline(device, produce, nullptr);
    vkDestroyPipelineLayout(device, layout, nullptr);
    vkDestroyDescriptorSetLayout(device, setLayout, nullptr);
    for (Buffer* buffer : {&staging, &y, &scratch, &cumsum, &x}) destroyBuffer(device, *buffer);
  }

  vkDestroyDevice(device, nullptr);
  if (messenger != VK_NULL_HANDLE) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
    destroy(instance, messenger, nullptr);
  }
  vkDestroyInstance(instance, nullptr);

  if (validating) std::printf("validation messages: %u\n", validationMessages);
  return correct && validationMessages == 0 ? 0 : 1;
}

}  // namespace

int main() {
  try {
    return run();
  } catch (const std::exception& error) {  // vkscan::Error and the example's own
    std::fprintf(stderr, "error: %s\n", error.what());
    return 1;
  }
}
