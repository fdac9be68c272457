// The C API's error tier: every exception the C++ layers throw becomes a
// vkscan_result and this thread's last error, so none crosses the C ABI.
#pragma once

#include <vkscan/vkscan.h>

#include <vkscan/vkscan.hpp>

namespace vkscan::detail::c_api {

// Sets this thread's last error from the exception being handled; call it
// only inside a catch block.
vkscan_result translateCurrentException() noexcept;

// Clears this thread's last error.
void clearLastError() noexcept;

// Runs `body`; VKSCAN_SUCCESS, or what it threw as a vkscan_result.
template <class Body>
vkscan_result guard(Body&& body) noexcept {
  try {
    body();
    clearLastError();
    return VKSCAN_SUCCESS;
  } catch (...) {
    return translateCurrentException();
  }
}

// Throws InvalidArgument naming `field` when `pointer` is null.
inline void requireNonNull(const void* pointer, const char* field) {
  if (pointer == nullptr) throw InvalidArgument(field, "is a null pointer");
}

// Throws InvalidArgument for a struct_size other than `expected`, the one
// version of each struct this library knows.
void requireStructSize(uint32_t structSize, size_t expected, const std::string& field);

}  // namespace vkscan::detail::c_api
