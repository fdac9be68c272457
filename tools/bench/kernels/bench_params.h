// Push-constant blocks of the benchmark's own kernels, shared by the host
// (C++) and the kernels (GLSL) so each layout is written once. The host
// static_asserts the sizes (gpu.cpp).
#ifndef VKSCAN_BENCH_PARAMS_H
#define VKSCAN_BENCH_PARAMS_H

#ifdef __cplusplus
#include <cstdint>
namespace vkscan::bench {
using uint = uint32_t;
#endif

// copy.comp: dst[i] = src[i] for i < count (count in elements of the kernel's type).
struct CopyParams {
  uint64_t src;
  uint64_t dst;
  uint64_t count;
  uint groupsX;     // dispatch width, to flatten 2-D workgroup ids
  uint firstGroup;  // the dispatch's first workgroup in the whole copy
  uint zero;        // always 0 (runs copies, see copy.comp)
  uint pad;
};

#define BENCH_NAIVE_EXCLUSIVE 1u
#define BENCH_NAIVE_DECREASING 2u

// naive.comp: a packed tensor seen as [lineCount / inner, axisLen, inner];
// one invocation scans one line serially.
struct NaiveParams {
  uint64_t src;
  uint64_t dst;
  uint lineCount;
  uint inner;
  uint axisLen;
  uint flags;
  uint groupsX;
  uint pad;
};

#ifdef __cplusplus
}  // namespace vkscan::bench
#endif
#endif
