#version 460
#extension GL_GOOGLE_include_directive : require
// The indices of a running maximum or minimum (PyTorch's cummax and cummin),
// first of two passes after the values' scan: each element's INT64 index
// along the axis where it is the running value (a NaN, or equal to the
// value at its place: with ties to the later element, exactly where the
// scan took it), and elsewhere the sentinel that loses the second pass, an
// in-place scan of the indices, to every index: 0 for a maximum over
// increasing indices (traversal element 0 always sets the value), INT64_MAX
// for a minimum over decreasing ones (kReverse). The running index is then
// the latest record's.
//
// p.inAddr: the input; p.auxAddr: the values the scan wrote, at the same
// element offsets as the indices (they share element strides); p.outAddr:
// the indices, 8 bytes an element. Elements are spread as in widen.comp.
#include "common.glsl"

layout(buffer_reference, scalar, buffer_reference_align = 8) buffer IndexRef { uvec2 v; };

bool isRecord(ACC_T x, ACC_T value) {
#if defined(ACC_IS_FLOAT)
  return isnan(x) || x == value;
#else
  return x == value;
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
    OFFSET_T outElement = outOffset + k * toOffset(p.outAxisStride);
    ACC_T x = loadIn(inOffset + k * toOffset(p.inAxisStride));
    ACC_T value = loadElement(p.auxAddr, outElement);
    // The index along the axis: traversal runs down it with kReverse.
    uint index = uint(kReverse ? axisLen - 1 - k : k);
    uvec2 sentinel = kReverse ? uvec2(0xFFFFFFFFu, 0x7FFFFFFFu) : uvec2(0u);
    ADDR_T address = addressOffset(p.outAddr, outElement * OFFSET_T(8));
    IndexRef(address).v = isRecord(x, value) ? uvec2(index, 0u) : sentinel;
  }
}
