#version 460
#extension GL_GOOGLE_include_directive : require
// Columns, one pass (GPUs): lines along a strided axis whose innermost line
// dimension is contiguous, VEC_N neighbouring lines (a lane) in each vector.
// A workgroup of 256 scans a tile of 16 lanes by 256 elements along the axis
// (a level-2 node of each of its lines): invocation (node n, lane l) loads
// elements 16n .. 16n+15 of its lane, so the 16 lanes of a node read 16
// neighbouring vectors at each step along the axis. The level-1 chains (16
// nodes of a lane) run in shared memory; each line's carry comes from the
// look-back of lookback_tree.glsl, one looking invocation per line, tiles
// in the order of an atomic counter, lane groups fastest (a tile's
// predecessor along the axis started a whole row of tiles earlier).
//
// With line carries, each line's carry-in enters at its root and its last
// tile writes its total (line_carries.glsl).
//
// In place, as rows_onepass.comp: every tile publishes its lines' values
// before it writes, sums reduced from memory are checked after a memory
// barrier before any value computed from them is published, and memory
// barriers are on every invocation.
#include "common.glsl"
#include "publication.glsl"

#define LANES 16u
#define TILE_ELEMENTS 256u
#define LOOKERS (16 * VEC_N)

// A line's tile from memory, in the canonical order: 16 nodes of 16.
ACC_T tileSumFromMemory(uint line, uint tile) {
  OFFSET_T inLine;
  OFFSET_T outLine;
  lineOffsets(line, inLine, outLine);
  precise ACC_T total = identity();
  for (uint n = 0u; n < 16u; ++n) {
    precise ACC_T node = identity();
    for (uint j = 0u; j < 16u; ++j) {
      uint k = tile * TILE_ELEMENTS + 16u * n + j;
      ACC_T x = identity();
      if (k < p.axisLen) x = loadIn(inLine + OFFSET_T(k) * toOffset(p.inAxisStride));
      node = combine(node, x);
    }
    total = combine(total, node);
  }
  return total;
}

#include "lookback_tree.glsl"
#include "line_carries.glsl"

// Line carries (line_carries.glsl) follow the look-back's words; on
// invocations that ran measureTree().
uint carriesStart() { return roundToVector(counterWord() + 1u); }

shared uint sTile;
// Per (node, lane): the node's total, then L_1 of the node.
shared ACC_VEC_T sNodeBefore[256];
shared ACC_VEC_T sTileTotal[LANES];
shared ACC_T sCarry[LOOKERS];

ACC_VEC_T identityVec() { return splatAcc(identity()); }

void main() {
  uint t = gl_LocalInvocationID.x;
  if (t == 0u) {
    measureTree();
    sTile = atomicAdd(wordRef(counterWord()).v, 1u) - kUnpublished;
  }
  barrier();
  uint lanes = p.lineCount / uint(VEC_N);
  uint groups = (lanes + LANES - 1u) / LANES;
  uint slot = sTile;
  // Workgroups beyond the tiles (the grid's padding) have nothing to do.
  if (slot >= groups * p.chunksPerLine) return;
  uint tile = slot / groups;
  uint group = slot - tile * groups;

  uint lane = t % LANES;
  uint node = t / LANES;
  bool valid = group * LANES + lane < lanes;
  OFFSET_T inLine = 0;
  OFFSET_T outLine = 0;
  if (valid) lineOffsets((group * LANES + lane) * uint(VEC_N), inLine, outLine);
  uint k0 = tile * TILE_ELEMENTS + 16u * node;
  ACC_VEC_T inclusive[NODE];
  precise ACC_VEC_T s = identityVec();
  [[unroll]] for (int j = 0; j < NODE; ++j) {
    uint k = k0 + uint(j);
    ACC_VEC_T v = identityVec();
    if (valid && k < p.axisLen) v = loadInVec(inLine + OFFSET_T(k) * toOffset(p.inAxisStride));
    s = combine(s, v);
    inclusive[j] = s;
  }
  sNodeBefore[t] = s;
  barrier();
  // The level-1 chain of each lane: its 16 nodes, in order.
  if (t < LANES) {
    precise ACC_VEC_T before = identityVec();
    for (uint n = 0u; n < 16u; ++n) {
      ACC_VEC_T total = sNodeBefore[n * LANES + t];
      sNodeBefore[n * LANES + t] = before;
      before = combine(before, total);
    }
    sTileTotal[t] = before;
  }
  barrier();

  // One looking invocation per line of the tile.
  uint lookLane = t / uint(VEC_N);
  int lookElement = int(t % uint(VEC_N));
  uint lookLine = (group * LANES + lookLane) * uint(VEC_N) + uint(lookElement);
  bool looking = t < uint(LOOKERS) && group * LANES + lookLane < lanes;
  gLooker = t < uint(LOOKERS) ? t : 0u;
  ACC_T tileValue = identity();
  ACC_T root = identity();
  ACC_T total = identity();
  if (looking) {
    measureTree();
    root = rootCarry(carriesStart(), lookLine);
    tileValue = vecElement(sTileTotal[lookLane], lookElement);
    publish(valueIndex(lookLine, 0u, tile), tileValue);
    if (kInPlace && silentWords(wordsOf(tileValue))) {
      recordCollision(collisionRecord(lookLine * p.chunksPerLine + tile), tileValue);
    }
  }
  if (t < uint(LOOKERS)) sReducedCount[t] = 0u;
  for (;;) {
    if (kInPlace) {
      if (t == 0u) sUnchecked = false;
      barrier();
    }
    if (looking) sCarry[t] = tileCarry(lookLine, tile, tileValue, root, total);
    if (!kInPlace) break;
    memoryBarrierBuffer();
    barrier();
    if (!sUnchecked) break;
    if (looking) checkReduced();
    barrier();
  }
  if (kLineTotals && looking && tile + 1u == p.chunksPerLine) {
    storeLineTotal(carriesStart(), lookLine, total);
  }
  barrier();

  if (!valid) return;
  ACC_VEC_T carry = identityVec();
  [[unroll]] for (int c = 0; c < VEC_N; ++c) setVecElement(carry, c, sCarry[lane * uint(VEC_N) + uint(c)]);
  precise ACC_VEC_T x = combine(carry, sNodeBefore[t]);
  bool exclusive = exclusiveScan();
  [[unroll]] for (int j = 0; j < NODE; ++j) {
    uint k = k0 + uint(j);
    if (k >= p.axisLen) break;
    precise ACC_VEC_T partial =
        exclusive ? (j == 0 ? identityVec() : inclusive[j - 1]) : inclusive[j];
    ACC_VEC_T result = combine(x, partial);
    if (exclusive && k == 0u && firstIsPositiveZero()) result = splatAcc(exclusiveFirst());
    storeOutVec(outLine + OFFSET_T(k) * toOffset(p.outAxisStride), result);
  }
}
