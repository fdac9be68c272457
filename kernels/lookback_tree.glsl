// Decoupled look-back over a line's tree of tiles, for the one-pass
// kernels (rows_onepass.comp, columns_onepass.comp): a tile is a node of
// the canonical tree (of level 2 or 3), and the nodes above the tiles,
// level d (d = 0: tiles), hold two published values each: V, the node's
// value (its serial sum), and I, the serial sum of its group's values up to
// and including it (L + V). The carry into node j at level d is
// X_d(j) = X_{d+1}(j / 16) + L_d(j), L_d(j) being the serial sum of the
// values of nodes 16*(j/16) .. j-1; so a tile needs L at each level of its
// ancestors, at most 15 values each. tileCarry() walks the levels in one
// invocation (columns_onepass.comp, a looking invocation per line); the rows
// kernel walks them on its whole workgroup (lookback_workgroup.glsl). A tile
// publishes V and I of its own tile, and of every ancestor it completes (the
// last of 16 siblings): V of the parent is I of its last child
// (publishCompleted()). A value still unpublished after kPolls reads is
// computed by the looking invocation from its descendants, reducing tiles
// from memory only where none published (decoupled fallback).
//
// Aux (scratch), in 32-bit words, all filled with kUnpublished by the host:
// for each line, M nodes of two accumulators (V, I), M the nodes of every
// level below the root; then a collision record (two words) per tile, for
// in place; then the workgroup counter, which counts up from kUnpublished
// (lib/plan/gpu.cpp onePassScratchWords()). p.lineCount lines of
// p.chunksPerLine tiles.
//
// In place (kInPlace), sums reduced from memory are kept per looking
// invocation in shared memory, up to REDUCED_CAPACITY, and checked by the
// kernel (checkReduced() after a memory barrier) before any value computed
// from them is published (publishFound()); the kernel repeats the look-back
// while one reduced unchecked tiles.
//
// The kernel defines LOOKERS (its looking invocations per workgroup), sets
// gLooker, and defines tileSumFromMemory(line, tile) before this file; and
// LOOKBACK_LISTS_SILENT_TILES where its whole workgroup reduces silent tiles
// (reduceListedTiles(), lookback_workgroup.glsl) rather than one invocation.

// Re-reads of a silent earlier value before computing it here.
layout(constant_id = VKSCAN_SPEC_LOOKBACK_POLLS) const uint kPolls = 256u;
// The output is bound to the input.
layout(constant_id = VKSCAN_SPEC_IN_PLACE) const bool kInPlace = false;
// A test's seam (PipelineKey::lookbackMissesPublished): the first look-back
// takes every published value for silent, as one whose reads all came before
// those publications may (lookedUp()), and computes them all itself.
layout(constant_id = VKSCAN_SPEC_LOOKBACK_MISSES_PUBLISHED) const bool kMissesPublished = false;
// A test's seam (PipelineKey::lookbackStopLevel): the look-back finds the
// levels below this one only (0: every level), and the kernel then leaves
// the tile unstored (stopsBelowRoot()), as a tile still waiting above would
// have left scratch: what it published by then, later tiles read without
// waiting for it.
layout(constant_id = VKSCAN_SPEC_LOOKBACK_STOP_LEVEL) const uint kStopLevel = 0u;

// Levels of a line's tree from the tiles to below the root: 2^32 elements in
// tiles of 256 are 16^6 tiles.
#define MAX_LEVELS 8
// Reduced tiles each looking invocation keeps in place.
#define REDUCED_CAPACITY 16

shared uint sReducedCount[LOOKERS];
shared bool sUnchecked;
shared uint sReducedSlot[LOOKERS * REDUCED_CAPACITY];
shared ACC_T sReducedValue[LOOKERS * REDUCED_CAPACITY];

// Which of the workgroup's looking invocations this is (0 to LOOKERS - 1).
uint gLooker;

// The line's tree above the tiles, for the looking invocation: nodes per
// level, where each level's nodes start among the line's M, and M.
uint gLevels;
uint gNodes[MAX_LEVELS];
uint gLevelStart[MAX_LEVELS];
uint gLineNodes;

#ifdef LOOKBACK_LISTS_SILENT_TILES
// While gListSilentTiles, reduceTile() lists a silent tile it has no kept
// sum for (room permitting) and returns the identity in its place: the
// caller then discards what it computed, has the workgroup reduce the listed
// tiles into the kept sums, and looks again. LOOKERS 1: shared, for the
// workgroup.
bool gListSilentTiles = false;
shared uint sListedCount;
shared uint sListedSlot[REDUCED_CAPACITY];
#endif

// Tiles listed in this round of the look-back, whose sums are not kept yet.
uint listedTiles() {
#ifdef LOOKBACK_LISTS_SILENT_TILES
  return sListedCount;
#else
  return 0u;
#endif
}

// The values a look-back finds are published at once, level by level: the
// last tile of a group then publishes the parent's V before it looks further
// up, so that the next group need not wait for its whole look-back (which
// otherwise chains group after group). In place, only values no unchecked
// sum went into: from the first sum a look-back reduces from memory on (it
// may have read outputs), its values wait for the repeat, which publishes
// them; a repeat finds the same values in the same order and skips those an
// earlier look-back published. gPublished: published by earlier look-backs;
// gFound: found by this one so far; gReducedUnchecked: this one reduced a sum.
uint gPublished = 0u;
uint gFound;
bool gReducedUnchecked;
uint gLooks = 0u;  // look-backs begun

void beginLookback() {
  gFound = 0u;
  gReducedUnchecked = false;
  ++gLooks;
}

// readPublished() for the look-back's reads.
bool lookedUp(uint index, out ACC_T value) {
  if (kMissesPublished && gLooks == 1u) {
    value = identity();
    return false;
  }
  return readPublished(index, value);
}

void publishFound(uint index, ACC_T value) {
  if (kInPlace && gReducedUnchecked) return;
  ++gFound;
  if (gFound <= gPublished) return;
  publish(index, value);
  gPublished = gFound;
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

// The levels the look-back finds: every one, short of the test's stop.
uint lookedLevels() { return kStopLevel != 0u ? min(gLevels, kStopLevel) : gLevels; }
// Whether the look-back stops short of the line's root (uniform: every line
// has p.chunksPerLine tiles); the kernel then stores nothing of the tile.
bool stopsBelowRoot() { return kStopLevel != 0u && kStopLevel < gLevels; }

uint tileCount() { return p.lineCount * p.chunksPerLine; }
// A tile's place among all lines' tiles, line by line (whatever order the
// workgroups take them in): its collision record's and its kept sum's.
uint lineTileSlot(uint line, uint tile) { return line * p.chunksPerLine + tile; }
uint valueWords() { return 2u * p.lineCount * gLineNodes * ACC_WORDS; }
uint collisionRecord(uint slot) { return valueWords() + 2u * slot; }
uint counterWord() { return valueWords() + 2u * tileCount(); }

// Accumulator indices of V and I of node j at level d of line `line`.
uint valueIndex(uint line, uint d, uint j) {
  return 2u * (line * gLineNodes + gLevelStart[d] + j);
}
uint inclusiveIndex(uint line, uint d, uint j) { return valueIndex(line, d, j) + 1u; }

// The tile completes node j at level d, whose value is `value` and whose
// earlier siblings sum to `before`: publishes its I; where the tile also
// completes the parent (the last of 16 siblings, below the root), publishes
// the parent's V, which is that I, sets `value` to it and returns true.
bool publishCompleted(uint line, uint d, uint j, ACC_T before, inout ACC_T value) {
  precise ACC_T inclusive = combine(before, value);
  publishFound(inclusiveIndex(line, d, j), inclusive);
  bool parent = (j & 15u) == 15u && d + 1u < gLevels;
  if (parent) {
    value = inclusive;
    publishFound(valueIndex(line, d + 1u, j / 16u), value);
  }
  return parent;
}

// V of tile `tile` (level 0) reduced from memory; in place, its collision
// record where complete, or a sum kept from an earlier round of this
// look-back (checked since) instead, and a new one is kept and marks the
// look-back unchecked.
ACC_T reduceTile(uint line, uint tile) {
  uint slot = lineTileSlot(line, tile);
  uint kept = gLooker * REDUCED_CAPACITY;
  bool keeps = kInPlace;
#ifdef LOOKBACK_LISTS_SILENT_TILES
  keeps = true;  // the workgroup's reductions are kept out of place too
#endif
  if (kInPlace) {
    // A silent total its tile has recorded: the tile may have overwritten
    // its inputs since, so only the record holds its value.
    ACC_T recorded;
    if (readCollision(collisionRecord(slot), recorded)) return recorded;
  }
  if (keeps) {
    for (uint i = 0u; i < sReducedCount[gLooker]; ++i) {
      if (sReducedSlot[kept + i] == slot) return sReducedValue[kept + i];
    }
  }
#ifdef LOOKBACK_LISTS_SILENT_TILES
  if (gListSilentTiles && sReducedCount[gLooker] + sListedCount < REDUCED_CAPACITY) {
    sListedSlot[sListedCount] = slot;
    ++sListedCount;
    return identity();
  }
#endif
  ACC_T total = tileSumFromMemory(line, tile);
  if (keeps) {
    sUnchecked = true;
    gReducedUnchecked = true;
    uint count = sReducedCount[gLooker];
    // Listed tiles have their room taken: their sums come after.
    if (count + listedTiles() < REDUCED_CAPACITY) {
      sReducedSlot[kept + count] = slot;
      sReducedValue[kept + count] = total;
      sReducedCount[gLooker] = count + 1u;
    }
  }
  return total;
}

// After a memory barrier: a kept sum whose tile has published since may
// have read its outputs, and goes (the published value is read from then
// on); a tile still silent had written nothing when it was reduced, so its
// sum stays.
void checkReduced() {
  uint kept = gLooker * REDUCED_CAPACITY;
  uint count = sReducedCount[gLooker];
  uint stays = 0u;
  for (uint i = 0u; i < count; ++i) {
    uint slot = sReducedSlot[kept + i];
    uint line = slot / p.chunksPerLine;
    ACC_T published;
    bool done = readPublished(valueIndex(line, 0u, slot - line * p.chunksPerLine), published) ||
                readCollision(collisionRecord(slot), published);
    if (!done) {
      sReducedSlot[kept + stays] = slot;
      sReducedValue[kept + stays] = sReducedValue[kept + i];
      ++stays;
    }
  }
  sReducedCount[gLooker] = stays;
}

// nodeValue()'s depth-first walk: per level, the sum of the node summed
// there so far and its next child. Private arrays indexed by a runtime level
// can hold registers through the whole kernel on a GPU, walk or not
// (docs/performance.md); a kernel with shared memory to spare defines
// LOOKBACK_WALK_IN_SHARED to keep them there, per looking invocation.
#ifdef LOOKBACK_WALK_IN_SHARED
shared ACC_T sWalkSum[LOOKERS * MAX_LEVELS];
shared uint sWalkNext[LOOKERS * MAX_LEVELS];
#define WALK_SUM(level) sWalkSum[gLooker * MAX_LEVELS + (level)]
#define WALK_NEXT(level) sWalkNext[gLooker * MAX_LEVELS + (level)]
#else
ACC_T gWalkSum[MAX_LEVELS];
uint gWalkNext[MAX_LEVELS];
#define WALK_SUM(level) gWalkSum[level]
#define WALK_NEXT(level) gWalkNext[level]
#endif

// V of node j at level d: published, or else computed here depth-first from
// its descendants' published values, reducing only tiles none published.
ACC_T nodeValue(uint line, uint d, uint j) {
  ACC_T value;
  if (lookedUp(valueIndex(line, d, j), value)) return value;
  if (d == 0u) return reduceTile(line, j);
  uint level = d;
  WALK_SUM(level) = identity();
  WALK_NEXT(level) = 16u * j;
  // WALK_NEXT(level): the next child (at level - 1) of the node summed at level.
  for (;;) {
    uint child = WALK_NEXT(level);
    ACC_T childValue;
    bool known = lookedUp(valueIndex(line, level - 1u, child), childValue);
    if (!known && level - 1u == 0u) {
      childValue = reduceTile(line, child);
      known = true;
    }
    if (!known) {
      --level;
      WALK_SUM(level) = identity();
      WALK_NEXT(level) = 16u * child;
      continue;
    }
    precise ACC_T sum = combine(WALK_SUM(level), childValue);
    WALK_SUM(level) = sum;
    uint next = child + 1u;
    WALK_NEXT(level) = next;
    // Completed nodes pass their sums up.
    while ((next & 15u) == 0u) {
      if (level == d) return WALK_SUM(level);
      ACC_T done = WALK_SUM(level);
      ++level;
      precise ACC_T parent = combine(WALK_SUM(level), done);
      WALK_SUM(level) = parent;
      next = WALK_NEXT(level) + 1u;
      WALK_NEXT(level) = next;
    }
  }
  return WALK_SUM(d);
}

// L_d(j): the serial sum of the values of node j's earlier siblings.
ACC_T earlierSiblings(uint line, uint d, uint j) {
  uint first = j & ~15u;
  uint count = j - first;
  if (count == 0u) return identity();
  // The nearest sibling's I is often published (columns, whose tiles along
  // the axis finish in order); where it is not, every earlier sibling's I
  // (or else V) is read at once: the reads are independent, so they overlap
  // where one after the other each would wait its own round trip.
  ACC_T nearest;
  if (lookedUp(inclusiveIndex(line, d, j - 1u), nearest)) return nearest;
  ACC_T heard[15];
  uint inclusiveMask = 0u;
  uint valueMask = 0u;
  [[unroll]] for (uint i = 0u; i < 15u; ++i) {
    if (i < count) {
      ACC_T inclusive;
      ACC_T value;
      bool hasInclusive = lookedUp(inclusiveIndex(line, d, first + i), inclusive);
      bool hasValue = lookedUp(valueIndex(line, d, first + i), value);
      heard[i] = hasInclusive ? inclusive : value;
      inclusiveMask |= hasInclusive ? 1u << i : 0u;
      valueMask |= hasValue ? 1u << i : 0u;
    }
  }
  precise ACC_T sum = identity();
  uint start = first;
  // Back to the nearest sibling with a published I, waiting a little for
  // silent ones.
  for (uint k = j; k > first;) {
    --k;
    uint i = k - first;
    bool inclusive = ((inclusiveMask >> i) & 1u) != 0u;
    bool known = inclusive || ((valueMask >> i) & 1u) != 0u;
    ACC_T value = heard[i];
    for (uint poll = 0u; !known && poll < kPolls; ++poll) {
      inclusive = lookedUp(inclusiveIndex(line, d, k), value);
      known = inclusive || lookedUp(valueIndex(line, d, k), value);
    }
    if (inclusive) {
      sum = value;
      start = k + 1u;
      break;
    }
    if (known) {
      heard[i] = value;
      valueMask |= 1u << i;
    }
  }
  for (uint k = start; k < j; ++k) {
    uint i = k - first;
    ACC_T value;
    if (((valueMask >> i) & 1u) != 0u) {
      value = heard[i];
    } else {
      value = nodeValue(line, d, k);
    }
    sum = combine(sum, value);
  }
  return sum;
}

// The carry into the tile, X_0, from L at every level above it and the
// carry into the line's root; publishes I of the tile and V and I of every
// ancestor it completes on the way up. `lineValue`: for the line's last
// tile, the root's value (up the last nodes, each V is I of its last child).
ACC_T tileCarry(uint line, uint tile, ACC_T tileValue, ACC_T root, out ACC_T lineValue) {
  beginLookback();
  ACC_T before[MAX_LEVELS];
  uint j = tile;
  bool complete = true;  // this tile completes node j at level d
  precise ACC_T value = tileValue;
  for (uint d = 0u; d < lookedLevels(); ++d) {
    before[d] = earlierSiblings(line, d, j);
    if (complete) complete = publishCompleted(line, d, j, before[d], value);
    j /= 16u;
  }
  precise ACC_T total = tileValue;
  for (uint d = 0u; d < gLevels; ++d) total = combine(before[d], total);
  lineValue = total;
  precise ACC_T carry = root;
  for (uint d = gLevels; d > 0u; --d) carry = combine(carry, before[d - 1u]);
  return carry;
}

