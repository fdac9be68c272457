// The widening copy (kernels/widen.comp) of a scan whose output type is
// wider than its input's: one dispatch per piece, an invocation per element
// up to 2^31 invocations, neighbouring invocations on neighbouring elements
// of a line.
#include <algorithm>
#include <string>

#include "plan/planner.hpp"

namespace vkscan::detail {
namespace {

constexpr uint64_t kMaxInvocations = uint64_t{1} << 31;
constexpr uint32_t kWorkgroupSize = 256;

class WidenPlanner final : public Planner {
 public:
  using Planner::Planner;

  void planPiece(const Problem& p, const Bindings& b) override {
    Dispatch d = makeDispatch(Stage::Widen, p, b.in, b.inOffset, b.out, b.outOffset);
    // makeDispatch() sizes both tensors' elements as the input's.
    d.outByteOffset = b.outOffset + static_cast<uint64_t>(p.outBase) * 2 * dataTypeSize(p.type);
    d.pipeline.operation = VKSCAN_OPERATION_SUM;
    d.pipeline.workgroupSize = std::min(kWorkgroupSize, limits_.maxWorkgroupInvocations);
    uint64_t elements = p.lineCount() * p.axisLen;
    uint64_t rounds = ceilDiv(elements, kMaxInvocations);
    // Loops stop after 65,535 iterations on lavapipe (and such tensors are
    // petabytes).
    if (rounds > 65535) {
      throw InvalidArgument("input.sizes", "widening " + std::to_string(elements) +
                                               " elements in one dispatch needs more than 2^47");
    }
    d.params.chunksPerLine = static_cast<uint32_t>(rounds);
    emit(d, ceilDiv(ceilDiv(elements, rounds), d.pipeline.workgroupSize));
  }
};

}  // namespace

void planWidenPiece(const Problem& piece, const PlanLimits& limits, const Tuning& tuning,
                    Plan& plan) {
  WidenPlanner(limits, tuning, plan).planPiece(piece, Bindings{});
}

}  // namespace vkscan::detail
