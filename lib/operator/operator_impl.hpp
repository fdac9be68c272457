#pragma once

#include <memory>
#include <string>
#include <vector>

#include "device/device_impl.hpp"
#include "plan/plan.hpp"

namespace vkscan {

namespace detail {
// One line of Operator::describe() (lib/operator/describe.cpp).
std::string describeDispatch(const Dispatch& dispatch);

// What run() records: every binding, the input's texel view (or null) and
// the indices' (empty without indices) included.
void recordAll(const Operator& op, VkCommandBuffer commandBuffer, VkBufferView inputTexelView,
               const vkscan::Bindings& bindings);
}  // namespace detail

struct VKSCAN_HIDDEN Operator::Impl {
  std::shared_ptr<Device::Impl> device;
  ScanDesc desc;
  detail::Plan plan;
  std::vector<VkPipeline> pipelines;  // one per plan dispatch
  // For an output bound to the input, if the plan has a look-back pass: the
  // same, with its in-place pipeline (PipelineKey::inPlace); else empty.
  std::vector<VkPipeline> inPlacePipelines;
  // Where the device reads inputs faster through texel views
  // (Tuning::texelInput) and the plan reads the input through storage
  // buffers: the same, with the texel variants of those dispatches
  // (PipelineKey::texelInput), for an input recorded with a texel view
  // (cpu_hints.hpp; not in place with a look-back pass); else empty.
  std::vector<VkPipeline> texelPipelines;
};

}  // namespace vkscan
