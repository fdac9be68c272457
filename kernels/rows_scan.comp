#version 460
#extension GL_GOOGLE_include_directive : require
// Rows, scan stage: each workgroup scans one tile of a long line (adding the
// carry the reduce and carry passes left in aux) or several short lines
// whole. Writes the output.
#include "common.glsl"
#include "rows.glsl"

void main() {
  RowTask task = rowTask();
  ACC_T v[NODE];
  loadNode(task, v);

  ACC_T inclusive[NODE];
  precise ACC_T s = kIdentity;
  [[unroll]] for (int j = 0; j < NODE; ++j) {
    s = ADD(s, v[j]);
    inclusive[j] = s;
  }
  workgroupTree(s);

  ACC_T tileCarry = kIdentity;
  if (hasAux() && task.valid) {
    tileCarry = loadAcc(p.auxAddr,
                        OFFSET_T(task.line) * OFFSET_T(p.chunksPerLine) + OFFSET_T(task.chunk));
  }
  precise ACC_T x = nodeCarry(tileCarry);

  ACC_T outValues[NODE];
  [[unroll]] for (int j = 0; j < NODE; ++j) {
    precise ACC_T partial = kExclusive ? (j == 0 ? kIdentity : inclusive[j - 1]) : inclusive[j];
    outValues[j] = ADD(x, partial);
  }
  if (kExclusive && task.k0 == 0 && firstIsPositiveZero()) outValues[0] = ACC_T(0);
  storeNode(task, outValues);
}
