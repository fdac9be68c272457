// The passes that treat each element alone, around a scan: the widening
// copy (kernels/widen.comp) before a scan whose output type is wider than
// its input's, and the records (kernels/records.comp) after a maximum or
// minimum with indices. One dispatch per piece, an invocation per element
// up to 2^31 invocations (then rounds), neighbouring invocations on
// neighbouring elements of a line.
#include <algorithm>
#include <string>

#include "plan/planner.hpp"

namespace vkscan::detail {
namespace {

constexpr uint64_t kMaxInvocations = uint64_t{1} << 31;
constexpr uint32_t kWorkgroupSize = 256;
constexpr uint64_t kIndexBytes = 8;

class ElementwisePlanner final : public Planner {
 public:
  ElementwisePlanner(const PlanLimits& limits, const Tuning& tuning, Plan& plan, Stage stage)
      : Planner(limits, tuning, plan), stage_(stage) {}

  void planPiece(const Problem& p, const Bindings& b) override {
    uint64_t outBase = static_cast<uint64_t>(p.outBase);
    Dispatch d;
    if (stage_ == Stage::Widen) {
      d = makeDispatch(Stage::Widen, p, b.in, b.inOffset, b.out, b.outOffset);
      // The output's elements are twice the input's.
      d.outByteOffset = b.outOffset + outBase * 2 * dataTypeSize(p.type);
    } else {
      // Records: the indices share the output's element offsets, and the
      // values come in as aux.
      d = makeDispatch(Stage::Records, p, b.in, b.inOffset, BufferRole::Indices, 0);
      d.outByteOffset = outBase * kIndexBytes;
      d.hasAux = true;
      d.aux = BufferRole::Output;
      d.auxByteOffset = outBase * dataTypeSize(p.type);
      // Indices count down the axis where traversal runs up it. The output
      // never overlaps itself, so its stride carries the direction.
      d.pipeline.reverse = p.outAxisStride < 0;
      d.pipeline.signedValues = false;
    }
    d.pipeline.operation = VKSCAN_OPERATION_SUM;
    d.pipeline.exclusive = Exclusivity::Inclusive;
    d.params.flags = 0;
    d.pipeline.workgroupSize = std::min(kWorkgroupSize, limits_.maxWorkgroupInvocations);
    uint64_t elements = p.lineCount() * p.axisLen;
    uint64_t rounds = ceilDiv(elements, kMaxInvocations);
    // Loops stop after 65,535 iterations on lavapipe (and such tensors are
    // petabytes).
    if (rounds > 65535) {
      throw InvalidArgument("input.sizes", std::string(stageName(stage_)) + " of " +
                                               std::to_string(elements) +
                                               " elements in one dispatch needs more than 2^47");
    }
    d.params.chunksPerLine = static_cast<uint32_t>(rounds);
    emit(d, ceilDiv(ceilDiv(elements, rounds), d.pipeline.workgroupSize));
  }

 private:
  Stage stage_;
};

}  // namespace

void planWidenPiece(const Problem& piece, const PlanLimits& limits, const Tuning& tuning,
                    Plan& plan) {
  ElementwisePlanner(limits, tuning, plan, Stage::Widen).planPiece(piece, Bindings{});
}

void planRecordsPiece(const Problem& piece, const PlanLimits& limits, const Tuning& tuning,
                      Plan& plan) {
  ElementwisePlanner(limits, tuning, plan, Stage::Records).planPiece(piece, Bindings{});
}

}  // namespace vkscan::detail
