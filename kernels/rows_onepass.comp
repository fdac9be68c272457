#version 460
#extension GL_GOOGLE_include_directive : require
// Rows, one pass: each workgroup scans one tile of a long contiguous line (a
// level-3 node of 4096 elements, or a level-2 node for 16-wide workgroups)
// and finds the tile's carry by decoupled look-back over the levels of its
// ancestors, so that the input is read once and the carry is the canonical
// one.
//
// Tiles are taken in the order of an atomic counter, not of workgroup IDs:
// a workgroup that holds tile T knows every earlier tile is held by a
// workgroup that started. Vulkan still does not promise that those make
// progress while this one waits, so every wait is bounded (kPolls) and a
// value still unpublished is then computed here instead (decoupled
// fallback): the same canonical sums, so the same bits.
//
// The look-back, run by the whole workgroup: lookback_workgroup.glsl; its
// published values and its scratch: lookback_tree.glsl.
//
// In place (kInPlace), a tile's outputs overwrite inputs that a looking
// workgroup may be reducing: as in chunk_lookback.comp, each tile publishes
// its V before it writes anything (a memory barrier between), and a V whose
// words equal kUnpublished is also written as a collision record. A looking
// workgroup that reduced silent tiles keeps their sums in shared memory,
// passes a memory barrier and takes the V each has published meanwhile (its
// reduction may have read outputs) before it publishes any value computed
// from them; where it reduced any, it looks back again with those values,
// and publishes the rest (lookback_tree.glsl publishFound()). Its memory
// barriers are on every invocation: llvmpipe runs memoryBarrierBuffer() as
// a workgroup execution barrier, even where a branch skips it.
#include "common.glsl"
#include "rows.glsl"
#include "publication.glsl"

#define LOOKERS 1u

// The tile's value from memory, in the canonical order: groups of 16 nodes
// of 16 elements (one group in 16-wide workgroups).
ACC_T tileSumFromMemory(uint line, uint tile) {
  RowTask task;
  task.line = line;
  task.chunk = tile;
  task.valid = true;
  lineOffsets(line, task.inLine, task.outLine);
  uint groups = kWorkgroupSize / 16u;
  precise ACC_T total = identity();
  for (uint g = 0u; g < groups; ++g) {
    precise ACC_T group = identity();
    for (uint n = 0u; n < 16u; ++n) {
      task.k0 = OFFSET_T(tile) * OFFSET_T(kWorkgroupSize * NODE) + OFFSET_T((16u * g + n) * NODE);
      ACC_T v[NODE];
      loadNode(task, v);
      group = combine(group, nodeTotal(v));
    }
    total = combine(total, group);
  }
  return total;
}

shared ACC_T sListedGroup[16];
shared ACC_T sListedTotal;

// tileSumFromMemory()'s value on the whole workgroup, each invocation
// loading a node: the same serial sums in the same order (laneChain()), so
// the same bits. Call from uniform control flow; the value on every
// invocation.
ACC_T workgroupTileSum(uint line, uint tile) {
  uint t = placeInWorkgroup();
  RowTask task;
  task.line = line;
  task.chunk = tile;
  task.valid = true;
  lineOffsets(line, task.inLine, task.outLine);
  task.k0 = OFFSET_T(tile) * OFFSET_T(kWorkgroupSize * NODE) + OFFSET_T(t * NODE);
  ACC_T v[NODE];
  loadNode(task, v);
  ACC_T group;
  laneChain(t, nodeTotal(v), (t & 15u) == 0u, group);
  ACC_T total = group;
  if (kTwoLevels) {
    if ((t & 15u) == 15u) sListedGroup[t / 16u] = group;
    barrier();
    laneChain(t, t < 16u ? sListedGroup[t] : identity(), t == 0u, total);
  }
  // tileSumFromMemory() folds a lone group into the identity.
  if (t == 15u) sListedTotal = kTwoLevels ? total : combine(identity(), total);
  barrier();
  ACC_T value = sListedTotal;
  barrier();
  return value;
}

#define LOOKBACK_LISTS_SILENT_TILES
#define LOOKBACK_WALK_IN_SHARED
#include "lookback_tree.glsl"
#include "lookback_workgroup.glsl"
#include "line_carries.glsl"

// Line carries (line_carries.glsl) follow the look-back's words.
uint carriesStart() { return roundToVector(counterWord() + 1u); }

shared uint sTile;

void main() {
  uint t = placeInWorkgroup();
  measureTree();
  if (t == 0u) sTile = atomicAdd(wordRef(counterWord()).v, 1u) - kUnpublished;
  barrier();
  uint tileSlot = sTile;
  // Workgroups beyond the tiles (the grid's padding) have nothing to do.
  if (tileSlot >= tileCount()) return;
  bool linesFastest = (p.flags & VKSCAN_FLAG_LINES_FASTEST) != 0u;
  uint line = linesFastest ? tileSlot % p.lineCount : tileSlot / p.chunksPerLine;
  uint tile = linesFastest ? tileSlot / p.lineCount : tileSlot - line * p.chunksPerLine;
  RowTask task = rowTaskAt(line, tile, t);
  ACC_T v[NODE];
  loadTileNode(task, v);
  ACC_T tileValue = workgroupTree(nodeTotal(v));
  if (t == 0u) {
    publish(valueIndex(line, 0u, tile), tileValue);
    if (kInPlace && silentWords(wordsOf(tileValue))) {
      recordCollision(collisionRecord(lineTileSlot(line, tile)), tileValue);
    }
  }
  gLooker = 0u;
  if (t == 0u) sReducedCount[0] = 0u;
  // In place, the published value must be visible before any output
  // overwrites an input that a looking workgroup may reduce (on every
  // invocation, see above); and the look-back runs again while it reduced
  // tiles not yet checked after a barrier.
  ACC_T root = rootCarry(carriesStart(), line);
  ACC_T carry;
  for (bool waited = false;; waited = true) {
    if (t == 0u) sUnchecked = false;
    carry = workgroupTileCarry(line, tile, tileValue, root, waited);
    if (!kInPlace) break;
    memoryBarrierBuffer();
    barrier();
    if (!sUnchecked) break;
    if (t == 0u) checkReduced();
    barrier();
  }
  if (stopsBelowRoot()) return;
  if (kLineTotals && t == 0u && tile + 1u == p.chunksPerLine) {
    storeLineTotal(carriesStart(), line, lineTotal(tileValue));
  }
  // A staged tile waits out the look-back in shared memory (which the
  // look-back leaves alone), so its node need not hold registers meanwhile.
  // A one-pass tile is staged wherever kStagedNodes: its line spans the
  // workgroup.
  if (kStagedNodes) restagedTileNode(task, v);
  storeScannedNode(task, v, carry);
}
