#version 460
#extension GL_EXT_control_flow_attributes : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// A copy of storage buffer 0 to storage buffer 1 in one of the forms of
// DeviceOptions::vectorWords: 32-bit words, 64-bit words (WORD_COPY_LOAD_64
// and WORD_COPY_STORE_64), or 64-bit loads and 32-bit stores
// (WORD_COPY_LOAD_64 alone). The host times them on a CPU device to choose
// the kernels' build (lib/vector_words.cpp). Each invocation moves a run of
// kRunBlocks 64-byte blocks, as a chunk kernel walks its nodes, and the
// host dispatches whole workgroups only, so there is no bounds check.
//
// Every word passes through an XOR with a zero the compiler cannot see, as
// a scan's words pass through its additions: llvmpipe copied 64-bit loads
// into 32-bit stores at about half the speed as plain moves (measured on
// lavapipe, Intel Xeon host: 7.9 GB/s against 14.8), which would misjudge
// the form for the scan kernels.
const uint kRunBlocks = 64u;

layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer SourceWords { uvec4 sourceWords[]; };
layout(set = 0, binding = 0, std430) readonly buffer SourceUnits { u64vec4 sourceUnits[]; };
layout(set = 0, binding = 1, std430) writeonly buffer DestinationWords {
  uvec4 destinationWords[];
};
layout(set = 0, binding = 1, std430) writeonly buffer DestinationUnits {
  u64vec4 destinationUnits[];
};

void main() {
  // The host dispatches a 1-D grid.
  uint zero = gl_NumWorkGroups.y - 1u;
  uint first = (gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_LocalInvocationID.x) * kRunBlocks;
  [[dont_unroll]] for (uint block = first; block < first + kRunBlocks; ++block) {
    // 64-bit words move in 32-byte units, as the kernels' nodes do.
    uvec4 words[4];
    [[unroll]] for (uint u = 0u; u < 2u; ++u) {
#ifdef WORD_COPY_LOAD_64
      u64vec4 unit = sourceUnits[block * 2u + u];
      words[2u * u] = uvec4(unpackUint2x32(unit.x), unpackUint2x32(unit.y));
      words[2u * u + 1u] = uvec4(unpackUint2x32(unit.z), unpackUint2x32(unit.w));
#else
      words[2u * u] = sourceWords[block * 4u + 2u * u];
      words[2u * u + 1u] = sourceWords[block * 4u + 2u * u + 1u];
#endif
    }
    [[unroll]] for (uint i = 0u; i < 4u; ++i) words[i] ^= uvec4(zero);
    [[unroll]] for (uint u = 0u; u < 2u; ++u) {
#ifdef WORD_COPY_STORE_64
      destinationUnits[block * 2u + u] =
          u64vec4(packUint2x32(words[2u * u].xy), packUint2x32(words[2u * u].zw),
                  packUint2x32(words[2u * u + 1u].xy), packUint2x32(words[2u * u + 1u].zw));
#else
      destinationWords[block * 4u + 2u * u] = words[2u * u];
      destinationWords[block * 4u + 2u * u + 1u] = words[2u * u + 1u];
#endif
    }
  }
}
