#include <vkscan/vkscan.hpp>

namespace vkscan {

InvalidArgument::InvalidArgument(std::string field, std::string reason)
    : Error(field + ": " + reason), field_(std::move(field)), reason_(std::move(reason)) {}

const char* vkResultName(VkResult result) noexcept {
  switch (result) {
#define VKSCAN_RESULT_CASE(name) \
  case name:                     \
    return #name;
    VKSCAN_RESULT_CASE(VK_SUCCESS)
    VKSCAN_RESULT_CASE(VK_NOT_READY)
    VKSCAN_RESULT_CASE(VK_TIMEOUT)
    VKSCAN_RESULT_CASE(VK_INCOMPLETE)
    VKSCAN_RESULT_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    VKSCAN_RESULT_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    VKSCAN_RESULT_CASE(VK_ERROR_INITIALIZATION_FAILED)
    VKSCAN_RESULT_CASE(VK_ERROR_DEVICE_LOST)
    VKSCAN_RESULT_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    VKSCAN_RESULT_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    VKSCAN_RESULT_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    VKSCAN_RESULT_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    VKSCAN_RESULT_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    VKSCAN_RESULT_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    VKSCAN_RESULT_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    VKSCAN_RESULT_CASE(VK_ERROR_FRAGMENTED_POOL)
    VKSCAN_RESULT_CASE(VK_ERROR_UNKNOWN)
    VKSCAN_RESULT_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    VKSCAN_RESULT_CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    VKSCAN_RESULT_CASE(VK_ERROR_FRAGMENTATION)
    VKSCAN_RESULT_CASE(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    VKSCAN_RESULT_CASE(VK_PIPELINE_COMPILE_REQUIRED)
#undef VKSCAN_RESULT_CASE
    default:
      return "VkResult(unknown)";
  }
}

static std::string describeVulkanFailure(VkResult result, const std::string& call,
                                         const std::string& context) {
  std::string text = call + " failed with " + vkResultName(result) + std::string(" (") +
                     std::to_string(static_cast<int>(result)) + ")";
  if (!context.empty()) text += " (" + context + ")";
  return text;
}

VulkanError::VulkanError(VkResult result, std::string call, const std::string& context)
    : Error(describeVulkanFailure(result, call, context)),
      result_(result),
      call_(std::move(call)) {}

}  // namespace vkscan
