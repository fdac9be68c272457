// Host side of the benchmark: input data, the canonical-order reference the
// results are checked against, the checks, and the CPU baseline.
#pragma once

#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "cases.hpp"

namespace vkscan::bench {

// An allocator that leaves bytes uninitialised: a 1 GiB tensor's copies are
// then first touched by the threads that fill them, not zeroed on one.
template <typename T>
struct UninitializedAllocator : std::allocator<T> {
  template <typename U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <typename U>
  UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}
  template <typename U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
// A tensor's bytes on the host: whoever makes one writes all of it.
using HostBytes = std::vector<uint8_t, UninitializedAllocator<uint8_t>>;

float halfToFloat(uint16_t half);
uint16_t floatToHalf(float value);  // round to nearest even

// Seeded pseudo-random input. Floats are multiples of 2^-23 (f32) or 2^-10
// (f16) in [-1, 1), so no sum is ever a denormal (which devices may flush);
// integers use all 64 bits, so sums wrap. FLOAT32 products get factors
// within 2^-9 of 1, each followed by its reciprocal, so that they stay normal
// numbers. The bytes are the same for any number of `threads`.
void fillInput(const Case& c, void* data, uint64_t seed, unsigned threads);

// The scan (c.operation) in the canonical order of include/vkscan/vkscan.hpp,
// written independently of the library: vkscan's output must equal it bit
// for bit. The bytes are the same for any number of `threads`.
void referenceScan(const Case& c, const void* input, void* output, unsigned threads);

// The result of comparing one method's output.
struct Check {
  bool ok = true;
  std::string message;  // empty when ok
};

// Bit-for-bit comparison with the reference; on a mismatch the message says
// how many elements differ, where the first one is, and whether the values
// are still within the float accuracy bound (a wrong order) or not (a wrong
// answer).
Check checkExact(const Case& c, const void* input, const void* expected, const void* actual);

// For serial float sums (naive kernel, CPU): each output must lie within
// (axisLen + 2) * 2^-24 * (sum of |x| over its prefix) of the exact sum
// (plus one float16 ulp when the type is float16). Integers must be exact.
Check checkSerial(const Case& c, const void* input, const void* expected, const void* actual);

// Single-threaded std::inclusive_scan (std::exclusive_scan for exclusive
// cases) along every line, through strided iterators where the axis is not
// contiguous or the direction is decreasing. float16 accumulates in FP32, in
// a serial loop with F16C conversions where the CPU has them.
void cpuScan(const Case& c, const void* input, void* output);

}  // namespace vkscan::bench
