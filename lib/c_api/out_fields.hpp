// The C spelling of values the C API writes out: text into a fixed array,
// a bool as VkBool32.
#pragma once

#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>

namespace vkscan::detail::c_api {

// `text` cut to fit, NUL-terminated, the rest of the array zeroed.
template <size_t N>
void copyText(char (&out)[N], const std::string& text) {
  std::memset(out, 0, N);
  std::memcpy(out, text.data(), std::min(text.size(), N - 1));
}

inline VkBool32 vkBool(bool value) {
  return value ? VK_TRUE : VK_FALSE;
}

}  // namespace vkscan::detail::c_api
