// How the kernels move vectors of 4-byte elements (and 64-bit integers)
// through memory. Every form gives the same bits; only CPU implementations,
// which access memory one vector component at a time, run them at different
// speeds (docs/performance.md).
#pragma once

#include <vkscan/host.hpp>

namespace vkscan::detail {

enum class VectorWords {
  Bits64,         // 64-bit words and, where aligned, 32-byte units
  Load64Store32,  // loads as Bits64, stores 32-bit words (the word-stores build)
};

const char* vectorWordsName(VectorWords words) noexcept;

// Load64Store32 on a CPU implementation with push descriptors (its kernels
// read storage buffers), Bits64 everywhere else. Without shaderInt64 the
// kernels move 32-bit words whatever this says.
VectorWords vectorWordsFor(const DeviceCapabilities& caps) noexcept;

}  // namespace vkscan::detail
