#version 460
#extension GL_GOOGLE_include_directive : require
// Columns, one pass (GPUs): lines along a strided axis, VEC_N lines (a lane)
// per invocation. A workgroup of W (256, 128 or 64: Tuning::
// columnsWorkgroupSize) scans a tile of W / 16 lanes by 256 elements along
// the axis (a level-2 node of each of its lines): invocation (node n, lane l)
// loads elements 16n .. 16n+15 of its lane. W decides only which lines a
// workgroup takes, so every W gives the same bits; a GPU whose registers
// hold one workgroup of 256 holds several smaller ones, which wait out their
// look-backs apart. Where the innermost line dimension is contiguous and on
// vectors, a lane is VEC_N neighbouring lines in one vector, so the lanes of
// a node read neighbouring vectors at each step along the axis; elsewhere
// (kScalarLanes: an inner extent off the vector, unaligned rows, no
// contiguous line dimension) element c of lane l is the group's line
// (W / 16) c + l, loaded alone, so that the lanes still read neighbouring
// lines where those are contiguous. The level-1 chains (16 nodes of a lane)
// run in shared memory; each line's carry comes from the look-back of
// lookback_tree.glsl, one looking invocation per line, tiles in the order of
// an atomic counter, lane groups fastest (a tile's predecessor along the
// axis started a whole row of tiles earlier).
//
// With line carries, each line's carry-in enters at its root and its last
// tile writes its total (line_carries.glsl).
//
// Lines of one tile (p.chunksPerLine 1) have no look-back: no scratch but
// the line carries' header, tiles in the order of the workgroups, and a lane
// spans only the 1 << p.shape nodes its lines fill, so that a workgroup
// takes W >> p.shape lanes (p.shape 4 on lines of several tiles: W / 16).
//
// In place, as rows_onepass.comp: every tile publishes its lines' values
// before it writes, sums reduced from memory are checked after a memory
// barrier before any value computed from them is published, and memory
// barriers are on every invocation.
#include "common.glsl"
#include "publication.glsl"

#define TILE_ELEMENTS 256u
const uint kWorkgroupSize = gl_WorkGroupSize.x;
// Lines of a tile, each with its looking invocation; shared memory is sized
// by W, so that smaller workgroups take less of it.
#define LOOKERS (kWorkgroupSize / 16u * uint(VEC_N))

// Lanes of lines loaded element by element (PipelineKey::scalarLanes).
layout(constant_id = VKSCAN_SPEC_SCALAR_LANES) const bool kScalarLanes = false;

// Lanes of the workgroup, and their nodes along the axis: W invocations.
uint laneCount() { return kWorkgroupSize >> p.shape; }

// The group's line that element c of lane `lane` holds.
uint laneLine(uint lane, uint c) {
  return kScalarLanes ? c * laneCount() + lane : lane * uint(VEC_N) + c;
}

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

bool oneTile() { return p.chunksPerLine == 1u; }

// Line carries (line_carries.glsl) follow the look-back's words, if any; on
// invocations that ran measureTree().
uint carriesStart() { return oneTile() ? 0u : roundToVector(counterWord() + 1u); }

shared uint sTile;
// Per (node, lane): the node's total, then L_1 of the node.
shared ACC_VEC_T sNodeBefore[kWorkgroupSize];
shared ACC_VEC_T sTileTotal[kWorkgroupSize / 16u];
shared ACC_T sCarry[LOOKERS];

ACC_VEC_T identityVec() { return splatAcc(identity()); }

void main() {
  uint t = gl_LocalInvocationID.x;
  if (t == 0u) {
    measureTree();
    sTile = oneTile() ? flatWorkgroupIndex()
                      : atomicAdd(wordRef(counterWord()).v, 1u) - kUnpublished;
  }
  barrier();
  uint lanes = laneCount();
  uint groupLines = lanes * uint(VEC_N);
  uint groups = (p.lineCount + groupLines - 1u) / groupLines;
  uint slot = sTile;
  // Workgroups beyond the tiles (the grid's padding) have nothing to do.
  if (slot >= groups * p.chunksPerLine) return;
  uint tile = slot / groups;
  uint group = slot - tile * groups;

  uint lane = t & (lanes - 1u);
  uint node = t / lanes;
  uint firstLine = group * groupLines;
  // Where and whether each line of the lane is (a vector lane's lines are
  // all there or none: the host plans whole vectors of lines).
  OFFSET_T inLine[VEC_N];
  OFFSET_T outLine[VEC_N];
  bool lineThere[VEC_N];
  [[unroll]] for (int c = 0; c < VEC_N; ++c) {
    uint line = firstLine + laneLine(lane, uint(c));
    lineThere[c] = line < p.lineCount;
    inLine[c] = 0;
    outLine[c] = 0;
    if (lineThere[c] && (kScalarLanes || c == 0)) lineOffsets(line, inLine[c], outLine[c]);
  }
  bool valid = lineThere[0];
  uint k0 = tile * TILE_ELEMENTS + 16u * node;
  ACC_VEC_T inclusive[NODE];
  precise ACC_VEC_T s = identityVec();
  [[unroll]] for (int j = 0; j < NODE; ++j) {
    uint k = k0 + uint(j);
    OFFSET_T step = OFFSET_T(k) * toOffset(p.inAxisStride);
    ACC_VEC_T v = identityVec();
    if (kScalarLanes) {
      [[unroll]] for (int c = 0; c < VEC_N; ++c) {
        if (lineThere[c] && k < p.axisLen) setVecElement(v, c, loadIn(inLine[c] + step));
      }
    } else if (valid && k < p.axisLen) {
      v = loadInVec(inLine[0] + step);
    }
    s = combine(s, v);
    inclusive[j] = s;
  }
  sNodeBefore[t] = s;
  barrier();
  // The level-1 chain of each lane: its nodes, in order. Where the tile is
  // the line, its totals are the lines'.
  if (t < lanes) {
    precise ACC_VEC_T before = identityVec();
    for (uint n = 0u; n < (1u << p.shape); ++n) {
      ACC_VEC_T total = sNodeBefore[n * lanes + t];
      sNodeBefore[n * lanes + t] = before;
      before = combine(before, total);
    }
    if (!oneTile()) sTileTotal[t] = before;
    if (oneTile() && kLineTotals) {
      [[unroll]] for (int c = 0; c < VEC_N; ++c) {
        uint line = firstLine + laneLine(t, uint(c));
        if (lineThere[c]) storeLineTotal(carriesStart(), line, vecElement(before, c));
      }
    }
  }
  barrier();

  // Lines of several tiles: one looking invocation per line of the tile (t
  // is the group's line) finds its carry. oneTile() is uniform, so the
  // look-back's barriers are too.
  if (!oneTile()) {
    uint lookLane = kScalarLanes ? t % lanes : t / uint(VEC_N);
    int lookElement = int(kScalarLanes ? t / lanes : t % uint(VEC_N));
    uint lookLine = firstLine + t;
    bool looker = t < uint(LOOKERS);
    bool looking = looker && lookLine < p.lineCount;
    gLooker = looker ? t : 0u;
    ACC_T tileValue = identity();
    ACC_T root = identity();
    ACC_T total = identity();
    if (looking) {
      measureTree();
      root = rootCarry(carriesStart(), lookLine);
      tileValue = vecElement(sTileTotal[lookLane], lookElement);
      publish(valueIndex(lookLine, 0u, tile), tileValue);
      if (kInPlace && silentWords(wordsOf(tileValue))) {
        recordCollision(collisionRecord(lineTileSlot(lookLine, tile)), tileValue);
      }
    }
    if (looker) sReducedCount[t] = 0u;
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
    // Every invocation knows the tree where the test's stop may leave it.
    if (kStopLevel != 0u) measureTree();
    if (stopsBelowRoot()) return;
    if (kLineTotals && looking && tile + 1u == p.chunksPerLine) {
      storeLineTotal(carriesStart(), lookLine, total);
    }
    barrier();
  }

  if (!valid) return;
  // Where the tile is the line, the carry is the line's carry-in.
  ACC_VEC_T carry = identityVec();
  [[unroll]] for (int c = 0; c < VEC_N; ++c) {
    uint line = laneLine(lane, uint(c));
    ACC_T lineCarry = identity();
    if (!oneTile()) {
      lineCarry = sCarry[line];
    } else if (lineThere[c]) {
      lineCarry = rootCarry(carriesStart(), firstLine + line);
    }
    setVecElement(carry, c, lineCarry);
  }
  precise ACC_VEC_T x = combine(carry, sNodeBefore[t]);
  bool exclusive = exclusiveScan();
  [[unroll]] for (int j = 0; j < NODE; ++j) {
    uint k = k0 + uint(j);
    if (k >= p.axisLen) break;
    precise ACC_VEC_T partial =
        exclusive ? (j == 0 ? identityVec() : inclusive[j - 1]) : inclusive[j];
    ACC_VEC_T result = combine(x, partial);
    if (exclusive && k == 0u && firstIsPositiveZero()) result = splatAcc(exclusiveFirst());
    OFFSET_T step = OFFSET_T(k) * toOffset(p.outAxisStride);
    if (kScalarLanes) {
      [[unroll]] for (int c = 0; c < VEC_N; ++c) {
        if (lineThere[c]) storeOut(outLine[c] + step, vecElement(result, c));
      }
    } else {
      storeOutVec(outLine[0] + step, result);
    }
  }
}
