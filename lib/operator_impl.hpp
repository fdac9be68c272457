#pragma once

#include <memory>
#include <vector>

#include "device_impl.hpp"
#include "plan/plan.hpp"

namespace vkscan {

struct Operator::Impl {
  std::shared_ptr<Device::Impl> device;
  CumulativeSummationDesc desc;
  detail::Plan plan;
  std::vector<VkPipeline> pipelines;  // one per plan dispatch
  // For an output bound to the input, if the plan has a look-back pass: the
  // same, with its in-place pipeline (PipelineKey::inPlace); else empty.
  std::vector<VkPipeline> inPlacePipelines;
  // Where the device reads inputs faster through texel views
  // (Tuning::texelInput) and the plan reads the input through storage
  // buffers: the same, with the texel variants of those dispatches
  // (PipelineKey::texelInput), for an input bound with a texel view (not in
  // place with a look-back pass); else empty.
  std::vector<VkPipeline> texelPipelines;
};

}  // namespace vkscan
