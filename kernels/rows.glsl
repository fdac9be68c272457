// Helpers of the rows kernels: lines whose axis is contiguous (or short),
// scanned a node of 16 elements per invocation and a workgroup of 16 or 256
// invocations per tile (16^2 or 16^3 elements: a whole subtree of the
// canonical order). Short lines share a workgroup as power-of-two segments of
// invocations; long lines span several tiles, whose carries the one-pass
// kernel finds by look-back (rows_onepass.comp).
//
// The workgroup's levels of the tree are serial chains of 16 values held by
// 16 neighbouring invocations. They cross lanes with subgroupShuffleUp, one
// step per lane in the canonical order, never with subgroup arithmetic,
// whose internal order is the vendor's; where a subgroup is narrower than 16
// the chain crosses subgroups through shared memory. So float bits do not
// depend on the device's subgroup size, and the one source serves subgroups
// of 4 to 128 invocations.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require

shared ACC_T sGroup[16];
shared ACC_T sChainSeed[16];
shared ACC_T sTileTotal;

const uint kWorkgroupSize = gl_WorkGroupSize.x;
const bool kTwoLevels = gl_WorkGroupSize.x == 256;

// The invocation's place in the workgroup, subgroup by subgroup, so that the
// 16 places of a chain are neighbouring lanes of one subgroup (or of
// consecutive ones) however the device numbers its invocations.
uint placeInWorkgroup() { return gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID; }

// subgroupShuffleUp(value, 1) on 32-bit words: 64-bit integers would need
// an extension of their own.
ACC_T shuffleUpAcc(ACC_T value) {
#if defined(VKSCAN_TYPE_F64)
  return packDouble2x32(subgroupShuffleUp(unpackDouble2x32(value), 1u));
#elif defined(VKSCAN_TYPE_U64) && !defined(EMULATED_INT64)
  return packUint2x32(subgroupShuffleUp(unpackUint2x32(value), 1u));
#else
  return subgroupShuffleUp(value, 1u);
#endif
}

// The serial chain over the 16 places of invocation `place`'s chain (places
// 16c .. 16c+15): returns the fold of `value` over the places before it,
// starting again where `restart`, and its fold including itself in
// `inclusive`. Steps of one lane: lane j adds its value to lane j-1's fold.
// A chain wider than the subgroup runs a subgroup-wide piece per round, each
// seeded with the fold the round before left in shared memory. Call from
// uniform control flow (rounds end at barriers).
ACC_T laneChain(uint place, ACC_T value, bool restart, out ACC_T inclusive) {
  uint width = min(gl_SubgroupSize, 16u);
  uint lane = place & (width - 1u);
  uint piece = (place & 15u) / width;
  uint chain = place / 16u;
  precise ACC_T folded = value;
  ACC_T before = identity();
  ACC_T seed = identity();
  uint rounds = 16u / width;
  for (uint round = 0u; round < rounds; ++round) {
    if (piece == round) {
      if (lane == 0u) {
        before = restart ? identity() : seed;
        folded = combine(before, value);
      }
      for (uint j = 1u; j < width; ++j) {
        ACC_T previous = shuffleUpAcc(folded);
        if (lane == j) {
          before = restart ? identity() : previous;
          folded = combine(before, value);
        }
      }
      if (lane == width - 1u && rounds > 1u) sChainSeed[chain] = folded;
    }
    if (rounds > 1u) {
      barrier();
      seed = sChainSeed[chain];
      barrier();
    }
  }
  inclusive = folded;
  return before;
}

struct RowTask {
  uint line;
  uint chunk;
  bool valid;
  OFFSET_T k0;  // traversal index of the node's first element
  OFFSET_T inLine;
  OFFSET_T outLine;
};

// Invocation t's node of tile `chunk` of the line group `lineGroup` (the
// lines of one workgroup, each 1 << p.shape invocations wide).
RowTask rowTaskAt(uint lineGroup, uint chunk, uint t) {
  RowTask task;
  uint segmentLog2 = p.shape;
  uint linesPerGroup = kWorkgroupSize >> segmentLog2;
  task.chunk = chunk;
  task.line = lineGroup * linesPerGroup + (t >> segmentLog2);
  task.valid = task.line < p.lineCount;
  uint slot = t & ((1u << segmentLog2) - 1u);
  task.k0 = OFFSET_T(task.chunk) * OFFSET_T(kWorkgroupSize * NODE) + OFFSET_T(slot * NODE);
  task.inLine = 0;
  task.outLine = 0;
  if (task.valid) lineOffsets(task.line, task.inLine, task.outLine);
  return task;
}

// This invocation's node, tiles in workgroup order.
RowTask rowTask() {
  uint wg = flatWorkgroupIndex();
  return rowTaskAt(wg / p.chunksPerLine, wg % p.chunksPerLine, placeInWorkgroup());
}

bool nodeIsFull(RowTask task) { return task.valid && task.k0 + NODE <= OFFSET_T(p.axisLen); }

// Vector accesses need the host's promise (kVectorLoads) and a full node;
// partial nodes pay for checks. Any invocation alone (the look-back's
// reductions from memory call these).
void loadNode(RowTask task, out ACC_T v[NODE]) {
  if (kVectorLoads && nodeIsFull(task)) {
    loadContiguousNode(task.inLine, task.k0, v);
    return;
  }
  [[unroll]] for (int j = 0; j < NODE; ++j) {
    OFFSET_T k = task.k0 + j;
    bool inside = task.valid && k < OFFSET_T(p.axisLen);
    v[j] = inside ? loadIn(task.inLine + k * toOffset(p.inAxisStride)) : identity();
  }
}

void storeNode(RowTask task, ACC_T v[NODE]) {
  if (kVectorLoads && nodeIsFull(task)) {
    storeContiguousNode(task.outLine, task.k0, v);
    return;
  }
  [[unroll]] for (int j = 0; j < NODE; ++j) {
    OFFSET_T k = task.k0 + j;
    if (task.valid && k < OFFSET_T(p.axisLen)) {
      storeOut(task.outLine + k * toOffset(p.outAxisStride), v[j]);
    }
  }
}

// Staged nodes (kStagedNodes, where the device's shared memory holds a
// tile): the nodes of a segment (a subgroup, or the workgroup where that is
// narrower) lie back to back in memory, and move between memory and the
// lanes through shared memory, so that each access of the segment covers
// neighbouring vectors (coalesced) while each lane still owns a node; or
// neighbouring elements, where lines are off vectors or end mid-vector.
// Vector a of a segment sits at a ^ ((a >> 3) & 7) of its region, so that
// the lanes reading their nodes' vectors (NODE_VECS apart) hit distinct
// banks of 16 bytes.
layout(constant_id = VKSCAN_SPEC_STAGED_NODES) const bool kStagedNodes = false;
// A test's seam (PipelineKey::stagedSegment): segments of this many
// invocations, not a subgroup's (0), joined by workgroup barriers where
// wider than the subgroup, so that lavapipe's subgroups of 4 to 16 run the
// segments of subgroups of 32 to 128.
layout(constant_id = VKSCAN_SPEC_STAGED_SEGMENT) const uint kStagedSegment = 0u;
shared ACC_VEC_T sStage[kStagedNodes ? gl_WorkGroupSize.x * uint(NODE_VECS) : 1u];

uint stagedSegment() {
  return min(kStagedSegment != 0u ? kStagedSegment : gl_SubgroupSize, kWorkgroupSize);
}
// The segment's writes to sStage before its reads. Call from uniform
// control flow.
void segmentBarrier() {
  if (kStagedSegment > gl_SubgroupSize) {
    memoryBarrierShared();
    barrier();
  } else {
    subgroupMemoryBarrierShared();
    subgroupBarrier();
  }
}
uint stageSlot(uint a) { return a ^ ((a >> 3u) & 7u); }

bool packedLines() { return (p.flags & VKSCAN_FLAG_PACKED_LINES) != 0u; }
bool stagedAlongAxis() { return (p.flags & VKSCAN_FLAG_STAGED_ALONG_AXIS) != 0u; }

// Whether the workgroup's nodes move staged: each segment inside one line or
// over packed lines. The same on every invocation.
bool tileStaged() {
  return kStagedNodes && ((1u << p.shape) >= stagedSegment() || packedLines());
}

// Whether a staged tile moves on vectors: each wholly inside its line or
// wholly past it (a full tile, or lines of whole vectors). Otherwise it moves
// element by element, still neighbouring elements on neighbouring lanes
// (lines off vectors, or a ragged end).
bool tileOnVectors(RowTask task) {
  bool tileFull = OFFSET_T(task.chunk) * OFFSET_T(kWorkgroupSize * NODE) +
                      OFFSET_T(NODE << p.shape) <=
                  OFFSET_T(p.axisLen);
  return kVectorLoads && !stagedAlongAxis() && (tileFull || p.axisLen % uint(VEC_N) == 0u);
}

// Staged accesses of the invocation's segment: its nodes, the invocation's
// lane, its region of sStage, the invocation's node there in memory order,
// log2 of the lanes of each of its lines, its first line, the traversal
// index of its first node in each line, and the element offset of its
// lowest vector from its first line's traversal element 0 (`line`).
struct Segment {
  uint size;
  uint lane;
  uint region;
  uint node;
  uint lineLog2;
  uint firstLine;
  OFFSET_T first;
  OFFSET_T lowest;
};

// A segment wider than its lines holds whole packed lines, 1 << p.shape
// lanes each, in memory order (each line's nodes reversed where kReverse).
Segment segmentOf(RowTask task, OFFSET_T line) {
  Segment s;
  s.size = stagedSegment();
  uint place = placeInWorkgroup();
  s.lane = place & (s.size - 1u);
  s.region = (place - s.lane) * uint(NODE_VECS);
  s.lineLog2 = min(p.shape, uint(findMSB(s.size)));
  uint lineLanes = 1u << s.lineLog2;
  uint slot = s.lane & (lineLanes - 1u);
  s.node = s.lane - slot + (kReverse ? lineLanes - 1u - slot : slot);
  s.firstLine = task.line - (s.lane >> p.shape);
  OFFSET_T start = line;
  if (lineLanes < s.size) start = OFFSET_T(s.firstLine) * OFFSET_T(p.axisLen);
  s.first = task.k0 - OFFSET_T(slot * NODE);
  s.lowest = nodeLowest(start, kReverse ? s.first + OFFSET_T((lineLanes - 1u) * NODE) : s.first);
  return s;
}

// Whether vector a of the segment (in memory order) lies in one of the
// tensor's lines, and its element offset from s.lowest. A line shorter than
// its lanes' nodes leaves the vectors past its end (its first vectors in
// memory where kReverse) to the identity. Shifts and constant divisors: no
// integer division by a runtime value.
bool stagedVector(Segment s, uint a, out OFFSET_T offset) {
  uint lineVecs = uint(NODE_VECS) << s.lineLog2;
  uint line = (a >> s.lineLog2) / uint(NODE_VECS);
  uint r = a - line * lineVecs;
  uint traversal = kReverse ? lineVecs - 1u - r : r;
  offset = OFFSET_T(line) * OFFSET_T(p.axisLen) + OFFSET_T(r * uint(VEC_N));
  return s.firstLine + line < p.lineCount &&
         s.first + OFFSET_T(traversal * uint(VEC_N)) < OFFSET_T(p.axisLen);
}

// The lane's node from its segment's staged vectors.
void stagedVectorsNode(Segment s, out ACC_T v[NODE]) {
  ACC_VEC_T w[NODE_VECS];
  [[unroll]] for (int c = 0; c < NODE_VECS; ++c) {
    w[c] = sStage[s.region + stageSlot(s.node * uint(NODE_VECS) + uint(c))];
  }
  nodeOfVecs(w, v);
}

void loadStagedNode(RowTask task, out ACC_T v[NODE]) {
  Segment s = segmentOf(task, task.inLine);
  [[unroll]] for (int q = 0; q < NODE_VECS; ++q) {
    uint a = uint(q) * s.size + s.lane;
    OFFSET_T offset;
    ACC_VEC_T w = splatAcc(identity());
    if (stagedVector(s, a, offset)) w = loadInVec(s.lowest + offset);
    sStage[s.region + stageSlot(a)] = w;
  }
  segmentBarrier();
  stagedVectorsNode(s, v);
}

// Each lane rewrites the slots its node was read from, which no other lane
// reads until the barrier.
void storeStagedNode(RowTask task, ACC_T v[NODE]) {
  Segment s = segmentOf(task, task.outLine);
  ACC_VEC_T w[NODE_VECS];
  vecsOfNode(v, w);
  [[unroll]] for (int c = 0; c < NODE_VECS; ++c) {
    sStage[s.region + stageSlot(s.node * uint(NODE_VECS) + uint(c))] = w[c];
  }
  segmentBarrier();
  [[unroll]] for (int q = 0; q < NODE_VECS; ++q) {
    uint a = uint(q) * s.size + s.lane;
    OFFSET_T offset;
    if (stagedVector(s, a, offset)) {
      storeOutVec(s.lowest + offset, sStage[s.region + stageSlot(a)]);
    }
  }
}

// Staged elements, where a tile cannot move on vectors: the same regions of
// sStage seen as accumulators, element e of a segment at stagedSlot(e), so
// that lanes reading their nodes (16 apart) hit distinct banks of 4 bytes.
#ifdef EMULATED_INT64
ACC_T stagedElementAt(uint k) {
  uint c = (k & 1u) * 2u;
  return uvec2(sStage[k >> 1u][c], sStage[k >> 1u][c + 1u]);
}
void setStagedElementAt(uint k, ACC_T value) {
  uint c = (k & 1u) * 2u;
  sStage[k >> 1u][c] = value.x;
  sStage[k >> 1u][c + 1u] = value.y;
}
#else
ACC_T stagedElementAt(uint k) { return sStage[k / uint(VEC_N)][k % uint(VEC_N)]; }
void setStagedElementAt(uint k, ACC_T value) { sStage[k / uint(VEC_N)][k % uint(VEC_N)] = value; }
#endif
uint stagedSlot(uint e) { return e ^ ((e >> 5u) & 15u); }

// As stagedVector(), for element e of the segment in memory order.
bool stagedElement(Segment s, uint e, out OFFSET_T offset) {
  uint lineElements = uint(NODE) << s.lineLog2;
  uint line = e >> (s.lineLog2 + 4u);
  uint r = e - line * lineElements;
  uint traversal = kReverse ? lineElements - 1u - r : r;
  offset = OFFSET_T(line) * OFFSET_T(p.axisLen) + OFFSET_T(r);
  return s.firstLine + line < p.lineCount && s.first + OFFSET_T(traversal) < OFFSET_T(p.axisLen);
}

// As stagedElement(), along a strided axis (stagedAlongAxis(): the segment
// inside one line, no kReverse): element e of the segment in traversal
// order, at its element offset from the line's offset `line`, so that
// neighbouring lanes touch neighbouring elements of the axis.
bool alongAxisElement(Segment s, uint e, OFFSET_T line, VKSCAN_STRIDE axisStride,
                      out OFFSET_T offset) {
  OFFSET_T k = s.first + OFFSET_T(e);
  offset = line + k * toOffset(axisStride);
  return s.firstLine < p.lineCount && k < OFFSET_T(p.axisLen);
}

// The lane's node from its segment's staged elements.
void stagedElementsNode(Segment s, out ACC_T v[NODE]) {
  uint region = s.region * uint(VEC_N);
  [[unroll]] for (int c = 0; c < NODE; ++c) {
    v[kReverse ? NODE - 1 - c : c] =
        stagedElementAt(region + stagedSlot(s.node * uint(NODE) + uint(c)));
  }
}

void loadStagedElements(RowTask task, out ACC_T v[NODE]) {
  Segment s = segmentOf(task, task.inLine);
  uint region = s.region * uint(VEC_N);
  [[unroll]] for (int q = 0; q < NODE; ++q) {
    uint e = uint(q) * s.size + s.lane;
    OFFSET_T offset;
    ACC_T x = identity();
    if (stagedAlongAxis()) {
      if (alongAxisElement(s, e, task.inLine, p.inAxisStride, offset)) x = loadIn(offset);
    } else if (stagedElement(s, e, offset)) {
      x = loadIn(s.lowest + offset);
    }
    setStagedElementAt(region + stagedSlot(e), x);
  }
  segmentBarrier();
  stagedElementsNode(s, v);
}

// As storeStagedNode(): each lane rewrites the slots its node was read from.
void storeStagedElements(RowTask task, ACC_T v[NODE]) {
  Segment s = segmentOf(task, task.outLine);
  uint region = s.region * uint(VEC_N);
  [[unroll]] for (int c = 0; c < NODE; ++c) {
    setStagedElementAt(region + stagedSlot(s.node * uint(NODE) + uint(c)),
                       v[kReverse ? NODE - 1 - c : c]);
  }
  segmentBarrier();
  [[unroll]] for (int q = 0; q < NODE; ++q) {
    uint e = uint(q) * s.size + s.lane;
    OFFSET_T offset;
    if (stagedAlongAxis()) {
      if (alongAxisElement(s, e, task.outLine, p.outAxisStride, offset)) {
        storeOut(offset, stagedElementAt(region + stagedSlot(e)));
      }
    } else if (stagedElement(s, e, offset)) {
      storeOut(s.lowest + offset, stagedElementAt(region + stagedSlot(e)));
    }
  }
}

// A staged lane past the lines read its segment's slots, not a node of its own.
void clearNodePastLines(RowTask task, inout ACC_T v[NODE]) {
  if (!task.valid) {
    [[unroll]] for (int j = 0; j < NODE; ++j) v[j] = identity();
  }
}

// The workgroup's nodes, staged where tileStaged(). Call from uniform
// control flow.
void loadTileNode(RowTask task, out ACC_T v[NODE]) {
  if (!tileStaged()) {
    loadNode(task, v);
    return;
  }
  if (tileOnVectors(task)) {
    loadStagedNode(task, v);
  } else {
    loadStagedElements(task, v);
  }
  clearNodePastLines(task, v);
}

// The node loadTileNode() staged, read again from sStage, where it stays
// until storeTileNode() unless the kernel writes sStage meanwhile: a kernel
// need not hold it in registers in between. Staged tiles only.
void restagedTileNode(RowTask task, out ACC_T v[NODE]) {
  Segment s = segmentOf(task, task.inLine);
  if (tileOnVectors(task)) {
    stagedVectorsNode(s, v);
  } else {
    stagedElementsNode(s, v);
  }
  clearNodePastLines(task, v);
}

void storeTileNode(RowTask task, ACC_T v[NODE]) {
  if (!tileStaged()) {
    storeNode(task, v);
  } else if (tileOnVectors(task)) {
    storeStagedNode(task, v);
  } else {
    storeStagedElements(task, v);
  }
}

// Serial sum of the node: its level-1 value.
ACC_T nodeTotal(ACC_T v[NODE]) {
  precise ACC_T s = identity();
  [[unroll]] for (int j = 0; j < NODE; ++j) s = combine(s, v[j]);
  return s;
}

// L_1 of this invocation's node, left by workgroupTree().
ACC_T gNodeBefore;
// Left by workgroupTree(): whether this invocation holds the value of a
// segment's whole line (its root's value, from the segment's chains), the
// value, and a place of the segment (its line is that place's).
bool gHoldsSegmentTotal;
ACC_T gSegmentTotal;
uint gSegmentPlace;

// Runs the workgroup's levels of the tree on each invocation's node total.
// Afterwards gNodeBefore holds L_1 of this invocation's node and, with two
// levels, sGroup[g] holds L_2 of group g. Returns the tile total (meaningful
// when one line spans the whole workgroup) on every invocation.
ACC_T workgroupTree(ACC_T nodeTotalValue) {
  uint t = placeInWorkgroup();
  uint segmentMask = (1u << p.shape) - 1u;
  ACC_T groupTotal;
  gNodeBefore = laneChain(t, nodeTotalValue, (t & segmentMask) == 0u, groupTotal);
  // A segment of at most 16 places ends its level-1 chain on its last place.
  gHoldsSegmentTotal = segmentMask < 16u && (t & segmentMask) == segmentMask;
  gSegmentTotal = groupTotal;
  gSegmentPlace = t;
  bool lastOfGroup = (t & 15u) == 15u;
  if (kTwoLevels) {
    if (lastOfGroup) sGroup[t / 16u] = groupTotal;
    barrier();
    // The 16 group totals, chained on places 0..15 (the rest chain nothing).
    ACC_T group = t < 16u ? sGroup[t] : identity();
    ACC_T tileTotal;
    ACC_T groupBefore = laneChain(t, group, ((16u * t) & segmentMask) == 0u, tileTotal);
    // A wider segment ends its level-2 chain on the place of its last group.
    if (segmentMask >= 16u) {
      gHoldsSegmentTotal = t < 16u && ((16u * t + 16u) & segmentMask) == 0u;
      gSegmentTotal = tileTotal;
      gSegmentPlace = 16u * t;
    }
    barrier();
    if (t < 16u) sGroup[t] = groupBefore;
    if (t == 15u) sTileTotal = tileTotal;
  } else if (lastOfGroup) {
    sTileTotal = groupTotal;
  }
  barrier();
  return sTileTotal;
}

// X_1 of this invocation's node: carry into the tile, then the workgroup's
// levels from the top down, as the canonical order nests them.
ACC_T nodeCarry(ACC_T tileCarry) {
  uint t = placeInWorkgroup();
  precise ACC_T x = tileCarry;
  if (kTwoLevels) x = combine(x, sGroup[t / 16u]);
  x = combine(x, gNodeBefore);
  return x;
}

// Writes the node's outputs (staged where tileStaged(); call from uniform
// control flow): X_1 of the node (from the tile's carry) plus
// the serial sums of its elements v, inclusive or exclusive (computed here,
// so that they need not stay in registers through a look-back).
void storeScannedNode(RowTask task, ACC_T v[NODE], ACC_T tileCarry) {
  precise ACC_T x = nodeCarry(tileCarry);
  bool exclusive = exclusiveScan();
  precise ACC_T s = identity();
  ACC_T outValues[NODE];
  [[unroll]] for (int j = 0; j < NODE; ++j) {
    precise ACC_T partial = s;
    s = combine(s, v[j]);
    outValues[j] = combine(x, exclusive ? partial : s);
  }
  if (exclusive && task.k0 == 0 && firstIsPositiveZero()) outValues[0] = exclusiveFirst();
  storeTileNode(task, outValues);
}
