// The rows one-pass kernel's look-back (rows_onepass.comp), run by the whole
// workgroup over the tree and values of lookback_tree.glsl. Every level of
// the tile's ancestors is looked at in the same round: the workgroup's
// invocations read, each for a few siblings, the V of every earlier sibling
// of each ancestor and the I of the nearest one, into shared memory, so that
// a look-back over L levels waits one round trip to memory where one
// invocation walking level after level waited L or more. One invocation then
// folds each level it can in the canonical order (L_d is the nearest
// sibling's I, or else the serial sum of the siblings' V from the first),
// and publishes the I (and the parent's V) of each node the tile completes
// as soon as that level is found, so that later tiles never wait for this
// one's whole look-back. Rounds re-read what is still silent; after kPolls
// rounds the silent values are computed here (nodeValue()), so no forward
// progress between workgroups is assumed: the looking invocation lists the
// silent tiles it would reduce, and the whole workgroup reduces them, each
// invocation a node (listed tiles are the decoupled fallback's cost, which
// one invocation reducing 4096 elements alone would make many times
// larger). Any mix of published and computed values gives the same bits:
// each is the same canonical serial sum.
//
// The kernel defines kWorkgroupSize and placeInWorkgroup() (rows.glsl),
// workgroupTileSum(line, tile) and LOOKBACK_LISTS_SILENT_TILES, and includes
// lookback_tree.glsl first, with LOOKERS 1.

// A sibling's V in shared memory: 16 slots per level (15 are enough).
const uint kSlotSilent = 0u;
const uint kSlotHeard = 1u;

shared uint sSlotState[MAX_LEVELS * 16];
shared ACC_T sSlotValue[MAX_LEVELS * 16];
// Per level: whether the nearest sibling's I is heard, and the I.
shared bool sNearestHeard[MAX_LEVELS];
shared ACC_T sNearest[MAX_LEVELS];
// L_d of the found levels (bit d of sFoundLevels).
shared ACC_T sLevelBefore[MAX_LEVELS];
shared uint sFoundLevels;

// The looking invocation's walk up the nodes the tile completes: the next
// level to publish, whether the tile completes its ancestor there, and that
// ancestor's V.
uint gPublishLevel;
bool gCompletes;
ACC_T gCompletedValue;

uint ancestorAt(uint tile, uint d) { return tile >> (4u * d); }
bool levelFound(uint d) { return ((sFoundLevels >> d) & 1u) != 0u; }

// Slot s = 16 d + i: sibling i of the tile's ancestor at level d, read while
// that level is not found and the V is silent; the nearest sibling's I too.
void readSlot(uint line, uint tile, uint s) {
  uint d = s / 16u;
  uint i = s & 15u;
  uint j = ancestorAt(tile, d);
  uint count = j & 15u;
  if (i >= count || levelFound(d)) return;
  uint node = (j & ~15u) + i;
  // Neither read depends on the other's result, so both can be in flight.
  bool nearest = i + 1u == count && !sNearestHeard[d];
  bool silent = sSlotState[s] == kSlotSilent;
  ACC_T inclusive;
  ACC_T value;
  bool hasInclusive = nearest && lookedUp(inclusiveIndex(line, d, node), inclusive);
  bool hasValue = silent && lookedUp(valueIndex(line, d, node), value);
  if (hasInclusive) {
    sNearest[d] = inclusive;
    sNearestHeard[d] = true;
  }
  if (hasValue) {
    sSlotValue[s] = value;
    sSlotState[s] = kSlotHeard;
  }
}

// The looking invocation: L_d of each level it can fold, computing silent
// siblings where `computeSilent`; then the publications those allow.
void findLevels(uint line, uint tile, bool computeSilent) {
  for (uint d = 0u; d < lookedLevels(); ++d) {
    if (levelFound(d)) continue;
    uint j = ancestorAt(tile, d);
    uint count = j & 15u;
    precise ACC_T before = identity();
    // Only a level with siblings has a nearest one to hear.
    if (sNearestHeard[d]) {
      before = sNearest[d];
    } else {
      bool blocked = false;
      for (uint i = 0u; i < count && !blocked; ++i) {
        blocked = sSlotState[16u * d + i] == kSlotSilent && !computeSilent;
      }
      if (blocked) continue;
      uint listed = sListedCount;
      for (uint i = 0u; i < count; ++i) {
        uint s = 16u * d + i;
        ACC_T value =
            sSlotState[s] == kSlotHeard ? sSlotValue[s] : nodeValue(line, d, (j & ~15u) + i);
        before = combine(before, value);
      }
      // A listed tile stood in as the identity: found once it is reduced.
      if (sListedCount != listed) continue;
    }
    sLevelBefore[d] = before;
    sFoundLevels |= 1u << d;
  }
  while (gCompletes && gPublishLevel < gLevels && levelFound(gPublishLevel)) {
    uint d = gPublishLevel;
    gCompletes = publishCompleted(line, d, ancestorAt(tile, d), sLevelBefore[d], gCompletedValue);
    ++gPublishLevel;
  }
}

// The tiles the looking invocation listed, reduced by the whole workgroup
// into its kept sums (lookback_tree.glsl reduceTile()), which in place are
// checked like its own. Call from uniform control flow after a barrier.
void reduceListedTiles(uint line) {
  uint t = placeInWorkgroup();
  uint count = sListedCount;
  for (uint i = 0u; i < count; ++i) {
    uint slot = sListedSlot[i];
    ACC_T total = workgroupTileSum(line, slot - line * p.chunksPerLine);
    if (t == 0u) {
      uint kept = sReducedCount[0];
      sReducedSlot[kept] = slot;
      sReducedValue[kept] = total;
      sReducedCount[0] = kept + 1u;
      sUnchecked = true;
      gReducedUnchecked = true;
    }
    barrier();
  }
}

// The carry into the tile, X_0, from the carry into the line's root, on
// every invocation. Call from uniform control flow with the tile's V
// (published) on the looking invocation (place 0) and measureTree() done on
// every invocation. `waited`: a repeat of the look-back, whose silent values
// have had their polls already, so it computes them from its first round.
ACC_T workgroupTileCarry(uint line, uint tile, ACC_T tileValue, ACC_T root, bool waited) {
  uint t = placeInWorkgroup();
  uint slots = 16u * lookedLevels();
  for (uint s = t; s < slots; s += kWorkgroupSize) sSlotState[s] = kSlotSilent;
  if (t < gLevels) sNearestHeard[t] = false;
  beginLookback();  // on every invocation: each reads (readSlot())
  if (t == 0u) {
    gPublishLevel = 0u;
    gCompletes = true;
    gCompletedValue = tileValue;
    sFoundLevels = 0u;
  }
  barrier();
  uint allLevels = (1u << lookedLevels()) - 1u;
  for (uint round = waited ? kPolls : 0u;; ++round) {
    for (uint s = t; s < slots; s += kWorkgroupSize) readSlot(line, tile, s);
    barrier();
    if (t == 0u) {
      bool computeSilent = round >= kPolls;
      gListSilentTiles = computeSilent;
      sListedCount = 0u;
      findLevels(line, tile, computeSilent);
    }
    barrier();
    reduceListedTiles(line);
    if (sFoundLevels == allLevels) break;
  }
  precise ACC_T carry = root;
  for (uint d = gLevels; d > 0u; --d) carry = combine(carry, sLevelBefore[d - 1u]);
  return carry;
}

// The value of the line's root, on the looking invocation of the line's last
// tile after workgroupTileCarry(): up the line's last nodes, each node's V is
// I of its last child (the serial sum of its children).
ACC_T lineTotal(ACC_T tileValue) {
  precise ACC_T value = tileValue;
  for (uint d = 0u; d < gLevels; ++d) value = combine(sLevelBefore[d], value);
  return value;
}
