#version 460
#extension GL_GOOGLE_include_directive : require
// Rows, scan stage: each workgroup scans one or several short lines whole,
// each in a segment of 1 << p.shape invocations. Writes the output.
#include "common.glsl"
#include "rows.glsl"

void main() {
  RowTask task = rowTask();
  ACC_T v[NODE];
  loadTileNode(task, v);
  workgroupTree(nodeTotal(v));
  storeScannedNode(task, v, identity());
}
