// Faults inside Device construction. A Device's function table does not exist
// until it is being built, so these faults enter through the loader entry
// point an engine may hand over (ExternalDevice::getInstanceProcAddr): it
// returns a vkGetDeviceProcAddr whose pipeline-cache, descriptor-set-layout
// and pipeline-layout functions fail on request and count what is created
// and destroyed, and a vkGetPhysicalDeviceProperties that can report an older
// API version. The engine's device runs with the validation layer, whose
// object tracking reports anything vkscan leaves behind on it.
#include <dlfcn.h>
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "reliability_util.hpp"
#include "test_device.hpp"

using namespace vkscan;
using namespace vkscan::test;

namespace {

PFN_vkGetInstanceProcAddr systemGetInstanceProcAddr = nullptr;
PFN_vkGetDeviceProcAddr systemGetDeviceProcAddr = nullptr;
PFN_vkCreatePipelineCache realCreatePipelineCache = nullptr;
PFN_vkDestroyPipelineCache realDestroyPipelineCache = nullptr;
PFN_vkCreatePipelineLayout realCreatePipelineLayout = nullptr;
PFN_vkDestroyPipelineLayout realDestroyPipelineLayout = nullptr;
PFN_vkCreateDescriptorSetLayout realCreateDescriptorSetLayout = nullptr;
PFN_vkDestroyDescriptorSetLayout realDestroyDescriptorSetLayout = nullptr;

PFN_vkGetPhysicalDeviceProperties realGetPhysicalDeviceProperties = nullptr;

std::string failingFunction;
// When not empty, a device function whose entry point vkGetDeviceProcAddr
// hides (returns null for), as for an extension the engine did not enable.
std::string hiddenFunction;
// When not 0, the API version the physical device reports.
uint32_t reportedApiVersion = 0;
int livePipelineCaches = 0;
int livePipelineLayouts = 0;
int liveSetLayouts = 0;
// Created by any of the three, destroyed or not: live counts alone would
// pass objects made and destroyed before a refusal.
int createdObjects = 0;

VKAPI_ATTR VkResult VKAPI_CALL createPipelineCache(VkDevice device,
                                                   const VkPipelineCacheCreateInfo* info,
                                                   const VkAllocationCallbacks* allocator,
                                                   VkPipelineCache* cache) {
  if (failingFunction == "vkCreatePipelineCache") return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  VkResult result = realCreatePipelineCache(device, info, allocator, cache);
  if (result == VK_SUCCESS) {
    ++livePipelineCaches;
    ++createdObjects;
  }
  return result;
}

VKAPI_ATTR void VKAPI_CALL destroyPipelineCache(VkDevice device, VkPipelineCache cache,
                                                const VkAllocationCallbacks* allocator) {
  if (cache != VK_NULL_HANDLE) --livePipelineCaches;
  realDestroyPipelineCache(device, cache, allocator);
}

VKAPI_ATTR VkResult VKAPI_CALL createPipelineLayout(VkDevice device,
                                                    const VkPipelineLayoutCreateInfo* info,
                                                    const VkAllocationCallbacks* allocator,
                                                    VkPipelineLayout* layout) {
  if (failingFunction == "vkCreatePipelineLayout") return VK_ERROR_OUT_OF_HOST_MEMORY;
  VkResult result = realCreatePipelineLayout(device, info, allocator, layout);
  if (result == VK_SUCCESS) {
    ++livePipelineLayouts;
    ++createdObjects;
  }
  return result;
}

VKAPI_ATTR void VKAPI_CALL destroyPipelineLayout(VkDevice device, VkPipelineLayout layout,
                                                 const VkAllocationCallbacks* allocator) {
  if (layout != VK_NULL_HANDLE) --livePipelineLayouts;
  realDestroyPipelineLayout(device, layout, allocator);
}

VKAPI_ATTR VkResult VKAPI_CALL
createDescriptorSetLayout(VkDevice device, const VkDescriptorSetLayoutCreateInfo* info,
                          const VkAllocationCallbacks* allocator, VkDescriptorSetLayout* layout) {
  if (failingFunction == "vkCreateDescriptorSetLayout") return VK_ERROR_OUT_OF_HOST_MEMORY;
  VkResult result = realCreateDescriptorSetLayout(device, info, allocator, layout);
  if (result == VK_SUCCESS) {
    ++liveSetLayouts;
    ++createdObjects;
  }
  return result;
}

VKAPI_ATTR void VKAPI_CALL destroyDescriptorSetLayout(VkDevice device, VkDescriptorSetLayout layout,
                                                      const VkAllocationCallbacks* allocator) {
  if (layout != VK_NULL_HANDLE) --liveSetLayouts;
  realDestroyDescriptorSetLayout(device, layout, allocator);
}

VKAPI_ATTR void VKAPI_CALL getPhysicalDeviceProperties(VkPhysicalDevice device,
                                                       VkPhysicalDeviceProperties* properties) {
  realGetPhysicalDeviceProperties(device, properties);
  if (reportedApiVersion != 0) properties->apiVersion = reportedApiVersion;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL getDeviceProcAddr(VkDevice device, const char* name) {
  PFN_vkVoidFunction real = systemGetDeviceProcAddr(device, name);
  if (hiddenFunction == name) return nullptr;
  if (std::strcmp(name, "vkCreatePipelineCache") == 0) {
    realCreatePipelineCache = reinterpret_cast<PFN_vkCreatePipelineCache>(real);
    return reinterpret_cast<PFN_vkVoidFunction>(createPipelineCache);
  }
  if (std::strcmp(name, "vkDestroyPipelineCache") == 0) {
    realDestroyPipelineCache = reinterpret_cast<PFN_vkDestroyPipelineCache>(real);
    return reinterpret_cast<PFN_vkVoidFunction>(destroyPipelineCache);
  }
  if (std::strcmp(name, "vkCreatePipelineLayout") == 0) {
    realCreatePipelineLayout = reinterpret_cast<PFN_vkCreatePipelineLayout>(real);
    return reinterpret_cast<PFN_vkVoidFunction>(createPipelineLayout);
  }
  if (std::strcmp(name, "vkDestroyPipelineLayout") == 0) {
    realDestroyPipelineLayout = reinterpret_cast<PFN_vkDestroyPipelineLayout>(real);
    return reinterpret_cast<PFN_vkVoidFunction>(destroyPipelineLayout);
  }
  if (std::strcmp(name, "vkCreateDescriptorSetLayout") == 0) {
    realCreateDescriptorSetLayout = reinterpret_cast<PFN_vkCreateDescriptorSetLayout>(real);
    return reinterpret_cast<PFN_vkVoidFunction>(createDescriptorSetLayout);
  }
  if (std::strcmp(name, "vkDestroyDescriptorSetLayout") == 0) {
    realDestroyDescriptorSetLayout = reinterpret_cast<PFN_vkDestroyDescriptorSetLayout>(real);
    return reinterpret_cast<PFN_vkVoidFunction>(destroyDescriptorSetLayout);
  }
  return real;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL getInstanceProcAddr(VkInstance instance,
                                                             const char* name) {
  PFN_vkVoidFunction real = systemGetInstanceProcAddr(instance, name);
  if (std::strcmp(name, "vkGetDeviceProcAddr") == 0) {
    systemGetDeviceProcAddr = reinterpret_cast<PFN_vkGetDeviceProcAddr>(real);
    return reinterpret_cast<PFN_vkVoidFunction>(getDeviceProcAddr);
  }
  if (std::strcmp(name, "vkGetPhysicalDeviceProperties") == 0) {
    realGetPhysicalDeviceProperties = reinterpret_cast<PFN_vkGetPhysicalDeviceProperties>(real);
    return reinterpret_cast<PFN_vkVoidFunction>(getPhysicalDeviceProperties);
  }
  return real;
}

// None of the objects vkscan makes on the engine's device is alive.
void checkNothingLive() {
  CHECK(livePipelineCaches == 0);
  CHECK(liveSetLayouts == 0);
  CHECK(livePipelineLayouts == 0);
}

ExternalDevice hookedExternal(const Device& engine) {
  if (systemGetInstanceProcAddr == nullptr) {
    void* loader = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    REQUIRE(loader != nullptr);
    systemGetInstanceProcAddr =
        reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(loader, "vkGetInstanceProcAddr"));
    bool found = systemGetInstanceProcAddr != nullptr;
    REQUIRE(found);
  }
  // A headless Device enables VK_KHR_push_descriptor where it exists, and
  // externalDeviceOf() says so; the wrapper then makes its descriptor set
  // layout too.
  ExternalDevice external = externalDeviceOf(engine);
  external.getInstanceProcAddr = getInstanceProcAddr;
  return external;
}

}  // namespace

TEST_CASE("construction faults: a failed Device leaves nothing on the engine's device") {
  Device engine = createDevice(testDeviceOptions());
  CumulativeSummationDesc desc = packedDesc(DataType::Float32, {3, 5000}, 1);
  REQUIRE(capabilities(engine).pushDescriptor);  // lavapipe has it: all three objects are made
  for (const char* function :
       {"vkCreatePipelineCache", "vkCreateDescriptorSetLayout", "vkCreatePipelineLayout"}) {
    CAPTURE(std::string(function));
    failingFunction = function;
    bool threw = false;
    try {
      Device wrapped(hookedExternal(engine));
    } catch (const VulkanError& error) {
      threw = true;
      CHECK(error.call() == function);
      CHECK(error.result() < 0);
      CHECK(std::string(error.what()).find(function) != std::string::npos);
    }
    CHECK(threw);
    checkNothingLive();
    // The engine's device is unharmed and the same handles wrap cleanly once
    // the fault is gone.
    failingFunction.clear();
    CHECK(runMatchesReference(engine, desc, 41));
    {
      Device wrapped(hookedExternal(engine));
      CHECK(livePipelineCaches == 1);
      CHECK(liveSetLayouts == 1);
      CHECK(livePipelineLayouts == 1);
      CHECK(runMatchesReference(wrapped, desc, 42));
    }
    checkNothingLive();
  }
  CHECK(validationMessageCount(engine) == 0);
}

TEST_CASE("construction faults: an engine's device below Vulkan 1.2 is refused before any object") {
  // Its Vulkan 1.2 features were queried, and objects made, as if it had them.
  Device engine = createDevice(testDeviceOptions());
  reportedApiVersion = VK_API_VERSION_1_1;
  createdObjects = 0;
  bool threw = false;
  try {
    Device wrapped(hookedExternal(engine));
  } catch (const Unsupported& error) {
    threw = true;
    CHECK(std::string(error.what()).find("reports Vulkan 1.1; vkscan needs 1.2") !=
          std::string::npos);
  }
  reportedApiVersion = 0;
  CHECK(threw);
  CHECK(createdObjects == 0);
  checkNothingLive();
  CHECK(validationMessageCount(engine) == 0);
}

// An engine that claims VK_KHR_push_descriptor without its entry points
// (vkGetDeviceProcAddr returns null) is refused when it is wrapped; recording
// a storage-buffer dispatch would have called a null vkCmdPushDescriptorSetKHR.
TEST_CASE("construction faults: a claimed extension without its entry points is refused") {
  Device engine = createDevice(testDeviceOptions());
  REQUIRE(capabilities(engine).pushDescriptor);
  hiddenFunction = "vkCmdPushDescriptorSetKHR";
  createdObjects = 0;
  bool threw = false;
  try {
    Device wrapped(hookedExternal(engine));
  } catch (const Unsupported& error) {
    threw = true;
    CHECK(std::string(error.what()).find("vkCmdPushDescriptorSetKHR") != std::string::npos);
  }
  hiddenFunction.clear();
  CHECK(threw);
  CHECK(createdObjects == 0);
  checkNothingLive();
  // Not claimed: the same device wraps, on device addresses.
  ExternalDevice unclaimed = hookedExternal(engine);
  unclaimed.enabledExtensionCount = 0;
  {
    Device wrapped(unclaimed);
    CHECK_FALSE(capabilities(wrapped).pushDescriptor);
    CHECK(runMatchesReference(wrapped, packedDesc(DataType::Float32, {3, 5000}, 1), 43));
  }
  checkNothingLive();
  CHECK(validationMessageCount(engine) == 0);
}
