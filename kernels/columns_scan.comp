#version 460
#extension GL_GOOGLE_include_directive : require
// Columns, scan stage: walks one chunk of one line, adding the chunk's carry
// from aux, and writes the output.
#include "common.glsl"
#include "columns.glsl"

void main() {
  ColumnTask task = columnTask();
  if (!task.valid) return;
  uint levels = p.shape;
  ACC_T chunkCarry = p.auxAddr != 0ul ? loadAcc(p.auxAddr, task.auxIndex) : kIdentity;

  // s1: L_1 of the current node (serial sum of earlier nodes in its group);
  // s2: L_2 of the current group. x2, x1: carries X_2, X_1.
  precise ACC_T s0 = kIdentity;
  precise ACC_T s1 = kIdentity;
  precise ACC_T s2 = kIdentity;
  precise ACC_T x2 = chunkCarry;
  precise ACC_T x1 = chunkCarry;
  for (int64_t k = task.kBegin; k < task.kEnd; ++k) {
    uint r = uint(k - task.kBegin);
    if ((r & 15u) == 0u) {
      if (levels >= 3u && (r & 255u) == 0u) x2 = chunkCarry + s2;
      if (levels >= 2u) x1 = x2 + s1;
    }
    ACC_T v = loadElement(p.inAddr, task.inLine + k * p.inAxisStride);
    precise ACC_T out_;
    if (kExclusive) {
      out_ = x1 + s0;
      s0 = s0 + v;
      if (k == 0 && firstIsPositiveZero()) out_ = ACC_T(0);
    } else {
      s0 = s0 + v;
      out_ = x1 + s0;
    }
    storeElement(p.outAddr, task.outLine + k * p.outAxisStride, out_);
    bool last = k + 1 == task.kEnd;
    if ((r & 15u) == 15u || last) {
      s1 = s1 + s0;
      s0 = kIdentity;
      if ((r & 255u) == 255u || last) {
        s2 = s2 + s1;
        s1 = kIdentity;
      }
    }
  }
}
