// Helpers of the rows kernels: lines whose axis is contiguous (or short),
// scanned a node of 16 elements per invocation and a workgroup of 16 or 256
// invocations per tile (16^2 or 16^3 elements: a whole subtree of the
// canonical order). Short lines share a workgroup as power-of-two segments of
// invocations; long lines span several tiles, chained through aux carries.
//
// Workgroup levels use shared memory and serial loops on one invocation per
// 16 nodes rather than subgroup arithmetic, whose internal order is the
// vendor's: that keeps float bits independent of the device's subgroup size.

shared ACC_T sNode[256];
shared ACC_T sGroup[16];

const uint kWorkgroupSize = gl_WorkGroupSize.x;
const bool kTwoLevels = gl_WorkGroupSize.x == 256;

struct RowTask {
  uint line;
  uint chunk;
  bool valid;
  OFFSET_T k0;  // traversal index of the node's first element
  OFFSET_T inLine;
  OFFSET_T outLine;
};

RowTask rowTask() {
  RowTask task;
  uint t = gl_LocalInvocationID.x;
  uint wg = flatWorkgroupIndex();
  uint segmentLog2 = p.shape;
  uint linesPerGroup = kWorkgroupSize >> segmentLog2;
  task.chunk = wg % p.chunksPerLine;
  task.line = (wg / p.chunksPerLine) * linesPerGroup + (t >> segmentLog2);
  task.valid = task.line < p.lineCount;
  uint slot = t & ((1u << segmentLog2) - 1u);
  task.k0 = OFFSET_T(task.chunk) * OFFSET_T(kWorkgroupSize * NODE) + OFFSET_T(slot * NODE);
  task.inLine = 0;
  task.outLine = 0;
  if (task.valid) lineOffsets(task.line, task.inLine, task.outLine);
  return task;
}

bool nodeIsFull(RowTask task) { return task.valid && task.k0 + NODE <= OFFSET_T(p.axisLen); }

// Vector accesses need the host's promise (kVectorLoads) and a full node;
// partial nodes pay for checks.
void loadNode(RowTask task, out ACC_T v[NODE]) {
  if (kVectorLoads && nodeIsFull(task)) {
    loadContiguousNode(task.inLine, task.k0, v);
    return;
  }
  [[unroll]] for (int j = 0; j < NODE; ++j) {
    OFFSET_T k = task.k0 + j;
    bool inside = task.valid && k < OFFSET_T(p.axisLen);
    v[j] = inside ? loadIn(task.inLine + k * toOffset(p.inAxisStride)) : kIdentity;
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

// Serial sum of the node: its level-1 value.
ACC_T nodeTotal(ACC_T v[NODE]) {
  precise ACC_T s = kIdentity;
  [[unroll]] for (int j = 0; j < NODE; ++j) s = ADD(s, v[j]);
  return s;
}

// Serial exclusive scan of sNode[16g .. 16g+15] in place, restarting at every
// segment start; returns the group's total (its level-2 value).
ACC_T scanGroupOfNodes(uint g) {
  uint segmentMask = (1u << p.shape) - 1u;
  precise ACC_T s = kIdentity;
  [[unroll]] for (uint j = 16u * g; j < 16u * g + 16u; ++j) {
    if ((j & segmentMask) == 0u) s = kIdentity;
    ACC_T node = sNode[j];
    sNode[j] = s;
    s = ADD(s, node);
  }
  return s;
}

// Serial exclusive scan of sGroup[0..15] in place, restarting at segment
// starts; returns the total (the tile's level-3 value).
ACC_T scanGroups() {
  uint segmentMask = (1u << p.shape) - 1u;
  precise ACC_T s = kIdentity;
  [[unroll]] for (uint g = 0u; g < 16u; ++g) {
    if (((16u * g) & segmentMask) == 0u) s = kIdentity;
    ACC_T group = sGroup[g];
    sGroup[g] = s;
    s = ADD(s, group);
  }
  return s;
}

// Runs the workgroup's levels of the tree on each invocation's node total.
// Afterwards sNode[t] holds L_1 of node t and, with two levels, sGroup[g]
// holds L_2 of group g. Returns the tile total on invocation 0 (meaningful
// when one line spans the whole workgroup).
ACC_T workgroupTree(ACC_T nodeTotalValue) {
  uint t = gl_LocalInvocationID.x;
  sNode[t] = nodeTotalValue;
  barrier();
  ACC_T tileTotal = kIdentity;
  if (t < kWorkgroupSize / 16u) {
    ACC_T groupTotal = scanGroupOfNodes(t);
    if (kTwoLevels) {
      sGroup[t] = groupTotal;
    } else {
      tileTotal = groupTotal;
    }
  }
  barrier();
  if (kTwoLevels) {
    if (t == 0u) tileTotal = scanGroups();
    barrier();
  }
  return tileTotal;
}

// X_1 of this invocation's node: carry into the tile, then the workgroup's
// levels from the top down, as the canonical order nests them.
ACC_T nodeCarry(ACC_T tileCarry) {
  uint t = gl_LocalInvocationID.x;
  precise ACC_T x = tileCarry;
  if (kTwoLevels) x = ADD(x, sGroup[t / 16u]);
  x = ADD(x, sNode[t]);
  return x;
}
