// Element types of the benchmark kernels, chosen by a build-time define:
//   BENCH_ELEM_B16 (float16), BENCH_ELEM_B32 (uint), BENCH_ELEM_B64 (uint64)
//   BENCH_ELEM_F32 (float: the naive kernel adds floats)
// Workgroup size is specialization constant 0.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_scalar_block_layout : require
#extension GL_EXT_control_flow_attributes : require

#include "bench_params.h"

layout(local_size_x_id = 0) in;

#if defined(BENCH_ELEM_B16)
// 16-bit storage only: float16_t is loaded, stored and converted, never
// computed with, so the kernels need no shaderFloat16.
#extension GL_EXT_shader_16bit_storage : require
#define ELEM_T float16_t
#define ACC_T float
#define VEC_T f16vec4
#define VEC_N 4
#define ELEM_BYTES 2
#elif defined(BENCH_ELEM_B32)
#define ELEM_T uint
#define ACC_T uint
#define VEC_T uvec4
#define VEC_N 4
#define ELEM_BYTES 4
#elif defined(BENCH_ELEM_F32)
#define ELEM_T float
#define ACC_T float
#define VEC_T vec4
#define VEC_N 4
#define ELEM_BYTES 4
#elif defined(BENCH_ELEM_B64)
#define ELEM_T uint64_t
#define ACC_T uint64_t
#define VEC_T u64vec2
#define VEC_N 2
#define ELEM_BYTES 8
#else
#error "define one BENCH_ELEM_*"
#endif

uint64_t flatGroup(uint groupsX) {
  return uint64_t(gl_WorkGroupID.x) + uint64_t(gl_WorkGroupID.y) * uint64_t(groupsX);
}
