// Shared helpers of every vkscan kernel: element types, device-address
// access, line decoding and the canonical order's building blocks.
//
// Build-time defines (one SPIR-V blob per data type):
//   VKSCAN_TYPE_F32 | _F16 | _F64 | _I32 | _U32 | _I64 | _U64
// Specialization constants:
//   0: workgroup size, 1: exclusive (bool), 2: vector loads allowed (bool)
//
// The canonical order (include/vkscan/vkscan.hpp) is a radix-16 tree of
// serial sums. Every kernel adds the same operands in the same order, and
// `precise` forbids the compiler to reassociate or contract them, so results
// do not depend on which kernel, workgroup size or device computes them.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_scalar_block_layout : require
#extension GL_EXT_control_flow_attributes : require

#include "scan_params.h"

layout(push_constant, std430) uniform PushConstants { ScanParams p; };

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const bool kExclusive = false;
layout(constant_id = 2) const bool kVectorLoads = false;

#if defined(VKSCAN_TYPE_F32)
#define DATA_T float
#define ACC_T float
#define VEC_T vec4
#define VEC_N 4
#define ACC_IS_FLOAT 1
#elif defined(VKSCAN_TYPE_F16)
// Storage only: halves are converted on load and store and never held in
// variables, so FLOAT16 needs storageBuffer16BitAccess but not shaderFloat16.
#extension GL_EXT_shader_16bit_storage : require
#define DATA_T float16_t
#define ACC_T float
#define VEC_T f16vec4
#define VEC_N 4
#define ACC_IS_FLOAT 1
#elif defined(VKSCAN_TYPE_F64)
#define DATA_T double
#define ACC_T double
#define VEC_T dvec2
#define VEC_N 2
#define ACC_IS_FLOAT 1
#elif defined(VKSCAN_TYPE_I32)
#define DATA_T int
#define ACC_T int
#define VEC_T ivec4
#define VEC_N 4
#elif defined(VKSCAN_TYPE_U32)
#define DATA_T uint
#define ACC_T uint
#define VEC_T uvec4
#define VEC_N 4
#elif defined(VKSCAN_TYPE_I64)
#define DATA_T int64_t
#define ACC_T int64_t
#define VEC_T i64vec2
#define VEC_N 2
#elif defined(VKSCAN_TYPE_U64)
#define DATA_T uint64_t
#define ACC_T uint64_t
#define VEC_T u64vec2
#define VEC_N 2
#else
#error "define one VKSCAN_TYPE_*"
#endif

#if defined(VKSCAN_TYPE_F32) || defined(VKSCAN_TYPE_F16)
#define ACC_VEC_T vec4
#elif defined(VKSCAN_TYPE_F64)
#define ACC_VEC_T dvec2
#elif defined(VKSCAN_TYPE_I32)
#define ACC_VEC_T ivec4
#elif defined(VKSCAN_TYPE_U32)
#define ACC_VEC_T uvec4
#elif defined(VKSCAN_TYPE_I64)
#define ACC_VEC_T i64vec2
#else
#define ACC_VEC_T u64vec2
#endif

// Elements one invocation owns: one level-1 node of the canonical tree.
#define NODE 16
#define NODE_VECS (NODE / VEC_N)

#if defined(VKSCAN_TYPE_F16)
#define VKSCAN_DATA_SIZE 2
#elif defined(VKSCAN_TYPE_F32) || defined(VKSCAN_TYPE_I32) || defined(VKSCAN_TYPE_U32)
#define VKSCAN_DATA_SIZE 4
#else
#define VKSCAN_DATA_SIZE 8
#endif

#if defined(VKSCAN_TYPE_F64) || defined(VKSCAN_TYPE_I64) || defined(VKSCAN_TYPE_U64)
#define VKSCAN_ACC_SIZE 8
#else
#define VKSCAN_ACC_SIZE 4
#endif
#define VKSCAN_VEC_ALIGN (VKSCAN_DATA_SIZE * VEC_N)

layout(buffer_reference, scalar, buffer_reference_align = VKSCAN_DATA_SIZE) buffer DataRef {
  DATA_T v;
};
// The host selects vector loads only where every vector is this aligned.
layout(buffer_reference, scalar, buffer_reference_align = VKSCAN_VEC_ALIGN) buffer VecRef {
  VEC_T v;
};
layout(buffer_reference, scalar, buffer_reference_align = VKSCAN_ACC_SIZE) buffer AccRef {
  ACC_T v;
};

// The empty sum. For floats -0.0 is the exact additive identity (x + -0.0 == x
// for every x, +0.0 included), so padding a partial node with it, or adding
// an absent carry, never changes a bit.
#ifdef ACC_IS_FLOAT
const ACC_T kIdentity = ACC_T(-0.0);
#else
const ACC_T kIdentity = ACC_T(0);
#endif

uint64_t elementAddress(uint64_t base, int64_t element) {
  return base + uint64_t(element * int64_t(VKSCAN_DATA_SIZE));
}

ACC_T loadElement(uint64_t base, int64_t element) {
  return ACC_T(DataRef(elementAddress(base, element)).v);
}

void storeElement(uint64_t base, int64_t element, ACC_T value) {
  DataRef(elementAddress(base, element)).v = DATA_T(value);
}

ACC_T loadAcc(uint64_t base, uint64_t index) {
  return AccRef(base + index * uint64_t(VKSCAN_ACC_SIZE)).v;
}

void storeAcc(uint64_t base, uint64_t index, ACC_T value) {
  AccRef(base + index * uint64_t(VKSCAN_ACC_SIZE)).v = value;
}

// Element offsets of the first traversal element of line `line`. Integer
// division is scalar on many devices (every lane of lavapipe), so it is done
// only for the dimensions that exist, once each (mod by multiply-subtract).
void lineOffsets(uint line, out int64_t inOffset, out int64_t outOffset) {
  // 64-bit multiplies are emulated on many CPUs' vector units, so terms of
  // dimensions that do not exist are skipped (uniform branches).
  inOffset = 0;
  outOffset = 0;
  uint i0 = line;
  if (p.lineSize[1] > 1u || p.lineSize[2] > 1u) {
    uint rest = line / p.lineSize[0];
    i0 = line - rest * p.lineSize[0];
    uint i1 = rest;
    if (p.lineSize[2] > 1u) {
      uint i2 = rest / p.lineSize[1];
      i1 = rest - i2 * p.lineSize[1];
      inOffset += int64_t(i2) * p.inLineStride[2];
      outOffset += int64_t(i2) * p.outLineStride[2];
    }
    inOffset += int64_t(i1) * p.inLineStride[1];
    outOffset += int64_t(i1) * p.outLineStride[1];
  }
  inOffset += int64_t(i0) * p.inLineStride[0];
  outOffset += int64_t(i0) * p.outLineStride[0];
}

uint flatWorkgroupIndex() { return gl_WorkGroupID.x + gl_WorkGroupID.y * p.groupsX; }

bool firstIsPositiveZero() { return (p.flags & VKSCAN_FLAG_FIRST_IS_POSITIVE_ZERO) != 0u; }
