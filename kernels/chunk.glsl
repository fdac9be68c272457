// Helpers of the chunk kernels: one invocation walks one chunk of a line, a
// whole subtree of the canonical order (16^p.shape elements, shape 1 to 4;
// 5 for a whole line in a plain walk), node by node, keeping one running
// serial sum per level. No shared memory and no barriers: on devices that
// run invocations as CPU threads, that is what makes a scan cost about a
// copy. Loops stay below lavapipe's 65,535-iteration cap: 4096 node
// iterations at most, or 32768 of two nodes each in a level-5 walk.
//
// Two layouts (build-time define):
// - plain: one invocation, one line; with kVectorLoads the axis is
//   contiguous and a node is loaded as NODE_VECS vectors.
// - VKSCAN_INTERLEAVED: one invocation, LANE_N adjacent lines (an inner
//   dimension of stride 1); every access is one vector holding the same
//   element of VEC_N lines, so each component runs its own line's canonical
//   order. The host then counts lines in groups of LANE_N.
//
// Aux is laid out [chunk][line], so that neighbouring invocations touch
// neighbouring totals, except where they walk the chunks of one line
// (VKSCAN_FLAG_LINE_MAJOR_CHUNKS).

#ifdef VKSCAN_INTERLEAVED
// Up to four vectors of lines per invocation (64 bytes per row for 4-byte
// types, 32 for FLOAT16): a strided walk on a CPU device is bound by cache
// misses, and a wider row segment per step keeps more of them in flight.
// kLaneVectors of them hold lines (4, or 1 when the inner extent is not a
// multiple of four vectors); the others stay the identity, a constant the
// compiler folds through every addition, so they cost nothing.
layout(constant_id = VKSCAN_SPEC_LANE_VECTORS) const uint kLaneVectors = 4u;
#define LANE_N (kLaneVectors * VEC_N)
// Rows of a node an interleaved walk reads per loop iteration (1 or 2). The
// rows are a loop, not unrolled: llvmpipe turns each access into a loop over
// lanes and components, and 16 unrolled rows of four vectors are so much
// code per node that, A/B on lavapipe, [16384, 8, 128] along axis 1 ran at
// 7.3-7.6 GB/s against 8.3-8.9 rolled, FLOAT16 columns at 2.4-2.8 against
// 3.2-3.5. Two rows per iteration where a chunk is a level-4 node: 4096
// nodes of 16 iterations would pass lavapipe's 65,535-iteration cap.
layout(constant_id = VKSCAN_SPEC_ROWS_PER_ITERATION) const uint kRowsPerIteration = 1u;
#ifdef EMULATED_INT64
#define VEC_SPLAT(x) uvec4(x, x)
#else
#define VEC_SPLAT(x) ACC_VEC_T(x)
#endif
#if defined(VKSCAN_TYPE_F32) || defined(VKSCAN_TYPE_F16) || defined(VKSCAN_TYPE_F64)
// Float lanes are matrices: their addition is component-wise, and `precise`
// covers it as it covers vectors'. Other operations combine column by
// column (a matrix product is not component-wise).
#if defined(VKSCAN_TYPE_F64)
#define LANE_T dmat4x2
#else
#define LANE_T mat4
#endif
LANE_T laneCombine(LANE_T earlier, LANE_T later) {
  if (kOperation == VKSCAN_OPERATION_SUM) {
    precise LANE_T sum = earlier + later;
    return sum;
  }
  [[unroll]] for (int c = 0; c < 4; ++c) earlier[c] = combine(earlier[c], later[c]);
  return earlier;
}
#define LANE_VEC(lane, c) (lane)[c]
#define LANE_SPLAT(x) LANE_T(VEC_SPLAT(x), VEC_SPLAT(x), VEC_SPLAT(x), VEC_SPLAT(x))
#else
struct IntLane {
  ACC_VEC_T v[4];
};
IntLane laneCombine(IntLane earlier, IntLane later) {
  [[unroll]] for (int c = 0; c < 4; ++c) earlier.v[c] = combine(earlier.v[c], later.v[c]);
  return earlier;
}
#define LANE_T IntLane
#define LANE_VEC(lane, c) (lane).v[c]
#define LANE_SPLAT(x) IntLane(ACC_VEC_T[4](VEC_SPLAT(x), VEC_SPLAT(x), VEC_SPLAT(x), VEC_SPLAT(x)))
#endif
#else
#define LANE_N 1
#define LANE_T ACC_T
ACC_T laneCombine(ACC_T earlier, ACC_T later) { return combine(earlier, later); }
#define LANE_SPLAT(x) ACC_T(x)
#endif

LANE_T laneIdentity() { return LANE_SPLAT(identity()); }

struct ChunkTask {
  bool valid;
  uint line;  // a group of LANE_N lines when interleaved
  uint chunk;
  OFFSET_T kBegin;
  OFFSET_T kEnd;
  OFFSET_T inLine;
  OFFSET_T outLine;
  OFFSET_T auxIndex;  // in accumulators, from the aux base
};

uint invocationIndex() {
  return flatWorkgroupIndex() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
}

ChunkTask chunkTask() {
  ChunkTask task;
  // The host keeps lineCount * chunksPerLine below 2^32.
  uint gid = invocationIndex();
  task.valid = gid < p.lineCount * p.chunksPerLine;
  task.chunk = 0u;
  task.line = gid;
  if (kChunked && p.chunksPerLine > 1u) {
#ifndef VKSCAN_INTERLEAVED
    // Lines contiguous along the axis: neighbouring invocations walk
    // neighbouring chunks of one line, 16 KiB apart, where in the other order
    // they would walk lines a whole line apart (4 MiB in [16, 2^20]). A/B on
    // lavapipe, few long rows [16, 2^20]: 8.0-8.7 GB/s against 8.5-9.3 line
    // by line. Strided lines keep neighbouring lines side by side, which GPUs
    // coalesce.
    if ((p.flags & VKSCAN_FLAG_LINE_MAJOR_CHUNKS) != 0u) {
      task.line = gid / p.chunksPerLine;
      task.chunk = gid - task.line * p.chunksPerLine;
    } else
#endif
    {
      task.chunk = gid / p.lineCount;
      task.line = gid - task.chunk * p.lineCount;
    }
  }
  OFFSET_T chunkLen = OFFSET_T(1) << (4u * p.shape);
  task.kBegin = OFFSET_T(task.chunk) * chunkLen;
  task.kEnd = min(task.kBegin + chunkLen, OFFSET_T(p.axisLen));
  task.auxIndex =
      (OFFSET_T(task.chunk) * OFFSET_T(p.lineCount) + OFFSET_T(task.line)) * OFFSET_T(LANE_N);
  task.inLine = 0;
  task.outLine = 0;
  if (task.valid) lineOffsets(task.line, task.inLine, task.outLine);
  return task;
}

// One lane's element (LANE_N lines' when interleaved), and aux values.
#ifndef VKSCAN_SSBO
#ifdef VKSCAN_INTERLEAVED
layout(buffer_reference, scalar, buffer_reference_align = VKSCAN_ACC_SIZE) buffer AuxVecRef {
  ACC_VEC_T v;
};
#else
layout(buffer_reference, scalar, buffer_reference_align = VKSCAN_ACC_SIZE) buffer AuxAccRef {
  ACC_T v;
};
#endif
#ifdef VKSCAN_TYPE_F32
layout(buffer_reference, scalar, buffer_reference_align = VKSCAN_VEC_ALIGN) buffer LaneRef {
  VEC_STORE_T v[4];
};
layout(buffer_reference, scalar, buffer_reference_align = VKSCAN_VEC_ALIGN) buffer OutLaneRef {
  VEC_OUT_T v[4];
};
#endif

ADDR_T auxAddress(OFFSET_T index) {
  return addressOffset(p.auxAddr, index * OFFSET_T(VKSCAN_ACC_SIZE));
}

#ifdef VKSCAN_INTERLEAVED
ACC_VEC_T loadAuxVec(OFFSET_T index, uint c) {
  return AuxVecRef(auxAddress(index + OFFSET_T(c * VEC_N))).v;
}
void storeAuxVec(OFFSET_T index, uint c, ACC_VEC_T value) {
  AuxVecRef(auxAddress(index + OFFSET_T(c * VEC_N))).v = value;
}
#else
LANE_T loadAuxLane(OFFSET_T index) { return AuxAccRef(auxAddress(index)).v; }
void storeAuxLane(OFFSET_T index, LANE_T value) { AuxAccRef(auxAddress(index)).v = value; }
#endif
#else
uint auxBase(OFFSET_T index) { return uint(int(p.auxAddr.x) + index); }

#ifdef VKSCAN_INTERLEAVED
ACC_VEC_T loadAuxVec(OFFSET_T index, uint c) { return auxVecs[auxBase(index) / VEC_N + c]; }
void storeAuxVec(OFFSET_T index, uint c, ACC_VEC_T value) {
  auxVecs[auxBase(index) / VEC_N + c] = value;
}
#else
LANE_T loadAuxLane(OFFSET_T index) { return auxData[auxBase(index)]; }
void storeAuxLane(OFFSET_T index, LANE_T value) { auxData[auxBase(index)] = value; }
#endif
#endif

#ifdef VKSCAN_INTERLEAVED
LANE_T loadAuxLane(OFFSET_T index) {
  LANE_T lane = laneIdentity();
  [[unroll]] for (uint c = 0u; c < 4u; ++c) {
    if (c < kLaneVectors) LANE_VEC(lane, c) = loadAuxVec(index, c);
  }
  return lane;
}

void storeAuxLane(OFFSET_T index, LANE_T value) {
  [[unroll]] for (uint c = 0u; c < 4u; ++c) {
    if (c < kLaneVectors) storeAuxVec(index, c, LANE_VEC(value, c));
  }
}

// Lanes built from scalar accesses (kScalarLanes, CPU devices): lines
// contiguous in the innermost dimension whose rows are not on vectors (an
// odd inner extent, or rows an odd number of elements apart) still walk four
// vectors' lines per invocation, reading 64 bytes of a row per step (32 for
// FLOAT16) where a line per invocation read one element. The host sets
// kLaneVectors to 4 with it. Measured on lavapipe, [4096, 4095] along axis
// 0: 1.87-1.94 to 3.64-3.78 GB/s.
layout(constant_id = VKSCAN_SPEC_SCALAR_LANES) const bool kScalarLanes = false;
#define SCALAR_ROW_N (4 * VEC_N)

// A row of such a lane, in memory order. Where elements pair (common.glsl),
// as the seven pairs from its first element on a pair's start, and the two
// elements outside them: the first and the last where the row starts on a
// pair's second, the last two where it starts on a pair. llvmpipe pays per
// access, so that is 9 accesses for 16 elements, where each element was
// one. Measured on lavapipe (AMD EPYC, 2 cores), ratio to the copy roof,
// A/B: FLOAT32 [4096, 4095] along axis 0 0.35-0.36 to 0.47-0.50, FLOAT16
// 0.18-0.20 to 0.26-0.28. Every access stays within the row's own elements,
// as scalar ones did, so none touches another invocation's.
void loadScalarRow(OFFSET_T element, out ACC_T v[SCALAR_ROW_N]) {
#ifdef VKSCAN_PAIRS
  bool second = inSecondOfPair(element);
  OFFSET_T first = element + (second ? OFFSET_T(1) : OFFSET_T(0));
  ACC_T w[14];
  [[unroll]] for (int k = 0; k < 7; ++k) {
    uvec2 halves = halvesOfPair(loadInPair(first + 2 * k));
    w[2 * k] = accOfBits(halves.x);
    w[2 * k + 1] = accOfBits(halves.y);
  }
  ACC_T outside = loadIn(element + (second ? 0 : 14));
  v[0] = second ? outside : w[0];
  [[unroll]] for (int j = 1; j < 14; ++j) v[j] = second ? w[j - 1] : w[j];
  v[14] = second ? w[13] : outside;
  v[15] = loadIn(element + 15);
#else
  [[unroll]] for (int j = 0; j < SCALAR_ROW_N; ++j) v[j] = loadIn(element + j);
#endif
}

void storeScalarRow(OFFSET_T element, ACC_T v[SCALAR_ROW_N]) {
#ifdef VKSCAN_PAIR_STORES
  bool second = outSecondOfPair(element);
  OFFSET_T first = element + (second ? OFFSET_T(1) : OFFSET_T(0));
  [[unroll]] for (int k = 0; k < 7; ++k) {
    ACC_T low = second ? v[2 * k + 1] : v[2 * k];
    ACC_T high = second ? v[2 * k + 2] : v[2 * k + 1];
    storeOutPair(first + 2 * k, pairOfHalves(uvec2(bitsOfAcc(low), bitsOfAcc(high))));
  }
  storeOut(element + (second ? 0 : 14), second ? v[0] : v[14]);
  storeOut(element + 15, v[15]);
#else
  [[unroll]] for (int j = 0; j < SCALAR_ROW_N; ++j) storeOut(element + j, v[j]);
#endif
}

// Four vectors of lines are one or two wide units (kWideVectors, where the
// host found every row on 32 bytes). Measured on lavapipe, GB/s: [4096,
// 4096] along axis 0 5.0-5.4 to 5.4-5.9, [16384, 8, 128] along axis 1
// 12.3-12.5 to 14.1-14.4; FLOAT16 and UINT64 columns within noise.
LANE_T loadLane(OFFSET_T element) {
  if (kScalarLanes) {
    ACC_T v[SCALAR_ROW_N];
    loadScalarRow(element, v);
    LANE_T lane = laneIdentity();
    [[unroll]] for (uint c = 0u; c < 4u; ++c) {
      [[unroll]] for (int e = 0; e < VEC_N; ++e) {
        setVecElement(LANE_VEC(lane, c), e, v[int(c * VEC_N) + e]);
      }
    }
    return lane;
  }
#ifdef VKSCAN_WIDE
  if (kWideVectors && kLaneVectors == 4u) {
    LANE_T lane;
    [[unroll]] for (int u = 0; u < 4 / WIDE_VECS; ++u) {
      u64vec4 unit = loadInWide(element + u * WIDE_N);
      [[unroll]] for (int i = 0; i < WIDE_VECS; ++i) {
        LANE_VEC(lane, u * WIDE_VECS + i) = accVecOfWide(unit, i);
      }
    }
    return lane;
  }
#endif
#if defined(VKSCAN_TYPE_F32) && !defined(VKSCAN_SSBO)
  if (kLaneVectors == 4u) {
    LaneRef lane = LaneRef(elementAddress(p.inAddr, element));
    return mat4(vecFromStore(lane.v[0]), vecFromStore(lane.v[1]), vecFromStore(lane.v[2]),
                vecFromStore(lane.v[3]));
  }
#endif
  LANE_T lane = laneIdentity();
  [[unroll]] for (uint c = 0u; c < 4u; ++c) {
    if (c < kLaneVectors) LANE_VEC(lane, c) = loadInVec(element + int(c * VEC_N));
  }
  return lane;
}

void storeLane(OFFSET_T element, LANE_T value) {
  if (kScalarLanes) {
    ACC_T v[SCALAR_ROW_N];
    [[unroll]] for (uint c = 0u; c < 4u; ++c) {
      [[unroll]] for (int e = 0; e < VEC_N; ++e) {
        v[int(c * VEC_N) + e] = vecElement(LANE_VEC(value, c), e);
      }
    }
    storeScalarRow(element, v);
    return;
  }
#ifdef VKSCAN_WIDE_STORES
  if (kWideVectors && kLaneVectors == 4u) {
    [[unroll]] for (int u = 0; u < 4 / WIDE_VECS; ++u) {
      u64vec4 unit;
      [[unroll]] for (int i = 0; i < WIDE_VECS; ++i) {
        setWideAccVec(unit, i, LANE_VEC(value, u * WIDE_VECS + i));
      }
      storeOutWide(element + u * WIDE_N, unit);
    }
    return;
  }
#endif
#if defined(VKSCAN_TYPE_F32) && !defined(VKSCAN_SSBO)
  if (kLaneVectors == 4u) {
    OutLaneRef lane = OutLaneRef(elementAddress(p.outAddr, element));
    [[unroll]] for (int c = 0; c < 4; ++c) lane.v[c] = outFromVec(value[c]);
    return;
  }
#endif
  [[unroll]] for (uint c = 0u; c < 4u; ++c) {
    if (c < kLaneVectors) storeOutVec(element + int(c * VEC_N), LANE_VEC(value, c));
  }
}
#else
LANE_T loadLane(OFFSET_T element) { return loadIn(element); }
void storeLane(OFFSET_T element, LANE_T value) { storeOut(element, value); }
#endif

// The node of 16 elements starting at traversal index k0; identity past kEnd.
// llvmpipe runs both sides of a divergent branch under a mask, so the hot
// loop touches full nodes only, with no bounds checks; the one partial node
// a line may end with is handled after it, and not at all (a uniform branch)
// when the axis length is a multiple of the node.
bool axisHasPartialNodes() { return kPartialNodes && (p.axisLen & uint(NODE - 1)) != 0u; }

// Elements present in a node: all of a full one; a partial node is always
// the last of its line (chunks are whole nodes), so it holds axisLen % 16 —
// the same for every invocation, which keeps the checks below uniform.
uint tailElements(bool full) { return full ? uint(NODE) : (p.axisLen & uint(NODE - 1)); }

#ifndef VKSCAN_INTERLEAVED
// The node of 16 elements starting at traversal index k0. `full`: all 16
// exist (a constant at each call site); otherwise the missing ones read as
// the identity. Interleaved walks stream rows instead
// (streamInterleavedNode()).
void loadChunkNode(ChunkTask task, OFFSET_T k0, bool full, out LANE_T v[NODE]) {
  if (kVectorLoads && full) {
    loadContiguousNode(task.inLine, k0, v);
    return;
  }
  OFFSET_T stride = toOffset(p.inAxisStride);
  OFFSET_T base = task.inLine + k0 * stride;
  uint present = tailElements(full);
  [[unroll]] for (int j = 0; j < NODE; ++j) {
    if (uint(j) < present) {
      v[j] = loadLane(base + j * stride);
    } else {
      v[j] = laneIdentity();
    }
  }
}

void storeChunkNode(ChunkTask task, OFFSET_T k0, bool full, LANE_T v[NODE]) {
  if (kVectorLoads && full) {
    storeContiguousNode(task.outLine, k0, v);
    return;
  }
  OFFSET_T stride = toOffset(p.outAxisStride);
  OFFSET_T base = task.outLine + k0 * stride;
  uint present = tailElements(full);
  [[unroll]] for (int j = 0; j < NODE; ++j) {
    if (uint(j) < present) storeLane(base + j * stride, v[j]);
  }
}
#endif

// Touching ahead (kTouchAhead: interleaved walks whose rows lie far apart,
// on CPU devices). Hardware prefetchers follow short strides only, so such
// a walk waits on each row's cache misses in turn. Reading one word per row
// of the next node, in both tensors (a store to a missing line waits too),
// starts those misses a node early. Touches stay inside the chunk, whose
// rows no other invocation writes.
// Measured on lavapipe, [4096, 4096] along axis 0: 0.35-0.42 of the copy
// roof without, 0.45-0.52 with.
layout(constant_id = VKSCAN_SPEC_TOUCH_AHEAD) const bool kTouchAhead = false;
#ifdef VKSCAN_TEXEL_INPUT
// Texel builds fetch rows through the sampler, and a touch is a storage load,
// a lane at a time on llvmpipe: there the touches cost more than the misses
// they start early. Measured on lavapipe, texel reads, [4096, 4096] along
// axis 0, ratio to the copy roof: 0.29-0.31 with touches, 0.35 without.
const bool kTouches = false;
#else
const bool kTouches = kTouchAhead;
#endif

uint touchNodeAhead(ChunkTask task, OFFSET_T k0, bool withOutput) {
  uint touched = 0u;
  OFFSET_T ahead = k0 + OFFSET_T(NODE);
  if (!kTouches || ahead + NODE > task.kEnd) return touched;
#ifdef VKSCAN_INTERLEAVED
  // A touch brings in a 64-byte cache line, which holds the rows of several
  // groups of lines where a lane is narrower (FLOAT16: 32 bytes): only the
  // first group of each such run touches. Measured on lavapipe, FLOAT16
  // [4096, 4096] along axis 0: 3.5-3.8 to 3.9-4.4 GB/s.
  const uint groupsPerLine = max(64u / uint(LANE_N * VKSCAN_DATA_SIZE), 1u);
  if (task.line % groupsPerLine != 0u) return touched;
#endif
  OFFSET_T inStride = toOffset(p.inAxisStride);
  [[unroll]] for (int j = 0; j < NODE; ++j) {
    touched += touchIn(task.inLine + (ahead + j) * inStride);
  }
  if (withOutput) {
    OFFSET_T outStride = toOffset(p.outAxisStride);
    [[unroll]] for (int j = 0; j < NODE; ++j) {
      touched += touchOut(task.outLine + (ahead + j) * outStride);
    }
  }
  return touched;
}

// Compilers drop reads whose values go unused: this store uses them, under a
// flag the host never sets. Only where there are touches: llvmpipe runs a
// store under a uniform branch as a masked loop over the lanes, taken or not,
// which cost walks of one short node 5-20 % (measured on lavapipe).
void keepTouches(ChunkTask task, uint touched) {
  if (kTouches && (p.flags & VKSCAN_FLAG_NEVER_SET) != 0u) {
    storeOut(task.outLine, ACC_T(touched));
  }
}

// Running sums of the levels above the node: s1 is L_1 of the current node
// (earlier node totals in its level-2 node), s2, s3 and s4 likewise one, two
// and three levels up; after the last node s4 is the chunk total. Folding a
// finished node moves its total up as far as the groups it closes.
struct LevelSums {
  LANE_T s1;
  LANE_T s2;
  LANE_T s3;
  LANE_T s4;
};

LevelSums emptyLevelSums() {
  LevelSums sums;
  sums.s1 = laneIdentity();
  sums.s2 = laneIdentity();
  sums.s3 = laneIdentity();
  sums.s4 = laneIdentity();
  return sums;
}

void foldNode(inout LevelSums sums, uint node, LANE_T nodeTotal, bool lastNode) {
  precise LANE_T s1 = laneCombine(sums.s1, nodeTotal);
  sums.s1 = s1;
  if ((node & 15u) == 15u || lastNode) {
    precise LANE_T s2 = laneCombine(sums.s2, sums.s1);
    sums.s2 = s2;
    sums.s1 = laneIdentity();
    if ((node & 255u) == 255u || lastNode) {
      precise LANE_T s3 = laneCombine(sums.s3, sums.s2);
      sums.s3 = s3;
      sums.s2 = laneIdentity();
      if ((node & 4095u) == 4095u || lastNode) {
        precise LANE_T s4 = laneCombine(sums.s4, sums.s3);
        sums.s4 = s4;
        sums.s3 = laneIdentity();
      }
    }
  }
}

uint fullNodes(ChunkTask task) { return uint((task.kEnd - task.kBegin) / NODE); }

bool hasPartialNode(ChunkTask task) { return ((task.kEnd - task.kBegin) & (NODE - 1)) != 0; }

#ifdef VKSCAN_INTERLEAVED
// One row of a streamed node: its output given the carry x1, and the running
// sum `s` moved past it. `zero`: the exclusive scan's first output of a
// line that reads +0.0 (firstIsPositiveZero()).
LANE_T streamRow(inout LANE_T s, LANE_T v, LANE_T x1, bool exclusive, bool zero) {
  precise LANE_T before = s;
  precise LANE_T after = laneCombine(before, v);
  precise LANE_T outValue = laneCombine(x1, exclusive ? before : after);
  s = after;
  return zero ? LANE_SPLAT(exclusiveFirst()) : outValue;
}

// A lane of LANE_N lines is wide (16 values for FLOAT32: 16 vector
// registers on llvmpipe), so a node held whole, as the plain walk holds it,
// spills; rows stream through one at a time instead, each read and summed
// (and with `scan`, its output written) before the next, in the same order
// of sums. Returns the node's total. Measured on lavapipe, [4096, 4096]
// along axis 0, GB/s: FLOAT32 4.5-4.6 to 4.8, UINT64 5.1-5.2 to 5.4-5.7,
// FLOAT16 2.2-2.3 to 2.1-2.2. The rows of a node are a loop, not unrolled
// (see kRowsPerIteration). `scan` is a constant at each call site, so a
// reduce compiles without the outputs.
LANE_T streamInterleavedNode(ChunkTask task, OFFSET_T k0, bool full, bool scan, LANE_T x1) {
  OFFSET_T inStride = toOffset(p.inAxisStride);
  OFFSET_T outStride = toOffset(p.outAxisStride);
  OFFSET_T inBase = task.inLine + k0 * inStride;
  OFFSET_T outBase = task.outLine + k0 * outStride;
  bool exclusive = exclusiveScan();
  bool zeroFirst = exclusive && k0 == 0 && firstIsPositiveZero();
  precise LANE_T s = laneIdentity();
#ifdef VKSCAN_WIDE
  // Lanes of one vector whose rows lie back to back (the host's promise with
  // units here: axis strides of one vector, negative with kReverse):
  // WIDE_VECS rows per unit, each group read and written by one access,
  // lowest address first. Measured on lavapipe, [64, 65536, 4] along axis 1:
  // 7.8-8.0 to 9.4-10.2 GB/s.
  if (kWideVectors && kLaneVectors == 1u && full) {
    [[dont_unroll]] for (int step = 0; step < NODE; step += WIDE_VECS) {
      int lowest = kReverse ? step + WIDE_VECS - 1 : step;
      u64vec4 unit = loadInWide(inBase + lowest * inStride);
      OFFSET_T outLowest = outBase + lowest * outStride;
      u64vec4 outUnit;
      [[unroll]] for (int r = 0; r < WIDE_VECS; ++r) {
        int slot = kReverse ? WIDE_VECS - 1 - r : r;
        LANE_T v = laneIdentity();
        LANE_VEC(v, 0) = accVecOfWide(unit, slot);
        LANE_T outValue = streamRow(s, v, x1, exclusive, zeroFirst && step + r == 0);
#ifdef VKSCAN_WIDE_STORES
        setWideAccVec(outUnit, slot, LANE_VEC(outValue, 0));
#else
        if (scan) storeOutVec(outLowest + slot * VEC_N, LANE_VEC(outValue, 0));
#endif
      }
#ifdef VKSCAN_WIDE_STORES
      if (scan) storeOutWide(outLowest, outUnit);
#endif
    }
    return s;
  }
#endif
  uint present = tailElements(full);
  // Up to the last row present, not 16: llvmpipe runs a branch not taken
  // under masks, so a partial node cost a full one ([16384, 8, 128] along
  // axis 1, A/B on lavapipe: 9.6 to 12.3 GB/s).
  [[dont_unroll]] for (int step = 0; uint(step) < present; step += int(kRowsPerIteration)) {
    [[unroll]] for (int r = 0; r < 2; ++r) {
      int j = step + r;
      if (uint(r) < kRowsPerIteration && uint(j) < present) {
        LANE_T outValue = streamRow(s, loadLane(inBase + j * inStride), x1, exclusive,
                                   zeroFirst && j == 0);
        if (scan) storeLane(outBase + j * outStride, outValue);
      }
    }
  }
  return s;
}
#endif

void reduceNode(ChunkTask task, inout LevelSums sums, inout uint touched, uint node, bool full,
                bool lastNode) {
  OFFSET_T k0 = task.kBegin + OFFSET_T(node) * NODE;
  touched += touchNodeAhead(task, k0, false);
#ifdef VKSCAN_INTERLEAVED
  LANE_T s = streamInterleavedNode(task, k0, full, false, laneIdentity());
#else
  LANE_T v[NODE];
  loadChunkNode(task, k0, full, v);
  precise LANE_T s = laneIdentity();
  [[unroll]] for (int j = 0; j < NODE; ++j) s = laneCombine(s, v[j]);
#endif
  foldNode(sums, node, s, lastNode);
}


#if defined(VKSCAN_REALIGNED) && defined(VKSCAN_WIDE) && !defined(VKSCAN_INTERLEAVED)
// Realigned walks (the realigned stages' builds, which the host plans on CPU
// devices; kernels without units walk plainly): a contiguous
// axis whose nodes do not start on units, such as rows of odd length, where
// each element would otherwise be its own access. llvmpipe pays per access,
// not per byte, so the walk reads (and, with 32-byte stores, writes) whole
// units at the unit boundaries below its nodes instead, and moves each
// node's elements into place with a shift by the line's phase: log2 levels
// of selects, as a runtime index would put the window in per-lane memory.
// A unit that straddles two nodes is read once and carried to the next
// node; a node's outputs that share a unit with the next node's wait for it.
// The first and the last full node of a chunk take the plain walk, so that
// no unit reaches outside the chunk: no access touches another
// invocation's elements, in place or not.
#define VKSCAN_REALIGN 1
// A node and the unit past it.
#define REALIGN_SPAN (NODE + WIDE_N)

// How far an element lies above the unit boundary below it, in elements.
#ifdef VKSCAN_SSBO
uint inPhase(OFFSET_T element) { return inIndex(element) % uint(WIDE_N); }
uint outPhase(OFFSET_T element) { return outIndex(element) % uint(WIDE_N); }
#else
// Units through addresses need 16 bytes (WideRef).
uint addressPhase(ADDR_T base, OFFSET_T element) {
  return (lowAddressBits(elementAddress(base, element)) & 15u) / uint(VKSCAN_DATA_SIZE);
}
uint inPhase(OFFSET_T element) { return addressPhase(p.inAddr, element); }
uint outPhase(OFFSET_T element) { return addressPhase(p.outAddr, element); }
#endif

void shiftLevel(inout ACC_T w[REALIGN_SPAN], uint shift, int step) {
  bool on = (shift & uint(step)) != 0u;
  // A constant trip count, so that the compiler unrolls the loop (and the
  // cap on loop iterations never sees it).
  [[unroll]] for (int i = 0; i < REALIGN_SPAN - 1; ++i) {
    if (i + step < REALIGN_SPAN) w[i] = on ? w[i + step] : w[i];
  }
}

// w[shift + i] for i < NODE, shift from 0 to WIDE_N.
void takeShifted(ACC_T w[REALIGN_SPAN], uint shift, out ACC_T v[NODE]) {
  shiftLevel(w, shift, 1);
  shiftLevel(w, shift, 2);
  shiftLevel(w, shift, 4);
#if WIDE_N >= 8
  shiftLevel(w, shift, 8);
#endif
#if WIDE_N >= 16
  shiftLevel(w, shift, 16);
#endif
  [[unroll]] for (int i = 0; i < NODE; ++i) v[i] = w[i];
}

void unpackUnit(u64vec4 unit, inout ACC_T w[REALIGN_SPAN], int first) {
  [[unroll]] for (int i = 0; i < WIDE_VECS; ++i) {
    ACC_VEC_T vec = accVecOfWide(unit, i);
    [[unroll]] for (int c = 0; c < VEC_N; ++c) w[first + i * VEC_N + c] = vecElement(vec, c);
  }
}

// A full node's elements, in traversal order, from the units at element
// offsets low + u * WIDE_N (u = 0 to NODE / WIDE_N; low = the node's lowest
// element less `phase`). `carry` is the unit the previous node shares with
// this one (the lowest forwards, the highest backwards), and becomes the
// unit this node shares with the next.
void loadRealignedNode(OFFSET_T low, uint phase, inout u64vec4 carry, out ACC_T v[NODE]) {
  ACC_T w[REALIGN_SPAN];
  u64vec4 next = carry;
  [[unroll]] for (int u = 0; u <= NODE / WIDE_N; ++u) {
    u64vec4 unit;
    if (kReverse ? u == NODE / WIDE_N : u == 0) {
      unit = carry;
    } else {
      unit = loadInWide(low + OFFSET_T(u * WIDE_N));
    }
    if (kReverse ? u == 0 : u == NODE / WIDE_N) next = unit;
    unpackUnit(unit, w, u * WIDE_N);
  }
  carry = next;
  ACC_T inMemory[NODE];
  takeShifted(w, phase, inMemory);
  [[unroll]] for (int j = 0; j < NODE; ++j) v[j] = inMemory[kReverse ? NODE - 1 - j : j];
}

// The unit a realigned walk carries into node 1 (loadRealignedNode()).
u64vec4 firstCarry(ChunkTask task, uint phase) {
  OFFSET_T lowest = nodeLowest(task.inLine, task.kBegin);
  return loadInWide(lowest - OFFSET_T(phase) + (kReverse ? OFFSET_T(0) : OFFSET_T(NODE)));
}

// The chunk's nodes 1 to full - 2 realigned, with full >= 3; the first and
// last full node walk plainly.
void reduceRealigned(ChunkTask task, inout LevelSums sums, uint full) {
  uint touched = 0u;
  reduceNode(task, sums, touched, 0u, true, false);
  uint phase = inPhase(nodeLowest(task.inLine, task.kBegin));
  u64vec4 carry = firstCarry(task, phase);
  for (uint node = 1u; node + 1u < full; ++node) {
    OFFSET_T k0 = task.kBegin + OFFSET_T(node) * NODE;
    ACC_T v[NODE];
    loadRealignedNode(nodeLowest(task.inLine, k0) - OFFSET_T(phase), phase, carry, v);
    precise ACC_T s = laneIdentity();
    [[unroll]] for (int j = 0; j < NODE; ++j) s = combine(s, v[j]);
    foldNode(sums, node, s, false);
  }
}
#endif

// Plain walks take two nodes per loop iteration (reduceChunk(), scanChunk()):
// llvmpipe pays for every iteration (its exec masks and the counter behind
// the iteration cap), and a plain node is little code. A/B on lavapipe,
// GB/s: 1-D 2^24 FLOAT32 8.2-9.0 to 8.6-9.4 (medians 8.5 and 9.2), rows
// [64, 50257] 4.6 to 5.8; four nodes per iteration gained nothing more.
// Interleaved nodes are already a loop over their rows.

// The chunk's total in the canonical order (the value of its node). Full
// nodes in pairs only where `pairs` (a constant at every call, so the
// compiler drops the other walk): the look-back pass's fallback reduction
// rarely runs, and its paired walk made every look-back pipeline slower to
// compile (the look-back test cases, cold: 83.7 s, against 77.8 s without).
LANE_T reduceChunk(ChunkTask task, bool pairs) {
  LevelSums sums = emptyLevelSums();
  uint touched = 0u;
  uint full = fullNodes(task);
  bool partial = hasPartialNode(task);
#ifdef VKSCAN_REALIGN
  if (full >= 3u) {
    reduceRealigned(task, sums, full);
    reduceNode(task, sums, touched, full - 1u, true, !partial);
  } else
#endif
  if (kFullNodes) {
    uint node = 0u;
#ifndef VKSCAN_INTERLEAVED
    if (pairs) {
      for (; node + 1u < full; node += 2u) {
        reduceNode(task, sums, touched, node, true, false);
        reduceNode(task, sums, touched, node + 1u, true, node + 2u == full && !partial);
      }
    }
#endif
    for (; node < full; ++node) {
      reduceNode(task, sums, touched, node, true, node + 1u == full && !partial);
    }
  }
  if (axisHasPartialNodes() && partial) reduceNode(task, sums, touched, full, false, true);
  keepTouches(task, touched);
  return sums.s4;
}

// Carries of a scan walk: X_4, X_3 and X_2 of the current level-4, level-3
// and level-2 nodes, and the chunk's.
struct Walk {
  uint touched;  // for keepTouches()
  LANE_T chunkCarry;
  LANE_T x4;
  LANE_T x3;
  LANE_T x2;
  LevelSums sums;
};

// The carry x1 of a node's elements; moves the walk's level carries on at
// the first node of each level-2, level-3 and level-4 node.
LANE_T nodeCarry(inout Walk walk, uint node) {
  // A chunk is at most a level-5 node, whose carry is the chunk's. In
  // smaller chunks the sums of the levels above the chunk's own stay the
  // identity, so the carries they give are the chunk's, bit for bit.
  // Interleaved chunks end at level 4 (kRowsPerIteration), where X_4 is the
  // chunk's carry; the compiler then drops it.
  if ((node & 255u) == 0u) {
#ifndef VKSCAN_INTERLEAVED
    if ((node & 4095u) == 0u) {
      precise LANE_T x4 = laneCombine(walk.chunkCarry, walk.sums.s4);
      walk.x4 = x4;
    }
#endif
    precise LANE_T x3 = laneCombine(walk.x4, walk.sums.s3);
    walk.x3 = x3;
  }
  if ((node & 15u) == 0u) {
    precise LANE_T x2 = laneCombine(walk.x3, walk.sums.s2);
    walk.x2 = x2;
  }
  precise LANE_T x1 = laneCombine(walk.x2, walk.sums.s1);
  return x1;
}

#ifndef VKSCAN_INTERLEAVED
// The outputs of the node at traversal index k0 with values v and carry x1;
// returns the node's total.
LANE_T scanNodeValues(OFFSET_T k0, LANE_T x1, LANE_T v[NODE], out LANE_T outValues[NODE]) {
  bool exclusive = exclusiveScan();
  precise LANE_T s = laneIdentity();
  [[unroll]] for (int j = 0; j < NODE; ++j) {
    precise LANE_T before = s;
    s = laneCombine(s, v[j]);
    outValues[j] = laneCombine(x1, exclusive ? before : s);
  }
  if (exclusive && k0 == 0 && firstIsPositiveZero()) outValues[0] = LANE_SPLAT(exclusiveFirst());
  return s;
}
#endif

#ifdef VKSCAN_INTERLEAVED
// Tuning::chunkNodeBarriers. The host's promise: whole lines (one chunk a
// line) and full workgroups, so that every invocation of a workgroup walks
// the same nodes and meets each barrier in the same control flow.
layout(constant_id = VKSCAN_SPEC_NODE_BARRIER) const bool kNodeBarrier = false;

void scanNode(ChunkTask task, inout Walk walk, uint node, bool full, bool lastNode) {
  if (kNodeBarrier) barrier();
  LANE_T x1 = nodeCarry(walk, node);
  OFFSET_T k0 = task.kBegin + OFFSET_T(node) * NODE;
  walk.touched += touchNodeAhead(task, k0, true);
  foldNode(walk.sums, node, streamInterleavedNode(task, k0, full, true, x1), lastNode);
}
#else
// scanNode(), handing back the node's outputs too: the realigned walk keeps
// those its first node shares a unit with.
void scanNodeOutputs(ChunkTask task, inout Walk walk, uint node, bool full, bool lastNode,
                     out LANE_T outValues[NODE]) {
  LANE_T x1 = nodeCarry(walk, node);
  OFFSET_T k0 = task.kBegin + OFFSET_T(node) * NODE;
  walk.touched += touchNodeAhead(task, k0, true);
  LANE_T v[NODE];
  loadChunkNode(task, k0, full, v);
  LANE_T s = scanNodeValues(k0, x1, v, outValues);
  storeChunkNode(task, k0, full, outValues);
  foldNode(walk.sums, node, s, lastNode);
}

void scanNode(ChunkTask task, inout Walk walk, uint node, bool full, bool lastNode) {
  LANE_T outValues[NODE];
  scanNodeOutputs(task, walk, node, full, lastNode, outValues);
}
#endif

#ifndef VKSCAN_INTERLEAVED
// Segmented walks (kSegmentLength 1 to 16; 0: off). Contiguous lines of at
// most a node are too short to walk one per invocation: the work around each
// walk costs more than the line. The host then hands over one flat line, the
// lines back to back in traversal order, and each invocation walks whole
// nodes of it that hold whole lines, restarting the running sum at every
// line. A line of at most 16 elements is one node of the canonical order, so
// these are the sums scanChunk() makes, bit for bit (its carry, the
// identity passed down three levels, included). Measured on lavapipe, GB/s
// (A/B): [2^20, 16] 9.4 to 10.1, [2^20, 10] 3.0 to 7.9, [2^22, 3] 1.1 to 10.
layout(constant_id = VKSCAN_SPEC_SEGMENT_LENGTH) const uint kSegmentLength = 0u;

// Nodes an invocation walks: the fewest that hold whole lines (lcm(16, L) /
// 16, as L <= 16), and at least two, which amortise the walk's setup.
uint segmentNodes() {
  uint nodes = kSegmentLength / (kSegmentLength & (0u - kSegmentLength));
  return max(nodes, 2u);
}

void scanSegmentedNode(ChunkTask task, OFFSET_T k0, bool full, LANE_T x1, inout uint position,
                       inout LANE_T running) {
  LANE_T v[NODE];
  loadChunkNode(task, k0, full, v);
  LANE_T outValues[NODE];
  bool exclusive = exclusiveScan();
  bool zeroFirst = exclusive && firstIsPositiveZero();
  [[unroll]] for (int j = 0; j < NODE; ++j) {
    bool first = position == 0u;
    precise LANE_T before = first ? laneIdentity() : running;
    precise LANE_T after = laneCombine(before, v[j]);
    precise LANE_T value = laneCombine(x1, exclusive ? before : after);
    outValues[j] = zeroFirst && first ? exclusiveFirst() : value;
    running = after;
    position = position + 1u == kSegmentLength ? 0u : position + 1u;
  }
  storeChunkNode(task, k0, full, outValues);
}

void scanSegments() {
  // Whether this walk exists is decided in 32-bit unsigned arithmetic: the
  // grid's padding would take an offset past int range on a line near it.
  uint span = segmentNodes() * uint(NODE);
  uint walk = invocationIndex();
  if (walk >= p.axisLen / span + (p.axisLen % span != 0u ? 1u : 0u)) return;
  ChunkTask task;
  task.kBegin = OFFSET_T(walk) * OFFSET_T(span);
  task.kEnd = min(task.kBegin + OFFSET_T(span), OFFSET_T(p.axisLen));
  task.inLine = 0;
  task.outLine = 0;
  precise LANE_T x3 = laneCombine(laneIdentity(), laneIdentity());
  precise LANE_T x2 = laneCombine(x3, laneIdentity());
  precise LANE_T x1 = laneCombine(x2, laneIdentity());
  uint position = 0u;
  LANE_T running = laneIdentity();
  uint full = fullNodes(task);
  if (kFullNodes) {
    for (uint node = 0u; node < full; ++node) {
      scanSegmentedNode(task, task.kBegin + OFFSET_T(node) * NODE, true, x1, position, running);
    }
  }
  if (axisHasPartialNodes() && hasPartialNode(task)) {
    scanSegmentedNode(task, task.kBegin + OFFSET_T(full) * NODE, false, x1, position, running);
  }
}
#endif

#ifdef VKSCAN_REALIGN
#ifdef VKSCAN_WIDE_STORES
u64vec4 packUnit(ACC_T t[NODE], int first) {
  u64vec4 unit;
  [[unroll]] for (int i = 0; i < WIDE_VECS; ++i) {
    ACC_VEC_T vec;
    [[unroll]] for (int c = 0; c < VEC_N; ++c) setVecElement(vec, c, t[first + i * VEC_N + c]);
    setWideAccVec(unit, i, vec);
  }
  return unit;
}

// The WIDE_N outputs next to a node in memory that share a unit with the
// next node (the highest forwards, the lowest backwards), in memory order.
void keepPending(ACC_T outValues[NODE], out ACC_T pending[WIDE_N]) {
  [[unroll]] for (int i = 0; i < WIDE_N; ++i) {
    pending[i] = kReverse ? outValues[NODE - 1 - i] : outValues[NODE - WIDE_N + i];
  }
}

// Writes a full node's outputs (traversal order) as the NODE / WIDE_N units
// from element offset `low` (forwards) or low + WIDE_N (backwards), low =
// the node's lowest element less `phase`. Each unit's outputs of the
// previous node come from `pending`, which then takes this node's.
void storeRealignedNode(OFFSET_T low, uint phase, inout ACC_T pending[WIDE_N],
                        ACC_T outValues[NODE]) {
  ACC_T y[REALIGN_SPAN];
  [[unroll]] for (int j = 0; j < NODE; ++j) {
    y[kReverse ? j : WIDE_N + j] = outValues[kReverse ? NODE - 1 - j : j];
  }
  [[unroll]] for (int i = 0; i < WIDE_N; ++i) y[kReverse ? NODE + i : i] = pending[i];
  keepPending(outValues, pending);
  ACC_T t[NODE];
  takeShifted(y, uint(WIDE_N) - phase, t);
  OFFSET_T first = low + (kReverse ? OFFSET_T(WIDE_N) : OFFSET_T(0));
  [[unroll]] for (int u = 0; u < NODE / WIDE_N; ++u) {
    storeOutWide(first + OFFSET_T(u * WIDE_N), packUnit(t, u * WIDE_N));
  }
}

// Writes the outputs `pending` holds after the last realigned node, element
// by element: those of the unit it shares with the next node (a plain one).
// Positions of that unit past the realigned nodes write the nearest output
// of theirs again, with its own value, so that no element outside them is
// touched and no lane needs a branch.
void flushPending(OFFSET_T lastLowest, uint phase, ACC_T pending[WIDE_N]) {
  // `pending` where the shift below moves it onto its unit, its end values
  // repeated on either side.
  ACC_T y[REALIGN_SPAN];
  int first = kReverse ? WIDE_N : 0;
  [[unroll]] for (int i = 0; i < REALIGN_SPAN; ++i) y[i] = pending[clamp(i - first, 0, WIDE_N - 1)];
  ACC_T t[NODE];
  takeShifted(y, uint(WIDE_N) - phase, t);
  // Forwards the unit from the next node's lowest element less the phase,
  // backwards from this node's; edge: the realigned output nearest to it.
  OFFSET_T low = kReverse ? lastLowest - OFFSET_T(phase) : lastLowest + NODE - OFFSET_T(phase);
  OFFSET_T edge = kReverse ? lastLowest : lastLowest + OFFSET_T(NODE - 1);
  [[unroll]] for (int i = 0; i < WIDE_N; ++i) {
    OFFSET_T element = kReverse ? max(low + i, edge) : min(low + i, edge);
    storeOut(element, t[i]);
  }
}
#endif

// scanChunk() for chunks of at least three full nodes: nodes 1 to full - 2
// realigned, the first and the last full node plain.
void scanRealigned(ChunkTask task, inout Walk walk, uint full) {
  ACC_T outValues[NODE];
  scanNodeOutputs(task, walk, 0u, true, false, outValues);
  uint phase = inPhase(nodeLowest(task.inLine, task.kBegin));
  u64vec4 carry = firstCarry(task, phase);
#ifdef VKSCAN_WIDE_STORES
  uint outPhaseOfLine = outPhase(nodeLowest(task.outLine, task.kBegin));
  ACC_T pending[WIDE_N];
  keepPending(outValues, pending);
#endif
  for (uint node = 1u; node + 1u < full; ++node) {
    LANE_T x1 = nodeCarry(walk, node);
    OFFSET_T k0 = task.kBegin + OFFSET_T(node) * NODE;
    ACC_T v[NODE];
    loadRealignedNode(nodeLowest(task.inLine, k0) - OFFSET_T(phase), phase, carry, v);
    LANE_T s = scanNodeValues(k0, x1, v, outValues);
#ifdef VKSCAN_WIDE_STORES
    storeRealignedNode(nodeLowest(task.outLine, k0) - OFFSET_T(outPhaseOfLine), outPhaseOfLine,
                       pending, outValues);
#else
    storeChunkNode(task, k0, true, outValues);
#endif
    foldNode(walk.sums, node, s, false);
  }
#ifdef VKSCAN_WIDE_STORES
  OFFSET_T lastK0 = task.kBegin + OFFSET_T(full - 2u) * NODE;
  flushPending(nodeLowest(task.outLine, lastK0), outPhaseOfLine, pending);
#endif
}
#endif

// Scans one chunk, every output offset by `carry` (the canonical carry of
// the chunk's node), and writes the outputs.
void scanChunk(ChunkTask task, LANE_T carry) {
  Walk walk;
  walk.touched = 0u;
  walk.chunkCarry = carry;
  walk.x4 = carry;
  walk.x3 = carry;
  walk.x2 = carry;
  walk.sums = emptyLevelSums();
  uint full = fullNodes(task);
  bool partial = hasPartialNode(task);
#ifdef VKSCAN_REALIGN
  if (full >= 3u) {
    scanRealigned(task, walk, full);
    scanNode(task, walk, full - 1u, true, !partial);
  } else
#endif
  if (kFullNodes) {
    uint node = 0u;
#ifndef VKSCAN_INTERLEAVED
    for (; node + 1u < full; node += 2u) {
      scanNode(task, walk, node, true, false);
      scanNode(task, walk, node + 1u, true, node + 2u == full && !partial);
    }
#endif
    for (; node < full; ++node) {
      scanNode(task, walk, node, true, node + 1u == full && !partial);
    }
  }
  if (axisHasPartialNodes() && partial) scanNode(task, walk, full, false, true);
  keepTouches(task, walk.touched);
}
