// The SPIR-V of each (stage, data type, kernel variant), embedded at build
// time compressed (kernels/CMakeLists.txt declares them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "plan/common.hpp"

namespace vkscan::detail {

// Which build of the kernels a device needs. Every variant takes the same
// push constants, specialization constants and plan, and computes the same
// bits; they differ only in the SPIR-V capabilities they declare.
struct KernelVariant {
  // No Int64 capability: addresses as uvec2, 32-bit offsets, 64-bit integer
  // data as pairs of 32-bit words. For devices without shaderInt64; every
  // tensor binding must then span at most kMaxTensorBytesWithoutInt64.
  bool emulatedInt64 = false;
  // FLOAT16 and BFLOAT16 kernels load and store halves as 32-bit words, so
  // they need no storageBuffer16BitAccess. Other types ignore it.
  bool packedHalves = false;
  // 4-byte types, INT64 and UINT64 (summed as pairs of 32-bit words) load as
  // the default build and store 32-bit words (VectorWords::Load64Store32).
  // FLOAT64, FLOAT16, BFLOAT16 and kernels without Int64 ignore it.
  bool wordStores = false;
};

// The SPIR-V words of one build, decompressed. `storageBuffers`: the build
// that binds the tensors as storage buffers (chunk stages only);
// `texelInput`: of those, the build that loads the input's units through its
// texel view (PipelineKey::texelInput), which exists where
// hasTexelInputKernels(). Throws Error if vkscan has no such build, or if
// its data does not decompress.
std::vector<uint32_t> kernelBinary(Stage stage, DataType type, KernelVariant variant,
                                   bool storageBuffers, bool texelInput = false);

// The variant's kernels for `type` move 32-byte units (with Int64), so
// storage-buffer stages have texel-input builds.
bool hasTexelInputKernels(DataType type, KernelVariant variant);

}  // namespace vkscan::detail
