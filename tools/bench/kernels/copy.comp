#version 460
#extension GL_GOOGLE_include_directive : require
// The roof: a copy moving the bytes a scan reads and writes, with no
// arithmetic. Variants (build-time defines):
//   BENCH_COPY_VEC16     16 consecutive elements per invocation, as 16-byte
//                        vector loads and stores (4 x uvec4 for 32-bit).
//   BENCH_COPY_STRIDED4  4 scalar elements per invocation, strided by the
//                        workgroup size (the GPU-style coalesced pattern).
//   BENCH_COPY_RUNS      a run of RUN_BLOCKS consecutive 64-byte blocks per
//                        invocation, in a loop (with BENCH_DESCRIPTORS only,
//                        32-bit elements). Blocks load as four uvec4, or
//                        with RUN_WIDE_LOADS as two 32-byte u64vec4 units, and
//                        store likewise (RUN_WIDE_STORES). llvmpipe pays per
//                        invocation and per access: measured on lavapipe
//                        (Intel Xeon host), one block per invocation copied
//                        at 10.3 GB/s, runs of 64 and 256 blocks at 13.1 and
//                        13.4, and units loaded and words stored at 14.8.
//   BENCH_DESCRIPTORS    storage buffers bound by a descriptor set (set 0:
//                        binding 0 source, 1 destination) instead of the
//                        device addresses in the push constants.
//   RUN_TEXEL_LOADS      (runs only) the source is a uniform texel buffer of
//                        R32G32B32A32_UINT texels, a 16-byte texelFetch per
//                        uvec4: the roof's third family, as vkscan reads its
//                        input so on CPU devices. llvmpipe (Mesa 22.3) loads
//                        a storage buffer one lane
//                        and one component at a time, each behind a bounds
//                        branch, while it gathers texel fetches across lanes.
// Specialization constant 1, kWholeTiles: the host promises every workgroup
// a full tile, and the bounds-checked path is compiled out. llvmpipe runs
// every path of a kernel under masks, taken or not, uniform branches
// included, so a tail path nobody takes still costs (measured: about a third
// of a 16-element copy). The host therefore copies a partial last tile in a
// dispatch of its own (copy_grid.hpp).
// Each invocation does a fixed, small amount of work: lavapipe stops every
// invocation after 65,535 loop iterations, so there is no grid-stride loop.
#include "bench_common.glsl"

layout(push_constant, std430) uniform Push { CopyParams p; };
layout(constant_id = 1) const bool kWholeTiles = false;

#if defined(BENCH_DESCRIPTORS)
#if defined(RUN_TEXEL_LOADS)
layout(set = 0, binding = 0) uniform usamplerBuffer srcTexels;
#define LOAD_ELEM(i) texelFetch(srcTexels, int((i) / 4u))[(i) % 4u]
#else
layout(set = 0, binding = 0, std430) readonly buffer SrcVec { VEC_T srcVec[]; };
layout(set = 0, binding = 0, std430) readonly buffer SrcElem { ELEM_T srcElem[]; };
#define LOAD_VEC(i) srcVec[i]
#define LOAD_ELEM(i) srcElem[i]
#endif
layout(set = 0, binding = 1, std430) writeonly buffer DstVec { VEC_T dstVec[]; };
layout(set = 0, binding = 1, std430) writeonly buffer DstElem { ELEM_T dstElem[]; };
#if defined(BENCH_COPY_RUNS)
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#if !defined(RUN_TEXEL_LOADS)
layout(set = 0, binding = 0, std430) readonly buffer SrcUnits { u64vec4 srcUnits[]; };
layout(set = 0, binding = 0, std430) readonly buffer SrcWords { uvec4 srcWords[]; };
#endif
layout(set = 0, binding = 1, std430) writeonly buffer DstUnits { u64vec4 dstUnits[]; };
layout(set = 0, binding = 1, std430) writeonly buffer DstWords { uvec4 dstWords[]; };
#endif
#define STORE_VEC(i, value) dstVec[i] = (value)
#define STORE_ELEM(i, value) dstElem[i] = (value)
#else
layout(buffer_reference, scalar, buffer_reference_align = 16) buffer VecArray { VEC_T v[]; };
layout(buffer_reference, scalar, buffer_reference_align = ELEM_BYTES) buffer ElemArray {
  ELEM_T v[];
};
#define LOAD_VEC(i) VecArray(p.src).v[i]
#define STORE_VEC(i, value) VecArray(p.dst).v[i] = (value)
#define LOAD_ELEM(i) ElemArray(p.src).v[i]
#define STORE_ELEM(i, value) ElemArray(p.dst).v[i] = (value)
#endif

void main() {
  // Element counts stay below 2^32 (the host checks), so indices are 32-bit.
  uint group = uint(flatGroup(p.groupsX)) + p.firstGroup;
  uint wg = gl_WorkGroupSize.x;
  uint lane = gl_LocalInvocationID.x;
  uint count = uint(p.count);
  // Only the last workgroup checks bounds. The test is uniform across the
  // workgroup on purpose: llvmpipe executes both sides of a branch that may
  // diverge (masked), so a per-invocation guard would cost every invocation
  // the guarded path too.
#if defined(BENCH_COPY_VEC16)
  const uint kVectors = 16u / VEC_N;
  uint first = (group * wg + lane) * kVectors;  // in vectors
  if (kWholeTiles || (group + 1u) * wg * 16u <= count) {
#if defined(BENCH_ELEM_B16)
    // Halves may not be held in variables without shaderFloat16, which the
    // device need not have (16-bit storage allows buffer-to-buffer moves).
    [[unroll]] for (uint q = 0u; q < kVectors; ++q) STORE_VEC(first + q, LOAD_VEC(first + q));
#else
    VEC_T v[kVectors];
    [[unroll]] for (uint q = 0u; q < kVectors; ++q) v[q] = LOAD_VEC(first + q);
    [[unroll]] for (uint q = 0u; q < kVectors; ++q) STORE_VEC(first + q, v[q]);
#endif
  } else {
    [[unroll]] for (uint j = 0u; j < 16u; ++j) {
      uint i = first * VEC_N + j;
      if (i < count) STORE_ELEM(i, LOAD_ELEM(i));
    }
  }
#elif defined(BENCH_COPY_RUNS)
  // A block's words pass through an XOR with p.zero, which is 0 but unknown
  // to the compiler: as plain moves, units loaded and words stored copied at
  // 7.9 GB/s, against 14.8 with it (the same host as above).
  const uint kBlockWords = 16u;
  uint firstBlock = (group * wg + lane) * RUN_BLOCKS;
  if (kWholeTiles || (group + 1u) * wg * RUN_BLOCKS * kBlockWords <= count) {
    [[dont_unroll]] for (uint b = firstBlock; b < firstBlock + RUN_BLOCKS; ++b) {
      uvec4 w[4];
#if defined(RUN_TEXEL_LOADS)
      [[unroll]] for (uint q = 0u; q < 4u; ++q) w[q] = texelFetch(srcTexels, int(b * 4u + q));
#elif defined(RUN_WIDE_LOADS)
      [[unroll]] for (uint u = 0u; u < 2u; ++u) {
        u64vec4 unit = srcUnits[b * 2u + u];
        w[2u * u] = uvec4(unpackUint2x32(unit.x), unpackUint2x32(unit.y));
        w[2u * u + 1u] = uvec4(unpackUint2x32(unit.z), unpackUint2x32(unit.w));
      }
#else
      [[unroll]] for (uint q = 0u; q < 4u; ++q) w[q] = srcWords[b * 4u + q];
#endif
      [[unroll]] for (uint q = 0u; q < 4u; ++q) w[q] ^= uvec4(p.zero);
#if defined(RUN_WIDE_STORES)
      [[unroll]] for (uint u = 0u; u < 2u; ++u) {
        dstUnits[b * 2u + u] =
            u64vec4(packUint2x32(w[2u * u].xy), packUint2x32(w[2u * u].zw),
                    packUint2x32(w[2u * u + 1u].xy), packUint2x32(w[2u * u + 1u].zw));
      }
#else
      [[unroll]] for (uint q = 0u; q < 4u; ++q) dstWords[b * 4u + q] = w[q];
#endif
    }
  } else {
    uint first = firstBlock * kBlockWords;
    [[dont_unroll]] for (uint i = first; i < first + RUN_BLOCKS * kBlockWords; ++i) {
      if (i < count) STORE_ELEM(i, LOAD_ELEM(i));
    }
  }
#elif defined(BENCH_COPY_STRIDED4)
  uint first = group * wg * 4u + lane;
  if (kWholeTiles || (group + 1u) * wg * 4u <= count) {
    [[unroll]] for (uint j = 0u; j < 4u; ++j) STORE_ELEM(first + j * wg, LOAD_ELEM(first + j * wg));
  } else {
    [[unroll]] for (uint j = 0u; j < 4u; ++j) {
      uint i = first + j * wg;
      if (i < count) STORE_ELEM(i, LOAD_ELEM(i));
    }
  }
#else
#error "define one BENCH_COPY_*"
#endif
}
