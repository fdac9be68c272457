// The thread's last error lives in fixed storage: reporting a failure,
// std::bad_alloc included, must not allocate.
#include "c_api/errors.hpp"

#include <cctype>
#include <cstring>
#include <exception>
#include <new>
#include <string>

namespace vkscan::detail::c_api {
namespace {

struct LastError {
  VkResult vkResult = VK_SUCCESS;
  char message[1024] = {};
  size_t length = 0;

  void clear() noexcept {
    vkResult = VK_SUCCESS;
    message[0] = '\0';
    length = 0;
  }

  void append(char c) noexcept {
    if (length + 1 < sizeof(message)) {
      message[length++] = c;
      message[length] = '\0';
    }
  }

  void append(const char* text) noexcept {
    for (; *text != '\0'; ++text) append(*text);
  }

  // The C++ layers name fields in camelCase ("output.dataType"); callers of
  // the C API know them as this header spells them ("output.data_type").
  void appendField(const std::string& field) noexcept {
    for (size_t i = 0; i < field.size(); ++i) {
      char c = field[i];
      if (std::isupper(static_cast<unsigned char>(c)) && i > 0 &&
          std::islower(static_cast<unsigned char>(field[i - 1]))) {
        append('_');
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      }
      append(c);
    }
  }
};

thread_local LastError lastError;

vkscan_result fail(vkscan_result result, const char* message) noexcept {
  lastError.clear();
  lastError.append(message);
  return result;
}

}  // namespace

void clearLastError() noexcept {
  lastError.clear();
}

vkscan_result translateCurrentException() noexcept {
  try {
    throw;
  } catch (const InvalidArgument& error) {
    lastError.clear();
    lastError.appendField(error.field());
    lastError.append(": ");
    lastError.append(error.reason().c_str());
    return VKSCAN_ERROR_INVALID_ARGUMENT;
  } catch (const Unsupported& error) {
    return fail(VKSCAN_ERROR_UNSUPPORTED, error.what());
  } catch (const VulkanError& error) {
    fail(VKSCAN_ERROR_VULKAN, error.what());
    lastError.vkResult = error.result();
    return VKSCAN_ERROR_VULKAN;
  } catch (const std::bad_alloc&) {
    return fail(VKSCAN_ERROR_OUT_OF_HOST_MEMORY, "out of host memory (std::bad_alloc)");
  } catch (const std::exception& error) {
    return fail(VKSCAN_ERROR_UNKNOWN, error.what());
  } catch (...) {
    return fail(VKSCAN_ERROR_UNKNOWN, "an exception that is not a std::exception");
  }
}

void requireStructSize(uint32_t structSize, size_t expected, const std::string& field) {
  if (structSize != expected) {
    throw InvalidArgument(field, "is " + std::to_string(structSize) + "; this library knows " +
                                     std::to_string(expected) + ", the size of its version");
  }
}

}  // namespace vkscan::detail::c_api

extern "C" {

const char* vkscan_result_name(vkscan_result result) {
  switch (result) {
#define VKSCAN_RESULT_CASE(name) \
  case name:                     \
    return #name;
    VKSCAN_RESULT_CASE(VKSCAN_SUCCESS)
    VKSCAN_RESULT_CASE(VKSCAN_INCOMPLETE)
    VKSCAN_RESULT_CASE(VKSCAN_ERROR_INVALID_ARGUMENT)
    VKSCAN_RESULT_CASE(VKSCAN_ERROR_UNSUPPORTED)
    VKSCAN_RESULT_CASE(VKSCAN_ERROR_VULKAN)
    VKSCAN_RESULT_CASE(VKSCAN_ERROR_OUT_OF_HOST_MEMORY)
    VKSCAN_RESULT_CASE(VKSCAN_ERROR_UNKNOWN)
#undef VKSCAN_RESULT_CASE
    default:
      return "vkscan_result(unknown)";
  }
}

const char* vkscan_last_error_message(void) {
  return vkscan::detail::c_api::lastError.message;
}

VkResult vkscan_last_error_vk_result(void) {
  return vkscan::detail::c_api::lastError.vkResult;
}

}  // extern "C"
