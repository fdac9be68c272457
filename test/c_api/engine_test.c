/* The C API as an engine written in C uses it: its own instance, device,
 * queue, buffers and command buffer; vkscan wraps the device, creates an
 * operator, says its scratch size and records into the engine's command
 * buffer. Results are checked against sums computed here, and the run is
 * under the validation layer with synchronization validation when it is
 * installed (VKSCAN_REQUIRE_VALIDATION=1: required), failing on any message.
 * DML's product descriptor is recorded the same way. Then every error the
 * wrapping and recording calls can return. */
#include <stdint.h>
#include <stdlib.h>
#include <vulkan/vulkan.h>

#include "check.h"

static const char* const kValidationLayer = "VK_LAYER_KHRONOS_validation";
static uint32_t validation_messages = 0;

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT types,
                                                 const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                 void* user) {
  (void)severity;
  (void)types;
  (void)user;
  fprintf(stderr, "validation: %s\n", data->pMessage);
  ++validation_messages;
  return VK_FALSE;
}

#define VK_CHECK(call)                                                              \
  do {                                                                              \
    VkResult vk_check_ = (call);                                                    \
    if (vk_check_ != VK_SUCCESS) {                                                  \
      fprintf(stderr, "%s:%d: %s gave %d\n", __FILE__, __LINE__, #call, vk_check_); \
      exit(1);                                                                      \
    }                                                                               \
  } while (0)

typedef struct engine {
  VkInstance instance;
  VkDebugUtilsMessengerEXT messenger;
  VkPhysicalDevice physical;
  VkPhysicalDeviceVulkan12Features enabled12;
  VkPhysicalDeviceFeatures2 enabled;
  VkDevice device;
  uint32_t family;
  VkQueue queue;
  VkCommandPool pool;
} engine;

typedef struct buffer {
  VkBuffer buffer;
  VkDeviceMemory memory;
  void* mapped;
} buffer;

static int has_validation_layer(void) {
  uint32_t count = 0;
  VkLayerProperties layers[64];
  VK_CHECK(vkEnumerateInstanceLayerProperties(&count, NULL));
  if (count > 64) count = 64;
  vkEnumerateInstanceLayerProperties(&count, layers);
  for (uint32_t i = 0; i < count; ++i) {
    if (strcmp(layers[i].layerName, kValidationLayer) == 0) return 1;
  }
  return 0;
}

static uint32_t compute_family(VkPhysicalDevice physical) {
  uint32_t count = 16;
  VkQueueFamilyProperties families[16];
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, families);
  for (uint32_t i = 0; i < count; ++i) {
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) return i;
  }
  return UINT32_MAX;
}

static void create_engine(engine* e) {
  const char* require = getenv("VKSCAN_REQUIRE_VALIDATION");
  int validating = has_validation_layer();
  if (!validating && require != NULL && strcmp(require, "1") == 0) {
    fprintf(stderr, "%s is not installed (VKSCAN_REQUIRE_VALIDATION=1)\n", kValidationLayer);
    exit(1);
  }
  memset(e, 0, sizeof(*e));
  VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_2;
  const VkValidationFeatureEnableEXT enables[] = {
      VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  VkDebugUtilsMessengerCreateInfoEXT messenger = {
      .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  messenger.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                              VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messenger.pfnUserCallback = on_message;
  VkValidationFeaturesEXT features = {.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
                                      .pNext = &messenger};
  features.enabledValidationFeatureCount = 1;
  features.pEnabledValidationFeatures = enables;
  const char* extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME,
                              VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME};
  VkInstanceCreateInfo instance_info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instance_info.pApplicationInfo = &app;
  if (validating) {
    instance_info.pNext = &features;
    instance_info.enabledLayerCount = 1;
    instance_info.ppEnabledLayerNames = &kValidationLayer;
    instance_info.enabledExtensionCount = 2;
    instance_info.ppEnabledExtensionNames = extensions;
  } else {
    printf("note: %s is not installed; nothing is validated\n", kValidationLayer);
  }
  VK_CHECK(vkCreateInstance(&instance_info, NULL, &e->instance));
  if (validating) {
    PFN_vkCreateDebugUtilsMessengerEXT create =
        (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(e->instance,
                                                                  "vkCreateDebugUtilsMessengerEXT");
    VK_CHECK(create(e->instance, &messenger, NULL, &e->messenger));
  }

  uint32_t count = 8;
  VkPhysicalDevice devices[8];
  vkEnumeratePhysicalDevices(e->instance, &count, devices);
  e->family = UINT32_MAX;
  for (uint32_t i = 0; i < count && e->family == UINT32_MAX; ++i) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(devices[i], &properties);
    if (properties.apiVersion < VK_API_VERSION_1_2) continue;
    e->physical = devices[i];
    e->family = compute_family(devices[i]);
  }
  if (e->family == UINT32_MAX) {
    fprintf(stderr, "no Vulkan 1.2 device with a compute queue\n");
    exit(1);
  }

  /* vkscan needs bufferDeviceAddress; everything else is optional. */
  e->enabled12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
  e->enabled12.bufferDeviceAddress = VK_TRUE;
  e->enabled.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  e->enabled.pNext = &e->enabled12;
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = e->family;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo device_info = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                                    .pNext = &e->enabled};
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  VK_CHECK(vkCreateDevice(e->physical, &device_info, NULL, &e->device));
  vkGetDeviceQueue(e->device, e->family, 0, &e->queue);
  VkCommandPoolCreateInfo pool_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.queueFamilyIndex = e->family;
  VK_CHECK(vkCreateCommandPool(e->device, &pool_info, NULL, &e->pool));
}

static void destroy_engine(engine* e) {
  vkDestroyCommandPool(e->device, e->pool, NULL);
  vkDestroyDevice(e->device, NULL);
  if (e->messenger != VK_NULL_HANDLE) {
    PFN_vkDestroyDebugUtilsMessengerEXT destroy =
        (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
            e->instance, "vkDestroyDebugUtilsMessengerEXT");
    destroy(e->instance, e->messenger, NULL);
  }
  vkDestroyInstance(e->instance, NULL);
}

/* Host-visible and coherent, so that the test reads and writes it directly;
 * usage and memory flags as vkscan_buffer_binding asks. */
static buffer create_buffer(const engine* e, VkDeviceSize size) {
  buffer b = {VK_NULL_HANDLE, VK_NULL_HANDLE, NULL};
  VkBufferCreateInfo info = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  VK_CHECK(vkCreateBuffer(e->device, &info, NULL, &b.buffer));
  VkMemoryRequirements needs;
  vkGetBufferMemoryRequirements(e->device, b.buffer, &needs);
  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(e->physical, &memory);
  const VkMemoryPropertyFlags wanted =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  uint32_t type = UINT32_MAX;
  for (uint32_t i = 0; i < memory.memoryTypeCount && type == UINT32_MAX; ++i) {
    if ((needs.memoryTypeBits & (1u << i)) &&
        (memory.memoryTypes[i].propertyFlags & wanted) == wanted) {
      type = i;
    }
  }
  VkMemoryAllocateFlagsInfo flags = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  VkMemoryAllocateInfo allocate = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                   .pNext = &flags};
  allocate.allocationSize = needs.size;
  allocate.memoryTypeIndex = type;
  VK_CHECK(vkAllocateMemory(e->device, &allocate, NULL, &b.memory));
  VK_CHECK(vkBindBufferMemory(e->device, b.buffer, b.memory, 0));
  VK_CHECK(vkMapMemory(e->device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped));
  return b;
}

static void destroy_buffer(const engine* e, buffer* b) {
  if (b->buffer == VK_NULL_HANDLE) return;
  vkDestroyBuffer(e->device, b->buffer, NULL);
  vkFreeMemory(e->device, b->memory, NULL);
}

static vkscan_external_device external_of(const engine* e) {
  vkscan_external_device external;
  memset(&external, 0, sizeof(external));
  external.struct_size = sizeof(external);
  external.instance = e->instance;
  external.physical_device = e->physical;
  external.device = e->device;
  external.get_instance_proc_addr = vkGetInstanceProcAddr;
  external.enabled_features = &e->enabled;
  return external;
}

/* A primary command buffer from the engine's pool, begun for one submission. */
static VkCommandBuffer begin_commands(const engine* e) {
  VkCommandBufferAllocateInfo allocate = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  allocate.commandPool = e->pool;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = 1;
  VkCommandBuffer commands = VK_NULL_HANDLE;
  VK_CHECK(vkAllocateCommandBuffers(e->device, &allocate, &commands));
  VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VK_CHECK(vkBeginCommandBuffer(commands, &begin));
  return commands;
}

/* Records the operator between the engine's barriers (the header's
 * contract), submits, waits. */
static void record_and_submit(const engine* e, vkscan_operator op,
                              const vkscan_buffer_binding* input,
                              const vkscan_buffer_binding* output,
                              const vkscan_buffer_binding* scratch) {
  VkCommandBuffer commands = begin_commands(e);
  /* The host wrote the input before the submission, which makes host writes
   * visible to the device: no barrier is needed before. */
  CHECK_OK(vkscan_operator_record(op, commands, input, output, scratch));
  VkMemoryBarrier after = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  after.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  after.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                       0, 1, &after, 0, NULL, 0, NULL);
  VK_CHECK(vkEndCommandBuffer(commands));
  VkFenceCreateInfo fence_info = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence = VK_NULL_HANDLE;
  VK_CHECK(vkCreateFence(e->device, &fence_info, NULL, &fence));
  VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands;
  VK_CHECK(vkQueueSubmit(e->queue, 1, &submit, fence));
  VK_CHECK(vkWaitForFences(e->device, 1, &fence, VK_TRUE, UINT64_MAX));
  vkDestroyFence(e->device, fence, NULL);
  vkFreeCommandBuffers(e->device, e->pool, 1, &commands);
}

/* A long 1-D UINT32 scan (wrapping, so every bit is checked) and a FLOAT32
 * one along the rows of [64, 300], exclusive and decreasing, with values
 * whose sums are exact. */
static void wrap_and_record(const engine* e) {
  enum { kLength = 1000003, kRows = 64, kColumns = 300 };
  vkscan_external_device external = external_of(e);
  vkscan_device device = NULL;
  vkscan_operator ops[2] = {NULL, NULL};
  const uint32_t long_sizes[] = {kLength};
  const uint32_t row_sizes[] = {kRows, kColumns};
  vkscan_tensor_desc tensors[2] = {
      {sizeof(vkscan_tensor_desc), VKSCAN_DATA_TYPE_UINT32, 1, long_sizes, NULL},
      {sizeof(vkscan_tensor_desc), VKSCAN_DATA_TYPE_FLOAT32, 2, row_sizes, NULL}};
  vkscan_cumulative_summation_desc descs[2] = {
      {sizeof(vkscan_cumulative_summation_desc), &tensors[0], &tensors[0], 0,
       VKSCAN_AXIS_DIRECTION_INCREASING, VK_FALSE},
      {sizeof(vkscan_cumulative_summation_desc), &tensors[1], &tensors[1], 1,
       VKSCAN_AXIS_DIRECTION_DECREASING, VK_TRUE}};
  const VkDeviceSize bytes[2] = {(VkDeviceSize)kLength * 4, (VkDeviceSize)kRows * kColumns * 4};

  CHECK_OK(vkscan_device_wrap(&external, &device));
  if (device == NULL) return;
  for (int i = 0; i < 2; ++i) CHECK_OK(vkscan_operator_create(device, &descs[i], &ops[i]));
  /* Operators keep what they need of the device: the handle may go first. */
  vkscan_device_destroy(device);
  if (ops[0] == NULL || ops[1] == NULL) return;

  for (int i = 0; i < 2; ++i) {
    vkscan_operator_properties properties = {sizeof(vkscan_operator_properties), 0, 0};
    CHECK_OK(vkscan_operator_get_properties(ops[i], &properties));
    CHECK(properties.dispatch_count >= 1);
    buffer in = create_buffer(e, bytes[i]);
    buffer out = create_buffer(e, bytes[i]);
    buffer scratch = {VK_NULL_HANDLE, VK_NULL_HANDLE, NULL};
    if (properties.scratch_size > 0) scratch = create_buffer(e, properties.scratch_size);
    if (i == 0) {
      uint32_t* x = in.mapped;
      uint32_t state = 7;
      for (uint32_t k = 0; k < kLength; ++k) x[k] = state = state * 1664525u + 1013904223u;
    } else {
      float* x = in.mapped;
      for (uint32_t k = 0; k < kRows * kColumns; ++k) x[k] = (float)(k % 13) - 6.0f;
    }
    const vkscan_buffer_binding input = {in.buffer, 0, bytes[i]};
    const vkscan_buffer_binding output = {out.buffer, 0, bytes[i]};
    const vkscan_buffer_binding scratch_binding = {scratch.buffer, 0, properties.scratch_size};
    record_and_submit(e, ops[i], &input, &output,
                      properties.scratch_size > 0 ? &scratch_binding : NULL);
    int wrong = 0;
    if (i == 0) {
      const uint32_t* x = in.mapped;
      const uint32_t* y = out.mapped;
      uint32_t sum = 0;
      for (uint32_t k = 0; k < kLength; ++k) wrong += (sum += x[k]) != y[k];
    } else {
      const float* x = in.mapped;
      const float* y = out.mapped;
      for (uint32_t r = 0; r < kRows; ++r) {
        float sum = 0.0f;
        for (uint32_t c = kColumns; c-- > 0;) {
          wrong += y[r * kColumns + c] != sum;
          sum += x[r * kColumns + c];
        }
      }
    }
    CHECK(wrong == 0);
    destroy_buffer(e, &in);
    destroy_buffer(e, &out);
    destroy_buffer(e, &scratch);
    vkscan_operator_destroy(ops[i]);
  }
}

/* DML's product descriptor, recorded by the engine: a UINT32 line longer
 * than a tile, exclusive and decreasing, of random odd values (their
 * products wrap and never reach 0), against products computed here. */
static void record_cumulative_product(const engine* e) {
  enum { kLength = 5003 };
  vkscan_external_device external = external_of(e);
  vkscan_device device = NULL;
  vkscan_operator op = NULL;
  const uint32_t sizes[] = {kLength};
  vkscan_tensor_desc tensor = {sizeof(vkscan_tensor_desc), VKSCAN_DATA_TYPE_UINT32, 1, sizes, NULL};
  vkscan_cumulative_product_desc desc = {
      sizeof(vkscan_cumulative_product_desc), &tensor, &tensor, 0,
      VKSCAN_AXIS_DIRECTION_DECREASING,       VK_TRUE};
  const VkDeviceSize bytes = (VkDeviceSize)kLength * 4;

  CHECK_OK(vkscan_device_wrap(&external, &device));
  if (device == NULL) return;
  CHECK_OK(vkscan_operator_create_cumulative_product(device, &desc, &op));
  vkscan_device_destroy(device);
  if (op == NULL) return;
  vkscan_operator_properties properties = {sizeof(vkscan_operator_properties), 0, 0};
  CHECK_OK(vkscan_operator_get_properties(op, &properties));
  buffer in = create_buffer(e, bytes);
  buffer out = create_buffer(e, bytes);
  buffer scratch = {VK_NULL_HANDLE, VK_NULL_HANDLE, NULL};
  if (properties.scratch_size > 0) scratch = create_buffer(e, properties.scratch_size);
  uint32_t* x = in.mapped;
  uint32_t state = 11;
  for (uint32_t k = 0; k < kLength; ++k) x[k] = (state = state * 1664525u + 1013904223u) | 1u;
  const vkscan_buffer_binding input = {in.buffer, 0, bytes};
  const vkscan_buffer_binding output = {out.buffer, 0, bytes};
  const vkscan_buffer_binding scratch_binding = {scratch.buffer, 0, properties.scratch_size};
  record_and_submit(e, op, &input, &output, properties.scratch_size > 0 ? &scratch_binding : NULL);
  const uint32_t* y = out.mapped;
  uint32_t product = 1;
  int wrong = 0;
  for (uint32_t k = kLength; k-- > 0;) {
    wrong += y[k] != product;
    product *= x[k];
  }
  CHECK(wrong == 0);
  destroy_buffer(e, &in);
  destroy_buffer(e, &out);
  destroy_buffer(e, &scratch);
  vkscan_operator_destroy(op);
}

static void refused(const engine* e) {
  vkscan_external_device external = external_of(e);
  vkscan_device device = NULL;
  vkscan_operator op = NULL;

  CHECK_RESULT(vkscan_device_wrap(NULL, &device), VKSCAN_ERROR_INVALID_ARGUMENT, "external: ");
  CHECK_RESULT(vkscan_device_wrap(&external, NULL), VKSCAN_ERROR_INVALID_ARGUMENT, "device: ");
  external.struct_size = 4;
  CHECK_RESULT(vkscan_device_wrap(&external, &device), VKSCAN_ERROR_INVALID_ARGUMENT,
               "external.struct_size: ");
  external = external_of(e);
  external.device = VK_NULL_HANDLE;
  CHECK_RESULT(vkscan_device_wrap(&external, &device), VKSCAN_ERROR_INVALID_ARGUMENT,
               "external.device: ");
  external = external_of(e);
  external.queue = e->queue;
  external.queue_family_index = 99;
  CHECK_RESULT(vkscan_device_wrap(&external, &device), VKSCAN_ERROR_INVALID_ARGUMENT,
               "external.queue_family_index: ");
  { /* A feature chain without bufferDeviceAddress. */
    VkPhysicalDeviceVulkan12Features none12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceFeatures2 none = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                      .pNext = &none12};
    external = external_of(e);
    external.enabled_features = &none;
    CHECK_RESULT(vkscan_device_wrap(&external, &device), VKSCAN_ERROR_UNSUPPORTED, "");
    CHECK(strstr(vkscan_last_error_message(), "bufferDeviceAddress") != NULL);
  }
  CHECK(device == NULL);

  /* A wrapped device without a queue cannot run(). */
  const uint32_t sizes[] = {16};
  const float input[16] = {0};
  float output[16] = {0};
  vkscan_tensor_desc tensor = {sizeof(tensor), VKSCAN_DATA_TYPE_FLOAT32, 1, sizes, NULL};
  vkscan_cumulative_summation_desc desc = {
      sizeof(desc), &tensor, &tensor, 0, VKSCAN_AXIS_DIRECTION_INCREASING, VK_FALSE};
  external = external_of(e);
  external.operator_cache_capacity = VKSCAN_NO_OPERATOR_CACHE;
  CHECK_OK(vkscan_device_wrap(&external, &device));
  if (device == NULL) return;
  CHECK_RESULT(vkscan_run(device, &desc, input, output), VKSCAN_ERROR_INVALID_ARGUMENT,
               "external.queue: ");
  CHECK_OK(vkscan_operator_create(device, &desc, &op));

  /* Bindings are checked before anything is recorded. */
  buffer b = create_buffer(e, 64);
  const vkscan_buffer_binding good = {b.buffer, 0, 64};
  const vkscan_buffer_binding short_one = {b.buffer, 0, 32};
  const vkscan_buffer_binding misaligned = {b.buffer, 4, 60};
  VkCommandBuffer commands = begin_commands(e);
  CHECK_RESULT(vkscan_operator_record(op, VK_NULL_HANDLE, &good, &good, NULL),
               VKSCAN_ERROR_INVALID_ARGUMENT, "command_buffer: ");
  CHECK_RESULT(vkscan_operator_record(op, commands, NULL, &good, NULL),
               VKSCAN_ERROR_INVALID_ARGUMENT, "bindings.input: ");
  CHECK_RESULT(vkscan_operator_record(op, commands, &good, NULL, NULL),
               VKSCAN_ERROR_INVALID_ARGUMENT, "bindings.output: ");
  CHECK_RESULT(vkscan_operator_record(NULL, commands, &good, &good, NULL),
               VKSCAN_ERROR_INVALID_ARGUMENT, "op: ");
  CHECK_RESULT(vkscan_operator_record(op, commands, &good, &short_one, NULL),
               VKSCAN_ERROR_INVALID_ARGUMENT, "bindings.output.size: ");
  CHECK_RESULT(vkscan_operator_record(op, commands, &misaligned, &good, NULL),
               VKSCAN_ERROR_INVALID_ARGUMENT, "bindings.input.offset: ");
  VK_CHECK(vkEndCommandBuffer(commands));
  vkFreeCommandBuffers(e->device, e->pool, 1, &commands);
  destroy_buffer(e, &b);
  vkscan_operator_destroy(op);
  vkscan_device_destroy(device);
}

static engine the_engine;

static void wrap_and_record_case(void) {
  wrap_and_record(&the_engine);
}

static void record_cumulative_product_case(void) {
  record_cumulative_product(&the_engine);
}

static void refused_case(void) {
  refused(&the_engine);
}

int main(int argc, char** argv) {
  static const test_case cases[] = {
      {"wrap_and_record", wrap_and_record_case},
      {"record_cumulative_product", record_cumulative_product_case},
      {"refused", refused_case},
  };
  create_engine(&the_engine);
  int failed = run_cases(cases, sizeof(cases) / sizeof(cases[0]), argc, argv);
  destroy_engine(&the_engine);
  if (validation_messages != 0) {
    fprintf(stderr, "%u validation messages\n", validation_messages);
    failed = 1;
  }
  return failed;
}
