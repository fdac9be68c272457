// Helpers of the columns kernels: one invocation walks one chunk of one line
// serially, for axes that are strided in memory. Adjacent invocations take
// adjacent lines, so with a contiguous inner dimension their accesses are
// adjacent too. A chunk is one node of the canonical tree at level
// p.shape (16, 256 or 4096 elements), so the walk keeps one running serial
// sum per level and needs no loop longer than 4096 iterations.

struct ColumnTask {
  bool valid;
  uint line;
  uint chunk;
  int64_t kBegin;
  int64_t kEnd;
  int64_t inLine;
  int64_t outLine;
  uint64_t auxIndex;  // aux is laid out [chunk][line] so aux accesses coalesce too
};

ColumnTask columnTask() {
  ColumnTask task;
  uint64_t gid = uint64_t(flatWorkgroupIndex()) * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  task.valid = gid < uint64_t(p.lineCount) * p.chunksPerLine;
  task.chunk = uint(gid / p.lineCount);
  task.line = uint(gid % p.lineCount);
  int64_t chunkLen = int64_t(1) << (4u * p.shape);
  task.kBegin = int64_t(task.chunk) * chunkLen;
  task.kEnd = min(task.kBegin + chunkLen, int64_t(p.axisLen));
  task.auxIndex = uint64_t(task.chunk) * p.lineCount + task.line;
  task.inLine = 0;
  task.outLine = 0;
  if (task.valid) lineOffsets(task.line, task.inLine, task.outLine);
  return task;
}
