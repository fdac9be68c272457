// The records pass (kernels/records.comp) of a maximum or minimum with
// indices: one dispatch per piece of the values' scan, an invocation per
// element as the widening copy's (widen.cpp), reading the input and the
// values and writing the indices, which share the output's element offsets.
#include <algorithm>
#include <string>

#include "plan/planner.hpp"

namespace vkscan::detail {
namespace {

constexpr uint64_t kMaxInvocations = uint64_t{1} << 31;
constexpr uint32_t kWorkgroupSize = 256;
constexpr uint64_t kIndexBytes = 8;

class RecordsPlanner final : public Planner {
 public:
  using Planner::Planner;

  void planPiece(const Problem& p, const Bindings& b) override {
    Dispatch d = makeDispatch(Stage::Records, p, b.in, b.inOffset, BufferRole::Indices, 0);
    uint64_t outBase = static_cast<uint64_t>(p.outBase);
    d.outByteOffset = outBase * kIndexBytes;
    d.hasAux = true;
    d.aux = BufferRole::Output;
    d.auxByteOffset = outBase * dataTypeSize(p.type);
    d.pipeline.operation = VKSCAN_OPERATION_SUM;
    d.pipeline.signedValues = false;
    d.pipeline.exclusive = false;
    // Indices count down the axis where traversal runs up it. The output
    // never overlaps itself, so its stride carries the direction.
    d.pipeline.reverse = p.outAxisStride < 0;
    d.params.flags = 0;
    d.pipeline.workgroupSize = std::min(kWorkgroupSize, limits_.maxWorkgroupInvocations);
    uint64_t elements = p.lineCount() * p.axisLen;
    uint64_t rounds = ceilDiv(elements, kMaxInvocations);
    // Loops stop after 65,535 iterations on lavapipe.
    if (rounds > 65535) {
      throw InvalidArgument("input.sizes", "indices of " + std::to_string(elements) +
                                               " elements in one dispatch need more than 2^47");
    }
    d.params.chunksPerLine = static_cast<uint32_t>(rounds);
    emit(d, ceilDiv(ceilDiv(elements, rounds), d.pipeline.workgroupSize));
  }
};

}  // namespace

void planRecordsPiece(const Problem& piece, const PlanLimits& limits, const Tuning& tuning,
                      Plan& plan) {
  RecordsPlanner(limits, tuning, plan).planPiece(piece, Bindings{});
}

}  // namespace vkscan::detail
