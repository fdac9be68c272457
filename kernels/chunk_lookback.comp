#version 460
#extension GL_GOOGLE_include_directive : require
// Chunk, single pass with decoupled look-back: one invocation scans one tile
// of one line, a level-3 node (4096 elements, a chunk of shape 3), and lines
// hold at most 16 tiles, so a tile's carry is the serial sum of the earlier
// tiles' totals (the root's carry is the identity). Tiles are numbered line
// by line, so that neighbouring invocations (and a device's workers, which
// take blocks of workgroups) mostly depend on each other, not on others.
//
// Each invocation reduces its tile and publishes the total (AGGREGATE; the
// first tile of a line, knowing its carry, at once INCLUSIVE: carry + total),
// looks back from the nearest earlier tile to the first INCLUSIVE one, adds
// the totals after it in order, publishes its own INCLUSIVE value and scans.
// Vulkan does not promise that an earlier workgroup makes progress while a
// later one waits, so waiting is bounded (kPolls): a tile that has still
// published nothing is reduced by the looking invocation itself, the same
// canonical sums, so the same bits. No execution barriers and no shared
// memory; the host still runs one subgroup per workgroup, as llvmpipe turns
// memoryBarrierBuffer() into an execution barrier (lib/plan.cpp).
//
// In place, a tile's outputs overwrite the inputs a looking invocation may
// be reducing. A tile publishes its total before it writes anything, so
// after reducing a tile the looking invocation reads its status again, and
// if the tile has published meanwhile takes the published total instead.
//
// Aux (scratch) for W = lineCount * chunksPerLine tiles: W totals, W
// inclusive values (accumulators), then W status words, which the host
// zeroes (EMPTY) before the dispatch.
#include "common.glsl"
#include "chunk.glsl"

#define TILE_LEVELS 3u

#define STATUS_EMPTY 0u
#define STATUS_AGGREGATE 1u
#define STATUS_INCLUSIVE 2u

// Status reads spent waiting for one earlier tile before reducing it here.
layout(constant_id = 9) const uint kPolls = 256u;

uint tileSlots() { return p.lineCount * p.chunksPerLine; }

#ifdef VKSCAN_SSBO
layout(set = 0, binding = 2, std430) coherent buffer LookbackValues { ACC_T lookbackValues[]; };
layout(set = 0, binding = 2, std430) coherent buffer LookbackWords { uint lookbackWords[]; };

uint valueIndex(uint index) { return uint(int(p.auxAddr.x)) + index; }
uint statusIndex(uint slot) {
  return (uint(int(p.auxAddr.x)) + 2u * tileSlots()) * (VKSCAN_ACC_SIZE / 4u) + slot;
}

ACC_T loadValue(uint index) { return lookbackValues[valueIndex(index)]; }
void storeValue(uint index, ACC_T value) { lookbackValues[valueIndex(index)] = value; }
uint loadStatus(uint slot) { return atomicOr(lookbackWords[statusIndex(slot)], 0u); }
void storeStatus(uint slot, uint status) { atomicExchange(lookbackWords[statusIndex(slot)], status); }
#else
layout(buffer_reference, scalar, buffer_reference_align = VKSCAN_ACC_SIZE) coherent buffer
    CoherentAccRef {
  ACC_T v;
};
layout(buffer_reference, scalar, buffer_reference_align = 4) coherent buffer CoherentWordRef {
  uint v;
};

ADDR_T valueAddress(uint index) {
  return addressOffset(p.auxAddr, OFFSET_T(index) * OFFSET_T(VKSCAN_ACC_SIZE));
}
ADDR_T statusAddress(uint slot) {
  return addressOffset(p.auxAddr, OFFSET_T(2u * tileSlots()) * OFFSET_T(VKSCAN_ACC_SIZE) +
                                      OFFSET_T(slot) * 4);
}

ACC_T loadValue(uint index) { return CoherentAccRef(valueAddress(index)).v; }
void storeValue(uint index, ACC_T value) { CoherentAccRef(valueAddress(index)).v = value; }
uint loadStatus(uint slot) { return atomicOr(CoherentWordRef(statusAddress(slot)).v, 0u); }
void storeStatus(uint slot, uint status) {
  atomicExchange(CoherentWordRef(statusAddress(slot)).v, status);
}
#endif

// Totals at [0, W), inclusive values at [W, 2W). Values are made visible
// before the status that announces them, and read only after it.
uint totalIndex(uint slot) { return slot; }
uint inclusiveIndex(uint slot) { return tileSlots() + slot; }

void publish(uint slot, uint status) {
  memoryBarrierBuffer();
  storeStatus(slot, status);
}

uint readStatus(uint slot) {
  uint status = loadStatus(slot);
  memoryBarrierBuffer();
  return status;
}

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
  if (readStatus(slot) != STATUS_EMPTY) return loadValue(totalIndex(slot));
  ACC_T total = reduceChunk(tileTask(line, tile));
  if (readStatus(slot) != STATUS_EMPTY) total = loadValue(totalIndex(slot));
  return total;
}

void main() {
  uint slot = flatWorkgroupIndex() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  if (slot >= tileSlots()) return;
  uint line = slot / p.chunksPerLine;
  uint tile = slot - line * p.chunksPerLine;
  ChunkTask own = tileTask(line, tile);
  ACC_T total = reduceChunk(own);
  storeValue(totalIndex(slot), total);
  if (tile == 0u) storeValue(inclusiveIndex(slot), total);
  publish(slot, tile == 0u ? STATUS_INCLUSIVE : STATUS_AGGREGATE);

  // Back to the nearest INCLUSIVE tile, waiting a little for silent ones.
  uint first = 0u;  // first tile whose total follows `carry`
  precise ACC_T carry = kIdentity;
  for (uint k = tile; k > 0u;) {
    --k;
    uint earlier = slot - (tile - k);
    uint status = readStatus(earlier);
    for (uint poll = 0u; status == STATUS_EMPTY && poll < kPolls; ++poll) {
      status = readStatus(earlier);
    }
    if (status == STATUS_INCLUSIVE) {
      carry = loadValue(inclusiveIndex(earlier));
      first = k + 1u;
      break;
    }
  }
  for (uint k = first; k < tile; ++k) carry = ADD(carry, earlierTotal(line, k, slot - (tile - k)));

  if (tile > 0u) {
    precise ACC_T inclusive = ADD(carry, total);
    storeValue(inclusiveIndex(slot), inclusive);
    publish(slot, STATUS_INCLUSIVE);
  }
  // In place, the published status must be visible before any output
  // overwrites an input that a looking invocation may reduce.
  memoryBarrierBuffer();
  scanChunk(own, carry);
}
