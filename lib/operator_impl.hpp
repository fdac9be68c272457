#pragma once

#include <memory>
#include <vector>

#include "device_impl.hpp"
#include "plan.hpp"

namespace vkscan {

struct Operator::Impl {
  std::shared_ptr<Device::Impl> device;
  CumulativeSummationDesc desc;
  detail::Plan plan;
  std::vector<VkPipeline> pipelines;  // one per plan dispatch
  // For an output bound to the input: the same, with the look-back's
  // in-place pipelines (PipelineKey::inPlace).
  std::vector<VkPipeline> inPlacePipelines;
};

}  // namespace vkscan
