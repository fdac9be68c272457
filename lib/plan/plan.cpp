// What every device shares before and after its planner: the problem split
// into pieces the kernels can index, and the bindings chosen for the plan.
#include "plan/plan.hpp"

#include <algorithm>
#include <string>

#include "plan/planner.hpp"

namespace vkscan::detail {
namespace {

constexpr uint64_t kMaxLinesPerDispatch = uint64_t{1} << 31;
constexpr uint64_t kMaxPieces = 4096;
// Room for the dispatches of any one-piece plan, reserved up front: an axis
// of 2^32 - 1 elements takes five (reduce, carries in three, scan).
constexpr size_t kTypicalDispatches = 8;

// Storage-buffer kernels index each binding with 32-bit element offsets and
// are bound from the binding's offset rounded down to
// minStorageBufferOffsetAlignment. Binding offsets are multiples of
// kBindingAlignment, so that lead is at most the alignment less
// kBindingAlignment (none where the alignment divides it, as on lavapipe):
// with it, every tensor (its DML total bytes, whole words) must fit both
// maxStorageBufferRange and 2^31 bytes.
bool fitsStorageBuffers(const Problem& problem, uint64_t scratchBytes, const PlanLimits& limits) {
  if (!limits.pushDescriptor) return false;
  uint64_t range = std::min<uint64_t>(limits.maxStorageBufferRange, uint64_t{1} << 31);
  uint64_t alignment = std::max<uint64_t>(limits.minStorageBufferOffsetAlignment, 1);
  uint64_t lead = alignment > kBindingAlignment ? alignment - kBindingAlignment : 0;
  if (lead > range) return false;
  for (uint64_t bytes : {problem.inputBytes, problem.outputBytes, problem.indicesBytes,
                         problem.carryBytes, problem.totalsBytes, scratchBytes}) {
    if (bytes > range - lead) return false;
  }
  return true;
}

// Pieces made for line dimensions past the third, saturating.
uint64_t pieceCount(const Problem& p) {
  uint64_t count = 1;
  for (size_t i = 3; i < p.lines.size(); ++i) {
    count = p.lines[i].size > kMaxPieces ? kMaxPieces + 1 : count * p.lines[i].size;
    count = std::min(count, kMaxPieces + 1);
  }
  return count;
}

// What the kernels can index in one dispatch: at most three line dimensions
// (the push constants hold three) and at most 2^31 lines.
bool isPiece(const Problem& p) {
  return p.lines.size() <= 3 && p.lineCount() <= kMaxLinesPerDispatch;
}

// Splitting to keep each dispatch under 2^31 lines adds pieces too; every
// piece goes through here, so their number stays bounded whatever made them.
void addPiece(const Problem& piece, std::vector<Problem>& pieces) {
  if (pieces.size() == kMaxPieces) {
    throw InvalidArgument("input.sizes", "the tensor needs more than " +
                                             std::to_string(kMaxPieces) +
                                             " dispatches of at most 2^31 lines each");
  }
  pieces.push_back(piece);
}

// Splits a problem into pieces (isPiece()). Pieces run one after another
// and reuse the same scratch.
void splitIntoPieces(const Problem& p, std::vector<Problem>& pieces) {
  auto peelOutermost = [&](const Problem& whole) {
    LineDim outer = whole.lines.back();
    Problem piece = whole;
    piece.lines.pop_back();
    for (uint64_t i = 0; i < outer.size; ++i) {
      piece.inBase = whole.inBase + static_cast<int64_t>(i) * outer.inStride;
      piece.outBase = whole.outBase + static_cast<int64_t>(i) * outer.outStride;
      piece.carryBase = whole.carryBase + static_cast<int64_t>(i) * outer.carryStride;
      piece.totalsBase = whole.totalsBase + static_cast<int64_t>(i) * outer.totalsStride;
      splitIntoPieces(piece, pieces);
    }
  };
  if (p.lines.size() > 3) {
    peelOutermost(p);
    return;
  }
  if (isPiece(p)) {
    addPiece(p, pieces);
    return;
  }
  uint64_t lines = p.lineCount();
  LineDim outer = p.lines.back();
  uint64_t inner = lines / outer.size;
  if (inner > kMaxLinesPerDispatch) {
    peelOutermost(p);
    return;
  }
  uint64_t range = kMaxLinesPerDispatch / inner;
  for (uint64_t start = 0; start < outer.size; start += range) {
    Problem piece = p;
    piece.lines.back().size = std::min(range, outer.size - start);
    piece.inBase = p.inBase + static_cast<int64_t>(start) * outer.inStride;
    piece.outBase = p.outBase + static_cast<int64_t>(start) * outer.outStride;
    piece.carryBase = p.carryBase + static_cast<int64_t>(start) * outer.carryStride;
    piece.totalsBase = p.totalsBase + static_cast<int64_t>(start) * outer.totalsStride;
    addPiece(piece, pieces);
  }
}

}  // namespace

namespace {

using PiecePlanner = void (*)(const Problem&, const PlanLimits&, const Tuning&, Plan&);

// Plans every piece of `problem` with `planPiece`.
void planPieces(const Problem& problem, const PlanLimits& limits, const Tuning& tuning,
                PiecePlanner planPiece, Plan& plan) {
  if (problem.axisLen > UINT32_MAX) {
    throw InvalidArgument("input.sizes",
                          "axis length " + std::to_string(problem.axisLen) + " exceeds 2^32 - 1");
  }
  uint64_t pieces = pieceCount(problem);
  if (pieces > kMaxPieces) {
    throw InvalidArgument("input.strides",
                          "the layout has more than three dimensions that cannot be merged, whose "
                          "outer extents need " +
                              std::to_string(pieces) + " separate dispatches (limit " +
                              std::to_string(kMaxPieces) + ")");
  }
  if (isPiece(problem)) {
    planPiece(problem, limits, tuning, plan);
  } else {
    std::vector<Problem> split;
    splitIntoPieces(problem, split);
    for (const Problem& piece : split) planPiece(piece, limits, tuning, plan);
  }
}

}  // namespace

Plan makePlan(const Problem& problem, const PlanLimits& limits, const Tuning& tuning) {
  Plan plan;
  if (problem.empty) return plan;
  // Reserving the dispatches spares createOperator() reallocations.
  plan.dispatches.reserve(kTypicalDispatches);
  size_t scanBegin = 0;
  if (problem.widenedFrom) {
    planPieces(*problem.widenedFrom, limits, tuning, planWidenPiece, plan);
    scanBegin = plan.dispatches.size();
    plan.scansOutputInPlace = true;
  }
  PiecePlanner planScan = tuning.deviceClass == DeviceClass::Cpu ? planCpuPiece : planGpuPiece;
  planPieces(problem, limits, tuning, planScan, plan);
  size_t scanEnd = plan.dispatches.size();
  if (problem.indexScan) {
    planPieces(problem, limits, tuning, planRecordsPiece, plan);
    size_t indexScanBegin = plan.dispatches.size();
    planPieces(*problem.indexScan, limits, tuning, planScan, plan);
    for (size_t i = indexScanBegin; i < plan.dispatches.size(); ++i) {
      Dispatch& d = plan.dispatches[i];
      if (d.in == BufferRole::Input || d.in == BufferRole::Output) d.in = BufferRole::Indices;
      if (d.out == BufferRole::Input || d.out == BufferRole::Output) d.out = BufferRole::Indices;
    }
    plan.scansIndicesInPlace = true;
  }
  if (fitsStorageBuffers(problem, plan.scratchBytes, limits)) {
    for (Dispatch& dispatch : plan.dispatches) {
      dispatch.pipeline.storageBuffers = isChunkStage(dispatch.pipeline.stage);
    }
  }
  // After the widening copy the input is in the output.
  for (size_t i = scanBegin; i < scanEnd && plan.scansOutputInPlace; ++i) {
    if (plan.dispatches[i].in == BufferRole::Input) plan.dispatches[i].in = BufferRole::Output;
  }
  return plan;
}

}  // namespace vkscan::detail
