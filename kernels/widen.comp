#version 460
#extension GL_GOOGLE_include_directive : require
// The first pass of a scan whose output type is wider than its input's
// (INT32 to INT64, UINT32 to UINT64, FLOAT16 and BFLOAT16 to FLOAT32,
// FLOAT32 to FLOAT64): each element of the input, widened exactly, to its
// place in the output, which the scan then scans in place. Built for the
// input's type; the output's elements are twice its size. Conversions are
// integer code, so that no device flushes a denormal on the way and FLOAT64
// outputs need no Float64 here.
//
// Element e of the dispatch (line e / axisLen, traversal index e % axisLen)
// is moved by invocation e % invocations, in p.chunksPerLine rounds, so
// neighbouring invocations move neighbouring elements of a line.
#include "common.glsl"

layout(buffer_reference, scalar, buffer_reference_align = 8) buffer WordPairRef { uvec2 v; };

#if defined(VKSCAN_TYPE_F64) || defined(VKSCAN_TYPE_U64)
void main() {}  // no wider type: never dispatched
#else

// FLOAT32 bits as FLOAT64 bits (low word first): the same value, denormals
// normalised, NaN payloads kept.
uvec2 doubleBitsOfFloat(uint bits) {
  uint sign = bits & 0x80000000u;
  uint exponent = (bits >> 23) & 0xFFu;
  uint mantissa = bits & 0x7FFFFFu;
  uint biased = exponent + 896u;  // 1023 - 127
  if (exponent == 0xFFu) biased = 0x7FFu;
  if (exponent == 0u) {
    if (mantissa == 0u) return uvec2(0u, sign);
    uint shift = uint(23 - findMSB(mantissa));
    mantissa = (mantissa << shift) & 0x7FFFFFu;
    biased = 897u - shift;
  }
  return uvec2(mantissa << 29, sign | (biased << 20) | (mantissa >> 3));
}

void storeWide(ADDR_T address, ACC_T value) {
#if defined(VKSCAN_TYPE_F16)
  WordRef(address).v = floatBitsToUint(value);  // FLOAT16, BFLOAT16: FLOAT32
#elif defined(VKSCAN_TYPE_F32)
  WordPairRef(address).v = doubleBitsOfFloat(floatBitsToUint(value));
#else
  WordPairRef(address).v = uvec2(value, kSignedValues ? uint(int(value) >> 31) : 0u);
#endif
}

void main() {
  uint invocations = gl_NumWorkGroups.x * gl_NumWorkGroups.y * gl_WorkGroupSize.x;
  uint invocation = flatWorkgroupIndex() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  OFFSET_T axisLen = OFFSET_T(p.axisLen);
  OFFSET_T total = OFFSET_T(p.lineCount) * axisLen;
  for (uint round = 0u; round < p.chunksPerLine; ++round) {
    OFFSET_T e = OFFSET_T(round) * OFFSET_T(invocations) + OFFSET_T(invocation);
    if (e >= total) return;
    OFFSET_T line = e / axisLen;
    OFFSET_T k = e - line * axisLen;
    OFFSET_T inOffset;
    OFFSET_T outOffset;
    lineOffsets(uint(line), inOffset, outOffset);
    ACC_T value = loadIn(inOffset + k * toOffset(p.inAxisStride));
    OFFSET_T outElement = outOffset + k * toOffset(p.outAxisStride);
    // Output elements are twice the input's size.
    storeWide(elementAddress(elementAddress(p.outAddr, outElement), outElement), value);
  }
}
#endif
