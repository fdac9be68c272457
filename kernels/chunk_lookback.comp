#version 460
#extension GL_GOOGLE_include_directive : require
// Chunk, single pass with decoupled look-back: one invocation scans one tile
// of one line, a level-3 node (4096 elements, a chunk of shape 3), and lines
// hold at most 16 tiles, so a tile's carry is the serial sum of the earlier
// tiles' totals (the root's carry is the identity). Invocations take tiles
// line by line, so that neighbouring invocations mostly depend on each
// other, not on others; on a CPU device, whose workers take blocks of
// workgroups, each block's lines last first (lineAndTile()).
//
// Each invocation reduces its tile and publishes the total (the first tile
// of a line, knowing its carry, also its inclusive value: carry + total),
// looks back from the nearest earlier tile to the first one whose inclusive
// value is published, adds the totals after it in order, publishes its own
// inclusive value and scans. Vulkan does not promise that an earlier
// workgroup makes progress while a later one waits, so waiting is bounded
// (kPolls): a tile that has still published nothing is reduced by the
// looking invocation itself, the same canonical sums, so the same bits. No
// execution barriers and no shared memory.
//
// A published value is its own status: the host fills the value words with
// kUnpublished before the dispatch, and each word is written once, by one
// atomic exchange, so a word read atomically is either that pattern or
// final, and no memory barrier has to order values against flags (llvmpipe
// runs memoryBarrierBuffer() as a workgroup execution barrier, which cost
// this pass 10-15 %). A value whose word happens to equal kUnpublished just
// reads as silent: the looking invocation then reduces that tile itself and
// gets the same bits.
//
// In place (kInPlace), a tile's outputs overwrite the inputs a looking
// invocation may be reducing. A tile publishes its total before it writes
// anything, and a memory barrier orders the two; after reducing a silent
// tile the looking invocation passes a barrier and reads the total again,
// and if the tile has published meanwhile takes the published total. Those
// barriers exist only in the in-place pipeline, which runs one subgroup per
// workgroup (lib/plan/cpu.cpp). A total that reads as silent although published
// (a word equal to kUnpublished) would leave the looking invocation with
// the sum of overwritten inputs, so in place such a tile also writes its
// total as a collision record, two words that are never kUnpublished,
// before the same barrier.
//
// Aux (scratch) for W = lineCount * chunksPerLine tiles: W totals, then W
// inclusive values, accumulators of one or two 32-bit words, then W
// collision records of two words (lib/plan/cpu.cpp lookbackScratchBytes()).
#include "common.glsl"
#include "chunk.glsl"

#define TILE_LEVELS 3u

// Re-reads of a silent earlier tile's values before reducing it here.
layout(constant_id = VKSCAN_SPEC_LOOKBACK_POLLS) const uint kPolls = 256u;
// The output is bound to the input (see above).
layout(constant_id = VKSCAN_SPEC_IN_PLACE) const bool kInPlace = false;

#include "publication.glsl"

uint tileSlots() { return p.lineCount * p.chunksPerLine; }

// Totals at [0, W), inclusive values at [W, 2W).
uint totalIndex(uint slot) { return slot; }
uint inclusiveIndex(uint slot) { return tileSlots() + slot; }
// In 32-bit words, after the accumulators.
uint collisionWord(uint slot) { return (2u * tileSlots() * ACC_WORDS) + 2u * slot; }

ChunkTask tileTask(uint line, uint tile) {
  ChunkTask task;
  task.valid = true;
  task.line = line;
  task.chunk = tile;
  task.kBegin = OFFSET_T(tile) << (4u * TILE_LEVELS);
  task.kEnd = min(task.kBegin + (OFFSET_T(1) << (4u * TILE_LEVELS)), OFFSET_T(p.axisLen));
  task.auxIndex = 0;
  lineOffsets(line, task.inLine, task.outLine);
  return task;
}

// The total of an earlier tile: published, or else reduced here.
ACC_T earlierTotal(uint line, uint tile, uint slot) {
  ACC_T total;
  if (readPublished(totalIndex(slot), total)) return total;
  total = reduceChunk(tileTask(line, tile), false);
  if (kInPlace) memoryBarrierBuffer();
  // The inputs may have been overwritten after the tile published: if the
  // reduction saw any of its outputs, the barriers make its published total
  // (or collision record) visible here.
  ACC_T published;
  if (readPublished(totalIndex(slot), published) ||
      (kInPlace && readCollision(collisionWord(slot), published))) {
    total = published;
  }
  return total;
}

// The line and tile of the invocation at `invocation`. A CPU device's
// worker takes a block of consecutive workgroups and runs them in order
// (p.lookbackBlock tiles, from the host's prediction). A line that crosses
// into the next block would have the next worker's first tiles wait on this
// worker's last: so each block walks its lines last first, tiles in order
// within a line, and such a line's head comes first in its block and its
// tail last in the next.
uvec2 lineAndTile(uint invocation) {
  uint tiles = p.chunksPerLine;
  uint block = p.lookbackBlock;
  if (block == 0u) return uvec2(invocation / tiles, invocation % tiles);
  uint begin = invocation - invocation % block;
  uint end = min(begin + block, tileSlots());
  uint position = invocation - begin;
  uint lastLine = (end - 1u) / tiles;
  uint lastBegin = max(lastLine * tiles, begin);
  if (position < end - lastBegin) return uvec2(lastLine, lastBegin - lastLine * tiles + position);
  // Whole lines before the last, then the block's first line from its
  // first tile here.
  uint after = position - (end - lastBegin);
  uint line = lastLine - 1u - after / tiles;
  uint tile = after % tiles;
  if (line == begin / tiles) tile += begin % tiles;
  return uvec2(line, tile);
}

void main() {
  uint invocation = invocationIndex();
  if (invocation >= tileSlots()) return;
  uvec2 lineTile = lineAndTile(invocation);
  uint line = lineTile.x;
  uint tile = lineTile.y;
  uint slot = line * p.chunksPerLine + tile;
  ChunkTask own = tileTask(line, tile);
  ACC_T total = reduceChunk(own, true);
  publish(totalIndex(slot), total);
  if (kInPlace && silentWords(wordsOf(total))) recordCollision(collisionWord(slot), total);
  if (tile == 0u) publish(inclusiveIndex(slot), total);

  // Back to the nearest tile with a published inclusive value, waiting a
  // little for silent ones.
  uint first = 0u;  // first tile whose total follows `carry`
  precise ACC_T carry = identity();
  for (uint k = tile; k > 0u;) {
    --k;
    uint earlier = slot - (tile - k);
    ACC_T value;
    bool inclusive = false;
    bool heard = false;
    for (uint poll = 0u; !heard && poll <= kPolls; ++poll) {
      inclusive = readPublished(inclusiveIndex(earlier), value);
      heard = inclusive || readPublished(totalIndex(earlier), value);
    }
    if (inclusive) {
      carry = value;
      first = k + 1u;
      break;
    }
  }
  for (uint k = first; k < tile; ++k) carry = combine(carry, earlierTotal(line, k, slot - (tile - k)));

  if (tile > 0u) {
    precise ACC_T inclusive = combine(carry, total);
    publish(inclusiveIndex(slot), inclusive);
  }
  // In place, the published total must be visible before any output
  // overwrites an input that a looking invocation may reduce.
  if (kInPlace) memoryBarrierBuffer();
  scanChunk(own, carry);
}
