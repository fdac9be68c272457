// Shared helpers of every vkscan kernel: element types, memory access (device
// addresses, or storage buffers by role), line decoding and the canonical
// order's building blocks.
//
// Build-time defines (one SPIR-V blob per data type and variant):
//   VKSCAN_TYPE_F32 | _F16 | _BF16 | _F64 | _U32 | _U64. INT32 and INT64 run
//     the UINT32 and UINT64 builds: two's-complement sums wrap alike.
//   VKSCAN_NO_INT64: for devices without shaderInt64. Addresses are uvec2,
//     offsets 32-bit (the host keeps each tensor within 2^30 bytes), and
//     INT64/UINT64 are pairs of 32-bit words added with carry.
//   VKSCAN_WORD_STORES (4-byte types, INT64 and UINT64, with Int64):
//     vectors load as 64-bit words and wide units, as in the default build,
//     and store as 32-bit words (VectorWords::Load64Store32); INT64 and
//     UINT64 are summed as pairs of 32-bit words, as without Int64.
//   VKSCAN_F16_PACKED (FLOAT16 and BFLOAT16 only): for devices without
//     16-bit storage. Halves are read and written as the 32-bit words that
//     hold them.
//   VKSCAN_SSBO (chunk stages only): input, output and aux are storage
//     buffers 0, 1, 2 of set 0 (pushed by the host) instead of device
//     addresses; offsets are 32-bit element indices. CPU implementations
//     (lavapipe) run these accesses much faster than device addresses.
// Specialization constants: kernels/shared/spec_constants.h. They make
// choices that could be runtime tests compile-time ones because llvmpipe
// runs every path of a kernel under masks, taken or not, uniform branches
// included: an untaken path costs about what a taken one does, and a loop
// that runs no iteration still runs its body once, masked. The integer
// divisions that decode line and chunk indices are the costliest such path
// (a CPU has no vector division: one scalar division per lane).
//
// The canonical order (include/vkscan/vkscan.hpp) is a radix-16 tree of
// serial sums. Every kernel adds the same operands in the same order, and
// `precise` forbids the compiler to reassociate or contract them, so results
// do not depend on which kernel, workgroup size or device computes them.
#extension GL_EXT_control_flow_attributes : require
#ifndef VKSCAN_SSBO
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_scalar_block_layout : require
#ifdef VKSCAN_NO_INT64
#extension GL_EXT_buffer_reference_uvec2 : require
#endif
#endif
#ifndef VKSCAN_NO_INT64
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#endif

#include "scan_params.h"
#include "spec_constants.h"

// BFLOAT16 takes every path of FLOAT16 (2-byte floats moved as bits and
// summed in FP32); only the two conversions below differ.
#ifdef VKSCAN_TYPE_BF16
#define VKSCAN_TYPE_F16 1
#endif

layout(push_constant, std430) uniform PushConstants { ScanParams p; };

layout(local_size_x_id = VKSCAN_SPEC_WORKGROUP_SIZE) in;
layout(constant_id = VKSCAN_SPEC_EXCLUSIVE) const uint kExclusive = 0u;

// Scan stages: each output leaves its own element out.
bool exclusiveScan() {
  return kExclusive == VKSCAN_EXCLUSIVE_FROM_FLAGS ? (p.flags & VKSCAN_FLAG_EXCLUSIVE) != 0u
                                                   : kExclusive != 0u;
}

layout(constant_id = VKSCAN_SPEC_VECTOR_LOADS) const bool kVectorLoads = false;
layout(constant_id = VKSCAN_SPEC_REVERSE) const bool kReverse = false;
layout(constant_id = VKSCAN_SPEC_PARTIAL_NODES) const bool kPartialNodes = true;
layout(constant_id = VKSCAN_SPEC_LINE_DIMS) const uint kLineDims = 3;
layout(constant_id = VKSCAN_SPEC_CHUNKED) const bool kChunked = true;
layout(constant_id = VKSCAN_SPEC_FULL_NODES) const bool kFullNodes = true;
layout(constant_id = VKSCAN_SPEC_WIDE_VECTORS) const bool kWideVectors = false;

// Addresses and element offsets (which are signed: a decreasing axis walks
// down from its base).
#if defined(VKSCAN_SSBO)
// Storage buffers: 32-bit element offsets (the host keeps every binding
// within 2^31 bytes); the address fields hold element offsets (uvec2, low
// word used).
#define OFFSET_T int
OFFSET_T toOffset(VKSCAN_STRIDE stride) { return stride.x; }
bool hasAux() { return (p.flags & VKSCAN_FLAG_HAS_AUX) != 0u; }
#elif defined(VKSCAN_NO_INT64)
#define ADDR_T uvec2
#define OFFSET_T int

OFFSET_T toOffset(VKSCAN_STRIDE stride) { return stride.x; }

// base + sign-extended bytes, in 32-bit halves.
ADDR_T addressOffset(ADDR_T base, OFFSET_T bytes) {
  uint carry;
  uint low = uaddCarry(base.x, uint(bytes), carry);
  uint signExtension = bytes < 0 ? 0xFFFFFFFFu : 0u;
  return uvec2(low, base.y + signExtension + carry);
}

bool hasAux() { return any(notEqual(p.auxAddr, uvec2(0u))); }
uint lowAddressBits(ADDR_T address) { return address.x; }
ADDR_T wordAddress(ADDR_T address) { return uvec2(address.x & ~3u, address.y); }
#else
#define ADDR_T uint64_t
#define OFFSET_T int64_t

OFFSET_T toOffset(VKSCAN_STRIDE stride) { return stride; }
ADDR_T addressOffset(ADDR_T base, OFFSET_T bytes) { return base + uint64_t(bytes); }
bool hasAux() { return p.auxAddr != 0ul; }
uint lowAddressBits(ADDR_T address) { return uint(address); }
ADDR_T wordAddress(ADDR_T address) { return address & ~uint64_t(3); }
#endif

#if defined(VKSCAN_TYPE_F32)
#define DATA_T float
#define ACC_T float
#define VEC_T vec4
#define VEC_N 4
#define ACC_IS_FLOAT 1
#elif defined(VKSCAN_TYPE_F16)
// Halves are converted on load and store by the integer code below and never
// held in variables, so FLOAT16 needs no shaderFloat16. Lone halves are
// loaded as uint16_t bits with 16-bit storage, and without it
// (VKSCAN_F16_PACKED) as the 32-bit word that holds them. Vectors of four
// are always the two words that hold them: lavapipe accesses each vector
// component on its own, so u16vec4 would cost twice the accesses per element
// (measured on 1-D 2^24: 0.31 of the copy roof with u16vec4, 0.40 with uvec2).
#ifdef VKSCAN_F16_PACKED
#define DATA_T uint
#else
#extension GL_EXT_shader_16bit_storage : require
#define DATA_T uint16_t
#endif
#define VEC_T uvec2
#define ACC_T float
#define VEC_N 4
#define ACC_IS_FLOAT 1
#elif defined(VKSCAN_TYPE_F64)
#define DATA_T double
#define ACC_T double
#define VEC_T dvec2
#define VEC_N 2
#define ACC_IS_FLOAT 1
#elif defined(VKSCAN_TYPE_U32)
#define DATA_T uint
#define ACC_T uint
#define VEC_T uvec4
#define VEC_N 4
#elif defined(VKSCAN_TYPE_U64) && (defined(VKSCAN_NO_INT64) || defined(VKSCAN_WORD_STORES))
// (low, high) words, and a vector holds two elements as (xy, zw).
// With word stores too, although the device has Int64: 64-bit sums stored
// as 32-bit words cost a split of every value, and stored as 64-bit words
// they store slowly where word stores pay. Measured on lavapipe (Intel Xeon
// host), UINT64 1-D 2^24: 39 ms with 64-bit words both ways, 44 with 64-bit
// sums stored as words, 30 with pairs of words.
#define EMULATED_INT64 1
#define DATA_T uvec2
#define ACC_T uvec2
#define VEC_T uvec4
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
#elif defined(VKSCAN_TYPE_U32)
#define ACC_VEC_T uvec4
#elif defined(EMULATED_INT64)
#define ACC_VEC_T uvec4
#else
#define ACC_VEC_T u64vec2
#endif

// 64-bit integers as (low, high) words: addition and multiplication modulo
// 2^64, and an element of a vector of two.
#ifdef EMULATED_INT64
ACC_T add64(ACC_T a, ACC_T b) {
  uint carry;
  uint low = uaddCarry(a.x, b.x, carry);
  return uvec2(low, a.y + b.y + carry);
}

ACC_VEC_T add64(ACC_VEC_T a, ACC_VEC_T b) {
  uvec2 carry;
  uvec2 low = uaddCarry(a.xz, b.xz, carry);
  uvec2 high = a.yw + b.yw + carry;
  return uvec4(low.x, high.x, low.y, high.y);
}
ACC_T mul64(ACC_T a, ACC_T b) {
  uint high;
  uint low;
  umulExtended(a.x, b.x, high, low);
  return uvec2(low, high + a.x * b.y + a.y * b.x);
}

ACC_T vecElement(ACC_VEC_T w, int c) { return c == 0 ? w.xy : w.zw; }
void setVecElement(inout ACC_VEC_T w, int c, ACC_T value) {
  if (c == 0) {
    w.xy = value;
  } else {
    w.zw = value;
  }
}
#else
ACC_T vecElement(ACC_VEC_T w, int c) { return w[c]; }
void setVecElement(inout ACC_VEC_T w, int c, ACC_T value) { w[c] = value; }
#endif

// Elements one invocation owns: one level-1 node of the canonical tree.
#define NODE 16
#define NODE_VECS (NODE / VEC_N)

#if defined(VKSCAN_TYPE_F16)
#define VKSCAN_DATA_SIZE 2
#elif defined(VKSCAN_TYPE_F32) || defined(VKSCAN_TYPE_U32)
#define VKSCAN_DATA_SIZE 4
#else
#define VKSCAN_DATA_SIZE 8
#endif

#if defined(VKSCAN_TYPE_F64) || defined(VKSCAN_TYPE_U64)
#define VKSCAN_ACC_SIZE 8
#else
#define VKSCAN_ACC_SIZE 4
#endif
#define VKSCAN_VEC_ALIGN (VKSCAN_DATA_SIZE * VEC_N)
#if defined(VKSCAN_WORD_STORES) && \
    (defined(VKSCAN_TYPE_F64) || defined(VKSCAN_TYPE_F16) || defined(VKSCAN_NO_INT64))
#error VKSCAN_WORD_STORES is for 4-byte types and 64-bit integers, with Int64
#endif

// Vectors of 2- and 4-byte types move as 64-bit words (VEC_STORE_T) where the
// kernel has Int64. llvmpipe (Mesa 22.3) accesses memory one vector component
// and one lane at a time, with a bounds check per component, so half the
// components is a large part of the time: measured on lavapipe (AMD EPYC, 2
// cores), FLOAT32 rows [4096, 4096] went from 7.9 to 10.2 GB/s, columns from
// 3.3 to 5.0, 1-D 2^24 from 5.9 to 7.4. The bytes, and every bit, are the
// same; GPUs load 16 or 8 bytes either way.
#if !defined(VKSCAN_NO_INT64) && VKSCAN_DATA_SIZE < 8
#if VKSCAN_VEC_ALIGN == 16
#define VEC_STORE_T u64vec2
#else
#define VEC_STORE_T uint64_t
#endif
#if defined(VKSCAN_TYPE_F16)
VEC_T vecFromStore(uint64_t words) { return unpackUint2x32(words); }
uint64_t storeFromVec(VEC_T v) { return packUint2x32(v); }
#else
#if defined(VKSCAN_TYPE_F32)
VEC_T vecFromWords(uvec4 words) { return uintBitsToFloat(words); }
uvec4 wordsFromVec(VEC_T v) { return floatBitsToUint(v); }
#else
VEC_T vecFromWords(uvec4 words) { return VEC_T(words); }
uvec4 wordsFromVec(VEC_T v) { return uvec4(v); }
#endif
VEC_T vecFromStore(u64vec2 words) {
  return vecFromWords(uvec4(unpackUint2x32(words.x), unpackUint2x32(words.y)));
}
u64vec2 storeFromVec(VEC_T v) {
  uvec4 words = wordsFromVec(v);
  return u64vec2(packUint2x32(words.xy), packUint2x32(words.zw));
}
#endif
#else
#define VEC_STORE_T VEC_T
VEC_T vecFromStore(VEC_T v) { return v; }
VEC_T storeFromVec(VEC_T v) { return v; }
#endif

// Vectors as stored (VEC_OUT_T), which is how they load except in the
// VKSCAN_WORD_STORES build. There they store as the 32-bit words of VEC_T:
// on lavapipe (Intel Xeon host, where 64-bit words load faster than 32-bit
// ones and store slower), against 32-bit words both ways, FLOAT32 rows
// [4096, 4096] went from 11.6 to 12.9 GB/s and 1-D 2^24 from 7.8 to 9.2
// (README, the table of the three forms).
#ifdef VKSCAN_WORD_STORES
#define VEC_OUT_T VEC_T
VEC_T outFromVec(VEC_T v) { return v; }
#else
#define VEC_OUT_T VEC_STORE_T
VEC_STORE_T outFromVec(VEC_T v) { return storeFromVec(v); }
#endif

#ifndef VKSCAN_SSBO
layout(buffer_reference, scalar, buffer_reference_align = 4) buffer WordRef { uint v; };
layout(buffer_reference, scalar, buffer_reference_align = VKSCAN_DATA_SIZE) buffer DataRef {
  DATA_T v;
};
// The host selects vector loads only where every vector is this aligned.
layout(buffer_reference, scalar, buffer_reference_align = VKSCAN_VEC_ALIGN) buffer VecRef {
  VEC_STORE_T v;
};
layout(buffer_reference, scalar, buffer_reference_align = VKSCAN_VEC_ALIGN) buffer OutVecRef {
  VEC_OUT_T v;
};
#endif

// The scan's operation (a specialization constant, so one build serves them
// all): combine() is the one "+" of the canonical order and identity() its
// empty value.
// - Sum: floats' identity is -0.0, the exact additive identity (x + -0.0 == x
//   for every x, +0.0 included), so padding a partial node with it, or adding
//   an absent carry, never changes a bit.
// - Product: 1, exact likewise. Integers wrap; the low bits of a product are
//   the same for signed and unsigned types, so INT32 and INT64 share builds.
// - Maximum and minimum select an operand, so they are exact in any order:
//   the later operand wins a tie (-0.0 against +0.0 included) and a NaN
//   always wins, so the latest NaN propagates, as PyTorch's cummax and
//   cummin do. kSignedValues compares integers as two's complement. The
//   identity loses to every operand: -infinity or the type's least value for
//   maximum, and the reverse for minimum.
layout(constant_id = VKSCAN_SPEC_OPERATION) const uint kOperation = VKSCAN_OPERATION_SUM;
layout(constant_id = VKSCAN_SPEC_SIGNED_VALUES) const bool kSignedValues = false;
const bool kSelects =
    kOperation == VKSCAN_OPERATION_MAXIMUM || kOperation == VKSCAN_OPERATION_MINIMUM;
const bool kMaximum = kOperation == VKSCAN_OPERATION_MAXIMUM;
const bool kLogSumExp = kOperation == VKSCAN_OPERATION_LOG_SUM_EXP;

#if defined(ACC_IS_FLOAT)
#ifdef VKSCAN_TYPE_F64
ACC_T infinity(bool negative) {
  return packDouble2x32(uvec2(0u, negative ? 0xFFF00000u : 0x7FF00000u));
}
#else
ACC_T infinity(bool negative) { return uintBitsToFloat(negative ? 0xFF800000u : 0x7F800000u); }
#endif
ACC_T identity() {
  if (kSelects || kLogSumExp) return infinity(kMaximum || kLogSumExp);
  return kOperation == VKSCAN_OPERATION_PRODUCT ? ACC_T(1.0) : ACC_T(-0.0);
}

bool laterWins(ACC_T earlier, ACC_T later) {
  bool ordered = kMaximum ? later >= earlier : later <= earlier;
  return isnan(later) || (!isnan(earlier) && ordered);
}

// Log-sum-exp, log(exp(a) + exp(b)) = m + log1p(exp(-d)) with m the larger
// operand and d = m - other, from IEEE additions and multiplications alone
// in one fixed sequence: GLSL's exp() and log() are not correctly rounded
// and differ by device, and Vulkan's division and fma() are not exact
// either. The CPU reference (test/lib/reference.cpp) is the same sequence
// line for line. Symmetric in its operands, so exactly commutative.
// - d is carried exactly as d + dd (TwoSum). exp(-(d + dd)): k =
//   round(-d / ln2) by the 1.5 * 2^p trick, a Cody-Waite reduction to
//   |r| <= ln2 / 2, a minimax polynomial, and 2^k from exponent bits (a
//   normal number: d is at most the cutoff).
// - log1p(e) = e + e^2 R(e), R minimax on [0, 1]: no reduction, so short
//   code (lanes unroll combine() 16 times over at many call sites, and
//   lavapipe's compile time grows with it).
// - Past the cutoff (exp(-d) near the least normal number) the result is m,
//   and below 2^-26 (2^-55 for FP64) d counts as 0, where exp(-d) rounds to
//   1 anyway: no intermediate is ever a denormal, so flushing devices agree.
// - A NaN operand gives the positive quiet NaN; -infinity (the identity)
//   gives the other operand; +infinity gives +infinity.
#ifdef VKSCAN_TYPE_F64
#define LSE_CUTOFF 700.0LF
#define LSE_TINY 2.7755575615628914e-17LF
#define LSE_LOG2E 1.4426950408889634LF
#define LSE_ROUND 6755399441055744.0LF
#define LSE_EXP_HI 6.93147180369123816490e-01LF
#define LSE_EXP_LO 1.90821492927058770002e-10LF
const double kLseP[11] =
    double[](2.0914898727175524e-09LF, 2.5105513541847086e-08LF, 2.755727313289604e-07LF,
             2.7557254685728803e-06LF, 2.480158732595111e-05LF, 0.0001984126987538548LF,
             0.0013888888888883633LF, 0.008333333333325973LF, 0.04166666666666667LF,
             0.1666666666666667LF, 0.5LF);
const double kLseR[22] = double[](
    1.507843780222621e-05LF, -0.0001818830325500265LF, 0.001043354876634814LF,
    -0.0038046517253179694LF, 0.009968982838076882LF, -0.020179668043339125LF,
    0.03327845491726436LF, -0.046798182549893104LF, 0.05858685252957079LF, -0.06799320385322372LF,
    0.07573035633807378LF, -0.08299931758127772LF, 0.09083470413958532LF, -0.09998705428075007LF,
    0.11110938960467566LF, -0.12499983019721868LF, 0.14285713092791552LF, -0.1666666661032813LF,
    0.19999999998361212LF, -0.2499999999997462LF, 0.33333333333333176LF, -0.5LF);
int lseRoundedBits(double big) { return int(unpackDouble2x32(big).x); }
double lsePow2(int k) { return packDouble2x32(uvec2(0u, uint(k + 1023) << 20)); }
double lseNan() { return packDouble2x32(uvec2(0u, 0x7FF80000u)); }
#else
#define LSE_CUTOFF 85.0
#define LSE_TINY 1.4901161193847656e-08
#define LSE_LOG2E 1.4426950216293335
#define LSE_ROUND 12582912.0
#define LSE_EXP_HI 0.693145751953125
#define LSE_EXP_LO 1.428606765330187e-06
const float kLseP[6] = float[](0.0001989126903936267, 0.0013933900045230985, 0.00833331048488617,
                               0.041666463017463684, 0.1666666716337204, 0.5);
const float kLseR[11] =
    float[](-0.001770662609487772, 0.011725340969860554, -0.03631710633635521, 0.07204850018024445,
            -0.10774867981672287, 0.13762709498405457, -0.16563618183135986, 0.19987818598747253,
            -0.2499924600124359, 0.3333331346511841, -0.5);
int lseRoundedBits(float big) { return int(floatBitsToUint(big) - 0x4B400000u); }
float lsePow2(int k) { return uintBitsToFloat(uint(k + 127) << 23); }
float lseNan() { return uintBitsToFloat(0x7FC00000u); }
#endif

ACC_T logSumExp(ACC_T a, ACC_T b) {
  bool aFirst = a >= b;
  ACC_T m = aFirst ? a : b;
  ACC_T o = aFirst ? b : a;
  // d + dd == m - o exactly (TwoSum).
  precise ACC_T d = m - o;
  precise ACC_T bb = d - m;
  precise ACC_T aa = d - bb;
  precise ACC_T dd = (m - aa) + (-o - bb);
  bool far = !(d <= LSE_CUTOFF);
  bool zero = far || d < LSE_TINY;
  ACC_T x = zero ? ACC_T(0) : -d;
  ACC_T dx = zero ? ACC_T(0) : dd;
  // e = exp(x - dx).
  precise ACC_T big = x * LSE_LOG2E + LSE_ROUND;
  precise ACC_T kf = big - LSE_ROUND;
  precise ACC_T r = (x - kf * LSE_EXP_HI) - (kf * LSE_EXP_LO + dx);
  precise ACC_T poly = kLseP[0];
  [[unroll]] for (int i = 1; i < kLseP.length(); ++i) poly = poly * r + kLseP[i];
  precise ACC_T e = (ACC_T(1) + (r + r * (r * poly))) * lsePow2(lseRoundedBits(big));
  // log1p(e) = e + e^2 R(e) on [0, 1]; below LSE_TINY, e^2 R(e) is under
  // half an ulp of e (and would reach the denormals), so it is left out.
  ACC_T ee = e < LSE_TINY ? ACC_T(0) : e;
  precise ACC_T poly2 = kLseR[0];
  [[unroll]] for (int i = 1; i < kLseR.length(); ++i) poly2 = poly2 * ee + kLseR[i];
  precise ACC_T l = e + ee * (ee * poly2);
  precise ACC_T sum = m + l;
  ACC_T result = far ? m : sum;
  result = o == infinity(true) || m == infinity(false) ? m : result;
  return isnan(a) || isnan(b) ? lseNan() : result;
}
#elif defined(EMULATED_INT64)
ACC_T identity() {
  if (kSelects) {
    uint high = kSignedValues ? 0x80000000u : 0u;
    return kMaximum ? uvec2(0u, high) : ~uvec2(0u, high);
  }
  return uvec2(kOperation == VKSCAN_OPERATION_PRODUCT ? 1u : 0u, 0u);
}

bool laterWins(ACC_T earlier, ACC_T later) {
  uint flip = kSignedValues ? 0x80000000u : 0u;
  uint a = earlier.y ^ flip;
  uint b = later.y ^ flip;
  bool above = b > a || (b == a && later.x >= earlier.x);
  bool below = b < a || (b == a && later.x <= earlier.x);
  return kMaximum ? above : below;
}
#else
// Native integers: the sign bit flipped makes unsigned order signed order.
#if defined(VKSCAN_TYPE_U64)
const ACC_T kSignBit = ACC_T(1ul) << 63;
#else
const ACC_T kSignBit = ACC_T(1u) << 31;
#endif
ACC_T identity() {
  if (kSelects) {
    ACC_T least = kSignedValues ? kSignBit : ACC_T(0);
    return kMaximum ? least : ~least;
  }
  return ACC_T(kOperation == VKSCAN_OPERATION_PRODUCT ? 1 : 0);
}

bool laterWins(ACC_T earlier, ACC_T later) {
  ACC_T flip = kSignedValues ? kSignBit : ACC_T(0);
  ACC_T a = earlier ^ flip;
  ACC_T b = later ^ flip;
  return kMaximum ? b >= a : b <= a;
}
#endif

#ifdef EMULATED_INT64
#define ADD(a, b) add64(a, b)
#define MUL(a, b) mul64(a, b)
#else
#define ADD(a, b) ((a) + (b))
#define MUL(a, b) ((a) * (b))
#endif

// `precise` keeps each addition or multiplication as written.
ACC_T combine(ACC_T earlier, ACC_T later) {
  if (kSelects) return laterWins(earlier, later) ? later : earlier;
#if defined(ACC_IS_FLOAT)
  if (kLogSumExp) return logSumExp(earlier, later);
#endif
  if (kOperation == VKSCAN_OPERATION_PRODUCT) {
    precise ACC_T product = MUL(earlier, later);
    return product;
  }
  precise ACC_T sum = ADD(earlier, later);
  return sum;
}

ACC_VEC_T combine(ACC_VEC_T earlier, ACC_VEC_T later) {
  if (kOperation == VKSCAN_OPERATION_SUM) {
    precise ACC_VEC_T sum = ADD(earlier, later);
    return sum;
  }
  ACC_VEC_T result;
  [[unroll]] for (int c = 0; c < VEC_N; ++c) {
    setVecElement(result, c, combine(vecElement(earlier, c), vecElement(later, c)));
  }
  return result;
}

#ifdef EMULATED_INT64
ACC_VEC_T splatAcc(ACC_T value) { return uvec4(value, value); }
#else
ACC_VEC_T splatAcc(ACC_T value) { return ACC_VEC_T(value); }
#endif

// The first output of an exclusive user scan: +0.0 for sums (DML), else
// the identity.
ACC_T exclusiveFirst() {
  return kOperation == VKSCAN_OPERATION_SUM ? ACC_T(0) : identity();
}

#ifdef VKSCAN_TYPE_BF16
// bfloat16 is the top half of an FP32, so widening is exact. Narrowing
// rounds the 16 dropped bits to nearest even in integer code, as for
// FLOAT16 (a device's conversion may truncate); the carry out of the
// largest finite values makes infinity. NaN becomes 0x7FC0 of its sign.
float floatFromHalfBits(uint h) { return uintBitsToFloat(h << 16); }

uint halfBitsFromFloat(float value) {
  uint bits = floatBitsToUint(value);
  uint rounded = (bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16;
  uint nan = ((bits >> 16) & 0x8000u) | 0x7FC0u;
  return (bits & 0x7FFFFFFFu) > 0x7F800000u ? nan : rounded;
}
#elif defined(VKSCAN_TYPE_F16)
// Half <-> float by bit manipulation and one exact or correctly rounded FP32
// addition each. Vulkan lets a device's float conversions round either to
// nearest-even or toward zero and flush half denormals; this gives the same
// bits everywhere, under the assumption the canonical order already makes
// (FP32 addition rounds to nearest even). Every case is computed and the
// result chosen by selects: a CPU device runs branches under masks, and
// with the cases as branches, A/B on lavapipe, GB/s: 1-D FLOAT16 4.9-5.0
// against 5.7-5.9, FLOAT16 columns 3.9-4.1 against 4.7-5.2.
float floatFromHalfBits(uint h) {
  uint magnitude = (h & 0x7FFFu) << 13;
  uint exponent = magnitude & 0x0F800000u;
  // Rebias 15 -> 127; infinity and NaN to exponent 255.
  uint bits = magnitude + (exponent == 0x0F800000u ? 0x70000000u : 0x38000000u);
  // Zero or denormal: m * 2^-24 = (2^-14 + m * 2^-24) - 2^-14, exactly.
  precise float denormal = uintBitsToFloat(magnitude + 0x38800000u) - 6.103515625e-05;
  bits = exponent == 0u ? floatBitsToUint(denormal) : bits;
  return uintBitsToFloat(bits | ((h & 0x8000u) << 16));
}

// Rounds to nearest, ties to even; overflow gives infinity; every NaN becomes
// the quiet NaN of its sign (payloads are not portable).
uint halfBitsFromFloat(float value) {
  uint bits = floatBitsToUint(value);
  uint magnitude = bits & 0x7FFFFFFFu;
  // Normal half: the 13 dropped bits rounded to nearest even. From 65520 up
  // the sum reaches exponent 31 or more, and min() makes that infinity.
  uint odd = (magnitude >> 13) & 1u;
  uint normal = min((magnitude + (0xFFFu - 0x38000000u) + odd) >> 13, 0x7C00u);
  // Denormal half or zero: adding 0.5 aligns the 10 kept bits at the bottom
  // of the mantissa, and the addition rounds them to nearest even.
  precise float aligned = uintBitsToFloat(magnitude) + 0.5;
  uint result = magnitude < 0x38800000u ? floatBitsToUint(aligned) - 0x3F000000u : normal;
  result = magnitude > 0x7F800000u ? 0x7E00u : result;
  return ((bits >> 16) & 0x8000u) | result;
}
#endif

// Conversions between stored data and accumulators.
#if defined(VKSCAN_TYPE_F16)
ACC_VEC_T accFromVec(VEC_T words) {
  return vec4(floatFromHalfBits(words.x & 0xFFFFu), floatFromHalfBits(words.x >> 16),
              floatFromHalfBits(words.y & 0xFFFFu), floatFromHalfBits(words.y >> 16));
}
VEC_T vecFromAcc(ACC_VEC_T value) {
  return uvec2(halfBitsFromFloat(value.x) | (halfBitsFromFloat(value.y) << 16),
               halfBitsFromFloat(value.z) | (halfBitsFromFloat(value.w) << 16));
}
#ifdef VKSCAN_F16_PACKED
ACC_T halfOfWord(uint word, uint element) {
  return floatFromHalfBits((word >> ((element & 1u) * 16u)) & 0xFFFFu);
}
#else
// Macros: 16-bit types may not be function parameters or results without
// 16-bit arithmetic.
#define accFromData(h) floatFromHalfBits(uint(h))
#define dataFromAcc(value) uint16_t(halfBitsFromFloat(value))
#endif
#else
ACC_T accFromData(DATA_T x) { return ACC_T(x); }
DATA_T dataFromAcc(ACC_T value) { return DATA_T(value); }
ACC_VEC_T accFromVec(VEC_T v) { return ACC_VEC_T(v); }
VEC_T vecFromAcc(ACC_VEC_T value) { return VEC_T(value); }
#endif

#ifndef VKSCAN_SSBO
ADDR_T elementAddress(ADDR_T base, OFFSET_T element) {
  return addressOffset(base, element * OFFSET_T(VKSCAN_DATA_SIZE));
}

#if defined(VKSCAN_TYPE_F16) && defined(VKSCAN_F16_PACKED)
// A lone half shares its word with a neighbour that another invocation may
// write at the same time (the next line, or the next chunk). Stores change
// only their own 16 bits, atomically, so neither write is lost; a plain load
// of the word may race with the neighbour's store, but only over the
// neighbour's bytes, which it discards.
ACC_T loadElement(ADDR_T base, OFFSET_T element) {
  ADDR_T address = elementAddress(base, element);
  return halfOfWord(WordRef(wordAddress(address)).v, lowAddressBits(address) >> 1);
}

void storeElement(ADDR_T base, OFFSET_T element, ACC_T value) {
  ADDR_T address = elementAddress(base, element);
  uint shift = (lowAddressBits(address) & 2u) * 8u;
  WordRef word = WordRef(wordAddress(address));
  atomicAnd(word.v, ~(0xFFFFu << shift));
  atomicOr(word.v, halfBitsFromFloat(value) << shift);
}
#else
ACC_T loadElement(ADDR_T base, OFFSET_T element) {
  return accFromData(DataRef(elementAddress(base, element)).v);
}

void storeElement(ADDR_T base, OFFSET_T element, ACC_T value) {
  DataRef(elementAddress(base, element)).v = dataFromAcc(value);
}
#endif

// Vectors are VKSCAN_VEC_ALIGN-aligned, so one invocation owns their words.
ACC_VEC_T loadVec(ADDR_T address) { return accFromVec(vecFromStore(VecRef(address).v)); }
void storeVec(ADDR_T address, ACC_VEC_T value) {
  OutVecRef(address).v = outFromVec(vecFromAcc(value));
}

// The 32-bit word holding an element, read only to bring its cache line in.
uint touchWord(ADDR_T base, OFFSET_T element) {
  return WordRef(wordAddress(elementAddress(base, element))).v;
}

// The tensors by role, element offsets from the dispatch's bases.
uint touchIn(OFFSET_T element) { return touchWord(p.inAddr, element); }
uint touchOut(OFFSET_T element) { return touchWord(p.outAddr, element); }
ACC_T loadIn(OFFSET_T element) { return loadElement(p.inAddr, element); }
ACC_VEC_T loadInVec(OFFSET_T element) { return loadVec(elementAddress(p.inAddr, element)); }
void storeOut(OFFSET_T element, ACC_T value) { storeElement(p.outAddr, element, value); }
void storeOutVec(OFFSET_T element, ACC_VEC_T value) {
  storeVec(elementAddress(p.outAddr, element), value);
}
#else
// Storage buffers: binding 0 input, 1 output, 2 aux, each seen as elements
// and as vectors. The host binds each at an offset that keeps vectors
// aligned and passes the rest of the tensor's offset, in elements, in
// inAddr/outAddr/auxAddr. The bindings may alias (in place, or the carry
// passes on scratch), so none is restrict, and the library decorates each
// Aliased when it loads the SPIR-V (lib/spirv_aliasing.hpp): GLSL cannot.
layout(set = 0, binding = 0, std430) readonly buffer InData { DATA_T inData[]; };
layout(set = 0, binding = 0, std430) readonly buffer InVecs { VEC_STORE_T inVecs[]; };
#ifdef VKSCAN_TEXEL_INPUT
// The input's 16-byte texels, over the same bytes as binding 0 (the host
// binds both at the same offset): see loadInWide().
layout(set = 0, binding = 3) uniform usamplerBuffer inTexels;
#endif
layout(set = 0, binding = 1, std430) buffer OutData { DATA_T outData[]; };
layout(set = 0, binding = 1, std430) buffer OutVecs { VEC_OUT_T outVecs[]; };
layout(set = 0, binding = 2, std430) buffer AuxData { ACC_T auxData[]; };
layout(set = 0, binding = 2, std430) buffer AuxVecs { ACC_VEC_T auxVecs[]; };

uint inIndex(OFFSET_T element) { return uint(int(p.inAddr.x) + element); }
uint outIndex(OFFSET_T element) { return uint(int(p.outAddr.x) + element); }

// As touchWord: the words of the tensors, for touching only.
layout(set = 0, binding = 0, std430) readonly buffer InWords { uint inWords[]; };
layout(set = 0, binding = 1, std430) buffer OutWords { uint outWords[]; };
uint touchIn(OFFSET_T element) { return inWords[inIndex(element) * VKSCAN_DATA_SIZE / 4u]; }
uint touchOut(OFFSET_T element) { return outWords[outIndex(element) * VKSCAN_DATA_SIZE / 4u]; }

#if defined(VKSCAN_TYPE_F16) && defined(VKSCAN_F16_PACKED)
// As with addresses: lone halves are stored atomically in their word.
ACC_T loadIn(OFFSET_T element) {
  uint i = inIndex(element);
  return halfOfWord(inData[i >> 1], i);
}
void storeOut(OFFSET_T element, ACC_T value) {
  uint i = outIndex(element);
  uint shift = (i & 1u) * 16u;
  atomicAnd(outData[i >> 1], ~(0xFFFFu << shift));
  atomicOr(outData[i >> 1], halfBitsFromFloat(value) << shift);
}
#else
ACC_T loadIn(OFFSET_T element) { return accFromData(inData[inIndex(element)]); }
void storeOut(OFFSET_T element, ACC_T value) { outData[outIndex(element)] = dataFromAcc(value); }
#endif
#if defined(VKSCAN_TEXEL_INPUT) && VKSCAN_DATA_SIZE == 4
// A vector of a 4-byte type is one texel (the units below explain why).
ACC_VEC_T loadInVec(OFFSET_T element) {
  return accFromVec(vecFromWords(texelFetch(inTexels, int(inIndex(element) / VEC_N))));
}
#else
ACC_VEC_T loadInVec(OFFSET_T element) {
  return accFromVec(vecFromStore(inVecs[inIndex(element) / VEC_N]));
}
#endif
void storeOutVec(OFFSET_T element, ACC_VEC_T value) {
  outVecs[outIndex(element) / VEC_N] = outFromVec(vecFromAcc(value));
}
#endif

// Wide units (kWideVectors): 32 bytes, WIDE_VECS vectors, moved by one
// access. llvmpipe (Mesa 22.3) pays per access, not per byte: measured on
// lavapipe (AMD EPYC, 2 cores), FLOAT32 1-D 2^24 went from 7.1-7.5 to
// 8.6-9.2 GB/s, FLOAT16 from 4.2 to 4.7 (a node is one unit). The host
// sets it only where every node (or interleaved row, or group of rows of
// one vector, chunk.glsl) starts on a unit of the binding, which needs the
// binding's own offset (a multiple of 16) unrounded. Kernels without Int64
// have no 32-byte type and keep vectors.
#if !defined(VKSCAN_NO_INT64)
#define VKSCAN_WIDE 1
#ifndef VKSCAN_WORD_STORES
#define VKSCAN_WIDE_STORES 1
#endif
#define WIDE_VECS (32 / VKSCAN_VEC_ALIGN)
#define WIDE_N (WIDE_VECS * VEC_N)

#ifdef VKSCAN_SSBO
layout(set = 0, binding = 0, std430) readonly buffer InWide { u64vec4 inWide[]; };
#ifdef VKSCAN_TEXEL_INPUT
// Units load as two texels of binding 3, a uniform texel buffer of
// R32G32B32A32_UINT texels. llvmpipe (Mesa 22.3) loads a storage buffer one
// lane and one component at a time, each behind a bounds branch, but gathers
// texel fetches across lanes: measured on lavapipe (AMD EPYC VM, 2 cores),
// 64 MiB read at 14-15 GB/s through texels against 2.0 through u64vec4
// storage loads. A build of its own, not a specialization constant: a
// binding the SPIR-V names must be bound on every dispatch, taken or not.
u64vec4 loadInWide(OFFSET_T element) {
  int texel = int(inIndex(element) / WIDE_N) * 2;
  uvec4 low = texelFetch(inTexels, texel);
  uvec4 high = texelFetch(inTexels, texel + 1);
  return u64vec4(packUint2x32(low.xy), packUint2x32(low.zw), packUint2x32(high.xy),
                 packUint2x32(high.zw));
}
#else
u64vec4 loadInWide(OFFSET_T element) { return inWide[inIndex(element) / WIDE_N]; }
#endif
#ifdef VKSCAN_WIDE_STORES
layout(set = 0, binding = 1, std430) buffer OutWide { u64vec4 outWide[]; };
void storeOutWide(OFFSET_T element, u64vec4 value) { outWide[outIndex(element) / WIDE_N] = value; }
#endif
#else
layout(buffer_reference, scalar, buffer_reference_align = 16) buffer WideRef { u64vec4 v; };
u64vec4 loadInWide(OFFSET_T element) { return WideRef(elementAddress(p.inAddr, element)).v; }
#ifdef VKSCAN_WIDE_STORES
void storeOutWide(OFFSET_T element, u64vec4 value) {
  WideRef(elementAddress(p.outAddr, element)).v = value;
}
#endif
#endif

// Vector i of a unit, and back.
#if WIDE_VECS == 4
VEC_STORE_T storeOfWide(u64vec4 unit, int i) { return unit[i]; }
void setWide(inout u64vec4 unit, int i, VEC_STORE_T v) { unit[i] = v; }
#else
#ifdef VKSCAN_TYPE_F64
VEC_STORE_T storeOfWords(u64vec2 words) { return uint64BitsToDouble(words); }
u64vec2 wordsOfStore(VEC_STORE_T v) { return doubleBitsToUint64(v); }
#elif defined(EMULATED_INT64)
VEC_STORE_T storeOfWords(u64vec2 words) {
  return uvec4(unpackUint2x32(words.x), unpackUint2x32(words.y));
}
u64vec2 wordsOfStore(VEC_STORE_T v) { return u64vec2(packUint2x32(v.xy), packUint2x32(v.zw)); }
#else
VEC_STORE_T storeOfWords(u64vec2 words) { return VEC_STORE_T(words); }
u64vec2 wordsOfStore(VEC_STORE_T v) { return u64vec2(v); }
#endif
VEC_STORE_T storeOfWide(u64vec4 unit, int i) { return storeOfWords(i == 0 ? unit.xy : unit.zw); }
void setWide(inout u64vec4 unit, int i, VEC_STORE_T v) {
  if (i == 0) {
    unit.xy = wordsOfStore(v);
  } else {
    unit.zw = wordsOfStore(v);
  }
}
#endif

// Vector i of a unit as accumulators, and back.
ACC_VEC_T accVecOfWide(u64vec4 unit, int i) {
  return accFromVec(vecFromStore(storeOfWide(unit, i)));
}
#ifdef VKSCAN_WIDE_STORES
void setWideAccVec(inout u64vec4 unit, int i, ACC_VEC_T value) {
  setWide(unit, i, storeFromVec(vecFromAcc(value)));
}
#endif
#endif

// Pairs: two adjacent elements of a 4-byte type as one 64-bit word (with
// Int64), or two halves as one 32-bit word (16-bit
// storage), moved by one access where each element was one: the lanes of
// lines off vectors (chunk.glsl kScalarLanes). A pair starts on an even
// element of its binding, whose offset the host keeps a multiple of 16.
#if (VKSCAN_DATA_SIZE == 4 && defined(VKSCAN_WIDE)) || \
    (defined(VKSCAN_TYPE_F16) && !defined(VKSCAN_F16_PACKED))
#define VKSCAN_PAIRS 1
// Stored as pairs too except where 4-byte types store as 32-bit words.
#if VKSCAN_DATA_SIZE == 2 || defined(VKSCAN_WIDE_STORES)
#define VKSCAN_PAIR_STORES 1
#endif
#if VKSCAN_DATA_SIZE == 4
#define PAIR_T uint64_t
uvec2 halvesOfPair(PAIR_T pair) { return unpackUint2x32(pair); }
PAIR_T pairOfHalves(uvec2 halves) { return packUint2x32(halves); }
#else
#define PAIR_T uint
uvec2 halvesOfPair(PAIR_T pair) { return uvec2(pair & 0xFFFFu, pair >> 16); }
PAIR_T pairOfHalves(uvec2 halves) { return halves.x | (halves.y << 16); }
#endif

#if defined(VKSCAN_TYPE_F32)
ACC_T accOfBits(uint bits) { return uintBitsToFloat(bits); }
uint bitsOfAcc(ACC_T value) { return floatBitsToUint(value); }
#elif defined(VKSCAN_TYPE_F16)
ACC_T accOfBits(uint bits) { return floatFromHalfBits(bits); }
uint bitsOfAcc(ACC_T value) { return halfBitsFromFloat(value); }
#else
ACC_T accOfBits(uint bits) { return ACC_T(bits); }
uint bitsOfAcc(ACC_T value) { return uint(value); }
#endif

// inSecondOfPair(), outSecondOfPair(): whether an element is the second of
// its pair.
#ifdef VKSCAN_SSBO
layout(set = 0, binding = 0, std430) readonly buffer InPairs { PAIR_T inPairs[]; };
bool inSecondOfPair(OFFSET_T element) { return (inIndex(element) & 1u) != 0u; }
bool outSecondOfPair(OFFSET_T element) { return (outIndex(element) & 1u) != 0u; }
PAIR_T loadInPair(OFFSET_T element) { return inPairs[inIndex(element) >> 1]; }
#ifdef VKSCAN_PAIR_STORES
layout(set = 0, binding = 1, std430) buffer OutPairs { PAIR_T outPairs[]; };
void storeOutPair(OFFSET_T element, PAIR_T pair) { outPairs[outIndex(element) >> 1] = pair; }
#endif
#else
layout(buffer_reference, scalar, buffer_reference_align = 2 * VKSCAN_DATA_SIZE) buffer PairRef {
  PAIR_T v;
};
bool secondOfPair(ADDR_T base, OFFSET_T element) {
  return (lowAddressBits(elementAddress(base, element)) & uint(VKSCAN_DATA_SIZE)) != 0u;
}
bool inSecondOfPair(OFFSET_T element) { return secondOfPair(p.inAddr, element); }
bool outSecondOfPair(OFFSET_T element) { return secondOfPair(p.outAddr, element); }
PAIR_T loadInPair(OFFSET_T element) { return PairRef(elementAddress(p.inAddr, element)).v; }
#ifdef VKSCAN_PAIR_STORES
void storeOutPair(OFFSET_T element, PAIR_T pair) {
  PairRef(elementAddress(p.outAddr, element)).v = pair;
}
#endif
#endif
#endif

// The NODE_VECS vectors from element offset `first`, in memory order.
void loadNodeVecs(OFFSET_T first, out ACC_VEC_T w[NODE_VECS]) {
#ifdef VKSCAN_WIDE
  if (kWideVectors) {
    [[unroll]] for (int u = 0; u < NODE_VECS / WIDE_VECS; ++u) {
      u64vec4 unit = loadInWide(first + u * WIDE_N);
      [[unroll]] for (int i = 0; i < WIDE_VECS; ++i) {
        w[u * WIDE_VECS + i] = accVecOfWide(unit, i);
      }
    }
    return;
  }
#endif
  [[unroll]] for (int q = 0; q < NODE_VECS; ++q) w[q] = loadInVec(first + q * VEC_N);
}

void storeNodeVecs(OFFSET_T first, ACC_VEC_T w[NODE_VECS]) {
#ifdef VKSCAN_WIDE_STORES
  if (kWideVectors) {
    [[unroll]] for (int u = 0; u < NODE_VECS / WIDE_VECS; ++u) {
      u64vec4 unit;
      [[unroll]] for (int i = 0; i < WIDE_VECS; ++i) {
        setWideAccVec(unit, i, w[u * WIDE_VECS + i]);
      }
      storeOutWide(first + u * WIDE_N, unit);
    }
    return;
  }
#endif
  [[unroll]] for (int q = 0; q < NODE_VECS; ++q) storeOutVec(first + q * VEC_N, w[q]);
}

// The lowest element offset of the full node from traversal index k0 of a
// contiguous line starting at element offset `line`.
OFFSET_T nodeLowest(OFFSET_T line, OFFSET_T k0) {
  return kReverse ? line - k0 - OFFSET_T(NODE - 1) : line + k0;
}

// A node's elements in traversal order from its NODE_VECS vectors in memory
// order, and back: a decreasing axis (kReverse: stride -1) reverses them.
// Loops are unrolled and every array index is a constant, so the node stays
// in registers (a runtime index would spill it to per-lane memory, which
// costs more than the loads).
void nodeOfVecs(ACC_VEC_T w[NODE_VECS], out ACC_T v[NODE]) {
  [[unroll]] for (int q = 0; q < NODE_VECS; ++q) {
    [[unroll]] for (int c = 0; c < VEC_N; ++c) {
      int j = q * VEC_N + c;
      v[kReverse ? NODE - 1 - j : j] = vecElement(w[q], c);
    }
  }
}

void vecsOfNode(ACC_T v[NODE], out ACC_VEC_T w[NODE_VECS]) {
  [[unroll]] for (int q = 0; q < NODE_VECS; ++q) {
    [[unroll]] for (int c = 0; c < VEC_N; ++c) {
      int j = q * VEC_N + c;
      setVecElement(w[q], c, v[kReverse ? NODE - 1 - j : j]);
    }
  }
}

// The full node of NODE elements from traversal index k0 of a line starting
// at element offset `line`, as NODE_VECS vector accesses: the host's promise
// (kVectorLoads) is |axis stride| == 1 and every vector aligned.
void loadContiguousNode(OFFSET_T line, OFFSET_T k0, out ACC_T v[NODE]) {
  ACC_VEC_T w[NODE_VECS];
  loadNodeVecs(nodeLowest(line, k0), w);
  nodeOfVecs(w, v);
}

void storeContiguousNode(OFFSET_T line, OFFSET_T k0, ACC_T v[NODE]) {
  ACC_VEC_T w[NODE_VECS];
  vecsOfNode(v, w);
  storeNodeVecs(nodeLowest(line, k0), w);
}

// Element offsets of the first traversal element of line `line`. Integer
// division is scalar on many devices (every lane of lavapipe), so it is done
// only for the dimensions that exist, once each (mod by multiply-subtract).
void lineOffsets(uint line, out OFFSET_T inOffset, out OFFSET_T outOffset) {
  // 64-bit multiplies are emulated on many CPUs' vector units, so terms of
  // dimensions that do not exist are skipped (uniform branches).
  inOffset = 0;
  outOffset = 0;
  uint i0 = line;
  if (kLineDims >= 2u && (p.lineSize[1] > 1u || p.lineSize[2] > 1u)) {
    uint rest = line / p.lineSize[0];
    i0 = line - rest * p.lineSize[0];
    uint i1 = rest;
    if (kLineDims >= 3u && p.lineSize[2] > 1u) {
      uint i2 = rest / p.lineSize[1];
      i1 = rest - i2 * p.lineSize[1];
      inOffset += OFFSET_T(i2) * toOffset(p.inLineStride[2]);
      outOffset += OFFSET_T(i2) * toOffset(p.outLineStride[2]);
    }
    inOffset += OFFSET_T(i1) * toOffset(p.inLineStride[1]);
    outOffset += OFFSET_T(i1) * toOffset(p.outLineStride[1]);
  }
  inOffset += OFFSET_T(i0) * toOffset(p.inLineStride[0]);
  outOffset += OFFSET_T(i0) * toOffset(p.outLineStride[0]);
}

uint flatWorkgroupIndex() { return gl_WorkGroupID.x + gl_WorkGroupID.y * p.groupsX; }

bool firstIsPositiveZero() { return (p.flags & VKSCAN_FLAG_FIRST_IS_POSITIVE_ZERO) != 0u; }
