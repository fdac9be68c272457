#version 460
#extension GL_GOOGLE_include_directive : require
// The naive cumulative sum most projects write first: one invocation per
// line, a serial loop along the axis, accumulating in the scan's type (FP32
// for float16). Because lavapipe stops an invocation after 65,535 loop
// iterations, the host runs it only where axisLen <= 65,535.
#include "bench_common.glsl"

layout(buffer_reference, scalar, buffer_reference_align = ELEM_BYTES) buffer ElemRef {
  ELEM_T v;
};

layout(push_constant, std430) uniform Push { NaiveParams p; };

void main() {
  uint64_t line = flatGroup(p.groupsX) * uint64_t(gl_WorkGroupSize.x) +
                  uint64_t(gl_LocalInvocationID.x);
  if (line >= uint64_t(p.lineCount)) return;
  uint64_t outer = line / uint64_t(p.inner);
  uint64_t inner = line % uint64_t(p.inner);
  int64_t step = int64_t(p.inner);
  int64_t index = int64_t(outer * uint64_t(p.axisLen) * uint64_t(p.inner) + inner);
  if ((p.flags & BENCH_NAIVE_DECREASING) != 0u) {
    index += int64_t(p.axisLen - 1u) * step;
    step = -step;
  }
  bool exclusive = (p.flags & BENCH_NAIVE_EXCLUSIVE) != 0u;
  ACC_T sum = ACC_T(0);
  for (uint k = 0u; k < p.axisLen; ++k) {
    ElemRef element = ElemRef(p.src + uint64_t(index) * ELEM_BYTES);
    ElemRef result = ElemRef(p.dst + uint64_t(index) * ELEM_BYTES);
    ACC_T v = ACC_T(element.v);
    if (exclusive) {
      result.v = ELEM_T(sum);
      sum += v;
    } else {
      sum += v;
      result.v = ELEM_T(sum);
    }
    index += step;
  }
}
