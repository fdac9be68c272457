#version 460
#extension GL_GOOGLE_include_directive : require
// Rows, one pass: each workgroup scans one tile of a long contiguous line (a
// level-3 node of 4096 elements, or a level-2 node for 16-wide workgroups)
// and finds the tile's carry by decoupled look-back, level by level, so that
// the input is read once and the carry is the canonical one.
//
// Tiles are taken in the order of an atomic counter, not of workgroup IDs:
// a workgroup that holds tile T knows every earlier tile is held by a
// workgroup that started. Vulkan still does not promise that those make
// progress while this one waits, so every wait is bounded (kPolls) and a
// value still unpublished is then computed here instead (decoupled
// fallback): the same canonical sums, so the same bits.
//
// Nodes of the line's tree above the tile level, level d (d = 0: tiles),
// hold two published values each: V, the node's value (its serial sum), and
// I, the serial sum of its group's values up to and including it (L + V).
// The carry into node j at level d is X_d(j) = X_{d+1}(j / 16) + L_d(j),
// L_d(j) being the serial sum of the values of nodes 16*(j/16) .. j-1; so a
// tile needs L at each level of its ancestors, at most 15 values each. It
// looks back from the nearest earlier sibling to the first with a published
// I, and adds the V after it in order. A tile publishes V and I of its own
// tile, and of every ancestor it completes (the last of 16 siblings): V of
// the parent is I of its last child.
//
// Aux (scratch), in 32-bit words, all filled with kUnpublished by the host:
// for each line, M nodes of two accumulators (V, I), M the nodes of every
// level below the root; then a collision record (two words) per tile, for
// in place; then the tile counter, which counts up from kUnpublished
// (lib/plan/gpu.cpp onePassScratchWords()).
//
// In place (kInPlace), a tile's outputs overwrite inputs that a looking
// workgroup may be reducing: as in chunk_lookback.comp, each tile publishes
// its V before it writes anything (a memory barrier between), and a V whose
// words equal kUnpublished is also written as a collision record. A looking
// workgroup that reduced silent tiles keeps their sums in shared memory,
// passes a memory barrier and takes the V each has published meanwhile (its
// reduction may have read outputs) before it publishes anything of its own;
// where it reduced any, it looks back again with those values. Its memory
// barriers are on every invocation: llvmpipe runs memoryBarrierBuffer() as
// a workgroup execution barrier, even where a branch skips it.
#include "common.glsl"
#include "rows.glsl"
#include "publication.glsl"

// Re-reads of a silent earlier value before computing it here.
layout(constant_id = VKSCAN_SPEC_LOOKBACK_POLLS) const uint kPolls = 256u;
// The output is bound to the input (see above).
layout(constant_id = VKSCAN_SPEC_IN_PLACE) const bool kInPlace = false;

// Levels of a line's tree from the tiles to below the root: 2^32 elements in
// tiles of 256 are 16^6 tiles.
#define MAX_LEVELS 8

// Reduced tiles are kept (in place) up to 16 per level.
#define REDUCED_CAPACITY (16 * MAX_LEVELS)

shared uint sTile;
shared ACC_T sCarry;
shared uint sReducedCount;
shared bool sUnchecked;
shared uint sReducedSlot[REDUCED_CAPACITY];
shared ACC_T sReducedValue[REDUCED_CAPACITY];

// The line's tree above the tiles, for the looking invocation: nodes per
// level, where each level's nodes start among the line's M, and M.
uint gLevels;
uint gNodes[MAX_LEVELS];
uint gLevelStart[MAX_LEVELS];
uint gLineNodes;

// Values the looking invocation publishes once its look-back is final.
uint gPendingCount;
uint gPendingIndex[2 * MAX_LEVELS];
ACC_T gPendingValue[2 * MAX_LEVELS];

void publishLater(uint index, ACC_T value) {
  gPendingIndex[gPendingCount] = index;
  gPendingValue[gPendingCount] = value;
  ++gPendingCount;
}

void publishPending() {
  for (uint i = 0u; i < gPendingCount; ++i) publish(gPendingIndex[i], gPendingValue[i]);
}

void measureTree() {
  uint nodes = p.chunksPerLine;
  gLineNodes = 0u;
  gLevels = 0u;
  while (nodes > 1u) {
    gNodes[gLevels] = nodes;
    gLevelStart[gLevels] = gLineNodes;
    gLineNodes += nodes;
    nodes = (nodes + 15u) / 16u;
    ++gLevels;
  }
}

uint tileCount() { return p.lineCount * p.chunksPerLine; }
uint valueWords() { return 2u * p.lineCount * gLineNodes * ACC_WORDS; }
uint collisionRecord(uint tileSlot) { return valueWords() + 2u * tileSlot; }
uint counterWord() { return valueWords() + 2u * tileCount(); }

// Accumulator indices of V and I of node j at level d of line `line`.
uint valueIndex(uint line, uint d, uint j) {
  return 2u * (line * gLineNodes + gLevelStart[d] + j);
}
uint inclusiveIndex(uint line, uint d, uint j) { return valueIndex(line, d, j) + 1u; }

// The tile's value (level-0 V) from memory, in the canonical order: groups of
// 16 nodes of 16 elements (one group in 16-wide workgroups). In place, a sum
// kept from an earlier look-back (checked since) instead; a new one is kept
// and marks the look-back unchecked.
ACC_T reduceTile(uint line, uint tile) {
  uint slot = line * p.chunksPerLine + tile;
  if (kInPlace) {
    for (uint i = 0u; i < sReducedCount; ++i) {
      if (sReducedSlot[i] == slot) return sReducedValue[i];
    }
  }
  RowTask task;
  task.line = line;
  task.chunk = tile;
  task.valid = true;
  lineOffsets(line, task.inLine, task.outLine);
  uint groups = kWorkgroupSize / 16u;
  precise ACC_T total = kIdentity;
  for (uint g = 0u; g < groups; ++g) {
    precise ACC_T group = kIdentity;
    for (uint n = 0u; n < 16u; ++n) {
      task.k0 = OFFSET_T(tile) * OFFSET_T(kWorkgroupSize * NODE) + OFFSET_T((16u * g + n) * NODE);
      ACC_T v[NODE];
      loadNode(task, v);
      group = ADD(group, nodeTotal(v));
    }
    total = ADD(total, group);
  }
  if (kInPlace) {
    sUnchecked = true;
    if (sReducedCount < REDUCED_CAPACITY) {
      sReducedSlot[sReducedCount] = slot;
      sReducedValue[sReducedCount] = total;
      ++sReducedCount;
    }
  }
  return total;
}

// After a memory barrier: a kept sum whose tile has published since may
// have read its outputs, and gives way to the published value.
void checkReduced() {
  for (uint i = 0u; i < sReducedCount; ++i) {
    uint slot = sReducedSlot[i];
    uint line = slot / p.chunksPerLine;
    ACC_T published;
    if (readPublished(valueIndex(line, 0u, slot - line * p.chunksPerLine), published) ||
        readCollision(collisionRecord(slot), published)) {
      sReducedValue[i] = published;
    }
  }
}

// V of node j at level d: published, or else computed here depth-first from
// its descendants' published values, reducing only tiles none published.
ACC_T nodeValue(uint line, uint d, uint j) {
  ACC_T value;
  if (readPublished(valueIndex(line, d, j), value)) return value;
  if (d == 0u) return reduceTile(line, j);
  precise ACC_T sums[MAX_LEVELS];
  uint next[MAX_LEVELS];
  uint level = d;
  sums[level] = kIdentity;
  next[level] = 16u * j;
  // next[level]: the next child (at level - 1) of the node summed at level.
  for (;;) {
    uint child = next[level];
    ACC_T childValue;
    bool known = readPublished(valueIndex(line, level - 1u, child), childValue);
    if (!known && level - 1u == 0u) {
      childValue = reduceTile(line, child);
      known = true;
    }
    if (!known) {
      --level;
      sums[level] = kIdentity;
      next[level] = 16u * child;
      continue;
    }
    sums[level] = ADD(sums[level], childValue);
    ++next[level];
    // Completed nodes pass their sums up.
    while ((next[level] & 15u) == 0u) {
      if (level == d) return sums[level];
      ACC_T done = sums[level];
      ++level;
      sums[level] = ADD(sums[level], done);
      ++next[level];
    }
  }
  return sums[d];
}

// L_d(j): the serial sum of the values of node j's earlier siblings.
ACC_T earlierSiblings(uint line, uint d, uint j) {
  uint first = j & ~15u;
  precise ACC_T sum = kIdentity;
  // Back to the nearest sibling with a published I, waiting a little for
  // silent ones.
  for (uint k = j; k > (j & ~15u);) {
    --k;
    ACC_T value;
    bool inclusive = false;
    bool heard = false;
    for (uint poll = 0u; !heard && poll <= kPolls; ++poll) {
      inclusive = readPublished(inclusiveIndex(line, d, k), value);
      heard = inclusive || readPublished(valueIndex(line, d, k), value);
    }
    if (inclusive) {
      sum = value;
      first = k + 1u;
      break;
    }
  }
  for (uint k = first; k < j; ++k) sum = ADD(sum, nodeValue(line, d, k));
  return sum;
}

// The carry into the tile, X_0, from L at every level above it (the root's
// carry is the identity); publishes I of the tile and V and I of every
// ancestor it completes on the way up.
ACC_T tileCarry(uint line, uint tile, ACC_T tileValue) {
  gPendingCount = 0u;
  ACC_T before[MAX_LEVELS];
  uint j = tile;
  bool complete = true;  // this tile completes node j at level d
  precise ACC_T value = tileValue;
  for (uint d = 0u; d < gLevels; ++d) {
    before[d] = earlierSiblings(line, d, j);
    if (complete) {
      precise ACC_T inclusive = ADD(before[d], value);
      publishLater(inclusiveIndex(line, d, j), inclusive);
      complete = (j & 15u) == 15u && d + 1u < gLevels;
      if (complete) {
        value = inclusive;
        publishLater(valueIndex(line, d + 1u, j / 16u), value);
      }
    }
    j /= 16u;
  }
  precise ACC_T carry = kIdentity;
  for (uint d = gLevels; d > 0u; --d) carry = ADD(carry, before[d - 1u]);
  return carry;
}

void main() {
  uint t = placeInWorkgroup();
  if (t == 0u) {
    measureTree();
    sTile = atomicAdd(wordRef(counterWord()).v, 1u) - kUnpublished;
  }
  barrier();
  uint tileSlot = sTile;
  // Workgroups beyond the tiles (the grid's padding) have nothing to do.
  if (tileSlot >= tileCount()) return;
  uint line = tileSlot / p.chunksPerLine;
  uint tile = tileSlot - line * p.chunksPerLine;
  RowTask task = rowTaskAt(line, tile, t);
  ACC_T v[NODE];
  loadNode(task, v);
  ACC_T inclusive[NODE];
  ACC_T tileValue = workgroupTree(scanNode(v, inclusive));
  if (t == 0u) {
    publish(valueIndex(line, 0u, tile), tileValue);
    if (kInPlace && silentWords(wordsOf(tileValue))) {
      recordCollision(collisionRecord(tileSlot), tileValue);
    }
  }
  if (t == 0u) sReducedCount = 0u;
  // In place, the published value must be visible before any output
  // overwrites an input that a looking workgroup may reduce (on every
  // invocation, see above); and the look-back runs again while it reduced
  // tiles not yet checked after a barrier.
  for (;;) {
    if (t == 0u) {
      sUnchecked = false;
      sCarry = tileCarry(line, tile, tileValue);
    }
    if (!kInPlace) break;
    memoryBarrierBuffer();
    barrier();
    if (!sUnchecked) break;
    if (t == 0u) checkReduced();
    barrier();
  }
  if (t == 0u) publishPending();
  barrier();
  storeScannedNode(task, inclusive, sCarry);
}
