#version 460
#extension GL_GOOGLE_include_directive : require
// Columns, reduce stage: sums one chunk of one line in the canonical order
// and writes the chunk total to aux.
#include "common.glsl"
#include "columns.glsl"

void main() {
  ColumnTask task = columnTask();
  if (!task.valid) return;
  precise ACC_T s0 = kIdentity;
  precise ACC_T s1 = kIdentity;
  precise ACC_T s2 = kIdentity;
  for (int64_t k = task.kBegin; k < task.kEnd; ++k) {
    uint r = uint(k - task.kBegin);
    s0 = s0 + loadElement(p.inAddr, task.inLine + k * p.inAxisStride);
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
  storeAcc(p.auxAddr, task.auxIndex, s2);
}
