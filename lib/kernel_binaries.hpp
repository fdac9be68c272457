// The SPIR-V of each (stage, data type), embedded at build time.
#pragma once

#include <cstddef>
#include <cstdint>

#include "plan.hpp"

namespace vkscan::detail {

struct KernelBinary {
  const uint32_t* code;
  size_t words;
};

// `storageBuffers`: the build that binds the tensors as storage buffers
// (chunk stages only).
KernelBinary kernelBinary(Stage stage, DataType type, bool storageBuffers);

}  // namespace vkscan::detail
