#version 460
#extension GL_GOOGLE_include_directive : require
// Rows, reduce stage: each workgroup sums one tile of a long line in the
// canonical order and writes the tile total (a level-3, or level-2 for
// 16-wide workgroups, value of the tree) to aux[line * chunksPerLine + chunk].
#include "common.glsl"
#include "rows.glsl"

void main() {
  RowTask task = rowTask();
  ACC_T v[NODE];
  loadNode(task, v);
  ACC_T tileTotal = workgroupTree(nodeTotal(v));
  if (gl_LocalInvocationID.x == 0u && task.valid) {
    storeAcc(p.auxAddr, OFFSET_T(task.line) * OFFSET_T(p.chunksPerLine) + OFFSET_T(task.chunk),
             tileTotal);
  }
}
