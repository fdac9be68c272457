#version 460
#extension GL_EXT_control_flow_attributes : require
// A copy of storage buffer 0 to storage buffer 1 in 32-bit words, or with
// WORD_COPY_64 in 64-bit ones: the host times both on a CPU device to choose
// the kernels' vector words (DeviceOptions::vectorWords, lib/vector_words.cpp).
// Each invocation moves 64 consecutive bytes as four vectors, the way a
// chunk kernel's node moves, and the host dispatches whole workgroups only,
// so there is no bounds check.
#ifdef WORD_COPY_64
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#define UNIT_T u64vec2
#else
#define UNIT_T uvec4
#endif

layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer Source { UNIT_T source[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Destination { UNIT_T destination[]; };

void main() {
  uint first = (gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_LocalInvocationID.x) * 4u;
  UNIT_T units[4];
  [[unroll]] for (uint i = 0u; i < 4u; ++i) units[i] = source[first + i];
  [[unroll]] for (uint i = 0u; i < 4u; ++i) destination[first + i] = units[i];
}
