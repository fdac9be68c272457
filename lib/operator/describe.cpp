// Operator::describe(): a plan in words, one line per dispatch.
#include <string>

#include "operator/operator_impl.hpp"

namespace vkscan::detail {
namespace {

const char* roleName(BufferRole role) {
  switch (role) {
    case BufferRole::Input:
      return "input";
    case BufferRole::Output:
      return "output";
    case BufferRole::Scratch:
      return "scratch";
    case BufferRole::Indices:
      return "indices";
    case BufferRole::CarryIn:
      return "carryIn";
    case BufferRole::Totals:
      return "totals";
    case BufferRole::None:
      break;
  }
  return "none";
}

}  // namespace

std::string describeDispatch(const Dispatch& dispatch) {
  const PipelineKey& key = dispatch.pipeline;
  std::string text = std::string(stageName(key.stage)) + " " + dataTypeName(key.type) +
                     ": workgroups " + std::to_string(dispatch.groupsX) + "x" +
                     std::to_string(dispatch.groupsY) + " of " + std::to_string(key.workgroupSize) +
                     ", " + std::to_string(dispatch.params.lineCount) + " lines of " +
                     std::to_string(dispatch.params.axisLen) + ", reads " + roleName(dispatch.in) +
                     ", writes " + roleName(dispatch.out);
  if (dispatch.hasAux) text += ", carries in scratch";
  if (key.lineCarryIn) text += ", carry-in at each line's root";
  if (key.lineTotals) text += ", writes each line's total";
  if (dispatch.clearBytes != 0) text += ", clears " + std::to_string(dispatch.clearBytes) + " B";
  if (key.storageBuffers) text += ", storage buffers";
  if ((dispatch.params.flags & VKSCAN_FLAG_EXCLUSIVE) != 0u) text += ", exclusive";
  if (key.reverse) text += ", reverse";
  return text;
}

}  // namespace vkscan::detail
