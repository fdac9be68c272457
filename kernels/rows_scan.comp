#version 460
#extension GL_GOOGLE_include_directive : require
// Rows, scan stage: each workgroup scans one or several short lines whole,
// each in a segment of 1 << p.shape invocations. Writes the output, and
// with line carries takes each line's carry-in at its root and writes its
// total (line_carries.glsl, from the start of aux).
#include "common.glsl"
#include "rows.glsl"
#include "publication.glsl"
#include "line_carries.glsl"

void main() {
  RowTask task = rowTask();
  ACC_T v[NODE];
  loadTileNode(task, v);
  workgroupTree(nodeTotal(v));
  if (kLineTotals && gHoldsSegmentTotal) {
    uint line = flatWorkgroupIndex() * (kWorkgroupSize >> p.shape) + (gSegmentPlace >> p.shape);
    if (line < p.lineCount) storeLineTotal(0u, line, gSegmentTotal);
  }
  storeScannedNode(task, v, task.valid ? rootCarry(0u, task.line) : identity());
}
