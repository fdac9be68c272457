#include <algorithm>
#include <vkscan/cpu_hints.hpp>

#include "operator/operator_impl.hpp"
#include "problem.hpp"
#include "recording.hpp"

namespace vkscan {
namespace {

void checkBinding(const BufferBinding& binding, uint64_t needed, const char* name) {
  std::string field = std::string("bindings.") + name;
  if (binding.buffer == VK_NULL_HANDLE) throw InvalidArgument(field + ".buffer", "is null");
  if (binding.offset % detail::kBindingAlignment != 0) {
    throw InvalidArgument(field + ".offset", std::to_string(binding.offset) +
                                                 " is not a multiple of " +
                                                 std::to_string(detail::kBindingAlignment));
  }
  if (binding.size == VK_WHOLE_SIZE || binding.size < needed) {
    throw InvalidArgument(field + ".size", std::to_string(binding.size) + " bytes, but " +
                                               std::to_string(needed) + " are needed");
  }
}

bool overlaps(const BufferBinding& a, uint64_t aBytes, const BufferBinding& b, uint64_t bBytes) {
  return a.buffer == b.buffer && a.offset < b.offset + bBytes && b.offset < a.offset + aBytes;
}

VkDeviceAddress addressOf(const Device::Impl& device, const BufferBinding& binding) {
  if (binding.buffer == VK_NULL_HANDLE) return 0;
  auto info =
      detail::vkStruct<VkBufferDeviceAddressInfo>(VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO);
  info.buffer = binding.buffer;
  return device.vk.vkGetBufferDeviceAddress(device.device, &info) + binding.offset;
}

// The int64-free kernels address a tensor with 32-bit offsets.
void checkSpanWithoutInt64(const TensorDesc& tensor, const char* field,
                           const DeviceCapabilities& caps) {
  if (caps.shaderInt64) return;
  uint64_t bytes = tensor.totalBytes();
  if (bytes <= kMaxTensorBytesWithoutInt64) return;
  throw Unsupported(std::string(field) + ": the tensor spans " + std::to_string(bytes) +
                    " bytes; on " + caps.deviceName +
                    ", without shaderInt64 (absent, or not enabled), vkscan "
                    "addresses at most " +
                    std::to_string(kMaxTensorBytesWithoutInt64) + " bytes (2^30) per tensor");
}

}  // namespace

Operator Device::createOperator(const CumulativeSummationDesc& desc) const {
  return createOperator(scanDesc(desc));
}

Operator Device::createOperator(const CumulativeProductDesc& desc) const {
  return createOperator(scanDesc(desc));
}

Operator Device::createOperator(const ScanDesc& desc) const {
  detail::PlanLimits limits = impl_->planLimits();
  if (auto kept = impl_->operators->find(desc, impl_->tuning, limits)) {
    return Operator(std::move(kept));
  }
  detail::Problem problem = detail::normalize(desc);
  const DeviceCapabilities& caps = impl_->capabilities;
  for (const TensorDesc* tensor : {&desc.input, &desc.output}) {
    if (!impl_->supports(tensor->dataType)) {
      throw Unsupported(std::string(tensor == &desc.input ? "input" : "output") +
                        ".dataType: " + dataTypeName(tensor->dataType) + " is not supported by " +
                        caps.deviceName + " (FLOAT64 needs shaderFloat64)");
    }
  }
  checkSpanWithoutInt64(desc.input, "input", caps);
  checkSpanWithoutInt64(desc.output, "output", caps);
  if (!desc.indices.sizes.empty()) checkSpanWithoutInt64(desc.indices, "indices", caps);
  if (!desc.carryIn.sizes.empty()) checkSpanWithoutInt64(desc.carryIn, "carryIn", caps);
  if (!desc.totals.sizes.empty()) checkSpanWithoutInt64(desc.totals, "totals", caps);
  auto op = std::make_shared<Operator::Impl>();
  op->device = impl_;
  op->desc = desc;
  op->plan = detail::makePlan(problem, limits, impl_->tuning);
  const std::vector<detail::Dispatch>& dispatches = op->plan.dispatches;
  op->pipelines = impl_->pipelines->get(dispatches, {});
  bool lookback = std::any_of(dispatches.begin(), dispatches.end(), [](const auto& dispatch) {
    return detail::looksBack(dispatch.pipeline.stage);
  });
  if (lookback) {
    op->inPlacePipelines = impl_->pipelines->get(dispatches, {true, false}, &op->pipelines);
  }
  bool texels = impl_->tuning.texelInput &&
                desc.input.totalBytes() / 16 <= caps.maxTexelBufferElements &&
                std::any_of(dispatches.begin(), dispatches.end(), detail::readsInputTexels);
  if (texels) {
    op->texelPipelines = impl_->pipelines->get(dispatches, {false, true}, &op->pipelines);
    // Kernel variants without texel builds (no Int64) leave
    // every pipeline plain: nothing to choose, and no view to bind.
    if (op->texelPipelines == op->pipelines) op->texelPipelines.clear();
  }
  impl_->operators->insert(op, impl_->tuning, limits);
  return Operator(std::move(op));
}

Operator::Operator(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

const ScanDesc& Operator::desc() const noexcept {
  return impl_->desc;
}

VkDeviceSize Operator::scratchSize() const noexcept {
  return impl_->plan.scratchBytes;
}

uint32_t Operator::dispatchCount() const noexcept {
  return static_cast<uint32_t>(impl_->plan.dispatches.size());
}

namespace {

// carryIn or totals: bound exactly where the descriptor has the tensor (and
// the plan is not empty). Returns its bytes, 0 where it has none.
uint64_t checkLineBinding(const BufferBinding& binding, const TensorDesc& tensor,
                          const char* name) {
  if (tensor.sizes.empty()) {
    if (binding.buffer != VK_NULL_HANDLE) {
      throw InvalidArgument(std::string("bindings.") + name + ".buffer",
                            std::string("is not null, but the descriptor has no ") + name);
    }
    return 0;
  }
  uint64_t bytes = tensor.totalBytes();
  checkBinding(binding, bytes, name);
  return bytes;
}

// A bound tensor's binding and the bytes it spans.
struct Span {
  const BufferBinding* binding;
  uint64_t bytes;
  const char* name;
};

// carryIn and totals overlap no other tensor, except that the carry-in (read
// only) may share memory with an input that is only read (not in place).
void checkLineOverlaps(const Span& line, const Span (&tensors)[5], bool inputReadOnly) {
  if (line.bytes == 0) return;
  for (const Span& other : tensors) {
    if (other.binding == line.binding || other.bytes == 0) continue;
    bool bothRead =
        inputReadOnly && std::string(line.name) == "carryIn" && std::string(other.name) == "input";
    if (!bothRead && overlaps(*line.binding, line.bytes, *other.binding, other.bytes)) {
      throw InvalidArgument(std::string("bindings.") + line.name,
                            std::string("overlaps bindings.") + other.name);
    }
  }
}

void recordOperator(const Operator::Impl& op, VkCommandBuffer commandBuffer,
                    VkBufferView inputTexelView, const Bindings& all) {
  const BufferBinding& input = all.input;
  const BufferBinding& output = all.output;
  const BufferBinding& indices = all.indices;
  const BufferBinding& scratch = all.scratch;
  if (commandBuffer == VK_NULL_HANDLE) throw InvalidArgument("commandBuffer", "is null");
  if (op.plan.dispatches.empty()) return;
  uint64_t inBytes = op.desc.input.totalBytes();
  uint64_t outBytes = op.desc.output.totalBytes();
  checkBinding(input, inBytes, "input");
  checkBinding(output, outBytes, "output");
  bool inPlace = input.buffer == output.buffer && input.offset == output.offset;
  if (inPlace && op.plan.scansOutputInPlace) {
    throw InvalidArgument("bindings.output",
                          "is bound in place to the input, but its type " +
                              std::string(dataTypeName(op.desc.output.dataType)) +
                              " is wider than the input's");
  }
  if (inPlace && !detail::sameLayout(op.desc.input, op.desc.output)) {
    throw InvalidArgument("bindings.output",
                          "is bound in place to the input but output.strides differ from "
                          "input.strides");
  }
  if (!inPlace && overlaps(input, inBytes, output, outBytes)) {
    throw InvalidArgument("bindings.output",
                          "partially overlaps bindings.input (only exact aliasing, in place, is "
                          "allowed)");
  }
  uint64_t indexBytes = op.plan.scansIndicesInPlace ? op.desc.indices.totalBytes() : 0;
  if (indexBytes > 0) {
    checkBinding(indices, indexBytes, "indices");
    if (inPlace) {
      throw InvalidArgument("bindings.output",
                            "is bound in place to the input, but the indices are found from the "
                            "input after the output is written");
    }
    if (overlaps(indices, indexBytes, input, inBytes) ||
        overlaps(indices, indexBytes, output, outBytes)) {
      throw InvalidArgument("bindings.indices", "overlaps the input or output binding");
    }
  } else if (indices.buffer != VK_NULL_HANDLE) {
    throw InvalidArgument("bindings.indices.buffer",
                          "is not null, but the descriptor has no indices");
  }
  uint64_t carryBytes = checkLineBinding(all.carryIn, op.desc.carryIn, "carryIn");
  uint64_t totalsBytes = checkLineBinding(all.totals, op.desc.totals, "totals");
  const Span tensors[5] = {{&input, inBytes, "input"},
                           {&output, outBytes, "output"},
                           {&indices, indexBytes, "indices"},
                           {&all.carryIn, carryBytes, "carryIn"},
                           {&all.totals, totalsBytes, "totals"}};
  checkLineOverlaps(tensors[3], tensors, !inPlace);
  checkLineOverlaps(tensors[4], tensors, !inPlace);
  if (op.plan.scratchBytes > 0) {
    checkBinding(scratch, op.plan.scratchBytes, "scratch");
    if (overlaps(scratch, op.plan.scratchBytes, input, inBytes) ||
        overlaps(scratch, op.plan.scratchBytes, output, outBytes) ||
        (indexBytes > 0 && overlaps(scratch, op.plan.scratchBytes, indices, indexBytes)) ||
        (carryBytes > 0 && overlaps(scratch, op.plan.scratchBytes, all.carryIn, carryBytes)) ||
        (totalsBytes > 0 && overlaps(scratch, op.plan.scratchBytes, all.totals, totalsBytes))) {
      throw InvalidArgument("bindings.scratch",
                            "overlaps the input, output, indices, carryIn or totals binding");
    }
  }
  const Device::Impl& device = *op.device;
  detail::ResolvedBindings bindings;
  bindings.input = {addressOf(device, input), input, inBytes};
  bindings.output = {addressOf(device, output), output, outBytes};
  bindings.scratch = {addressOf(device, scratch), scratch, op.plan.scratchBytes};
  if (indexBytes > 0) bindings.indices = {addressOf(device, indices), indices, indexBytes};
  if (carryBytes > 0) bindings.carryIn = {addressOf(device, all.carryIn), all.carryIn, carryBytes};
  if (totalsBytes > 0) bindings.totals = {addressOf(device, all.totals), all.totals, totalsBytes};
  bindings.storageBufferAlignment =
      std::max<uint64_t>(device.capabilities.minStorageBufferOffsetAlignment, 1);
  const std::vector<VkPipeline>* pipelines = &op.pipelines;
  bool inPlaceLookback = (inPlace || op.plan.scansOutputInPlace || op.plan.scansIndicesInPlace) &&
                         !op.inPlacePipelines.empty();
  if (inPlaceLookback) pipelines = &op.inPlacePipelines;
  // The texel view covers the input from its offset, where the storage
  // binding must start too, as the kernels index both alike. In place, the
  // look-back pass may read a tile that another invocation is overwriting
  // (its fallback), which only its in-place pipeline orders; the other
  // passes read each element before the invocation that reads it writes it.
  if (inputTexelView != VK_NULL_HANDLE && !inPlaceLookback && !op.texelPipelines.empty() &&
      input.offset % bindings.storageBufferAlignment == 0) {
    pipelines = &op.texelPipelines;
    bindings.inputTexelView = inputTexelView;
  }
  detail::recordPlan(device.vk, commandBuffer, device.pipelineLayout, op.plan, *pipelines,
                     bindings);
}

}  // namespace

namespace detail {

void recordAll(const Operator& op, VkCommandBuffer commandBuffer, VkBufferView inputTexelView,
               const Bindings& bindings) {
  recordOperator(Device::Access::impl(op), commandBuffer, inputTexelView, bindings);
}

}  // namespace detail

void Operator::record(VkCommandBuffer commandBuffer, const BufferBinding& input,
                      const BufferBinding& output, const BufferBinding& scratch) const {
  record(commandBuffer, Bindings{input, output, scratch, {}, {}, {}});
}

void Operator::record(VkCommandBuffer commandBuffer, const BufferBinding& input,
                      const BufferBinding& output, const BufferBinding& indices,
                      const BufferBinding& scratch) const {
  record(commandBuffer, Bindings{input, output, scratch, indices, {}, {}});
}

void Operator::record(VkCommandBuffer commandBuffer, const Bindings& bindings) const {
  recordOperator(*impl_, commandBuffer, VK_NULL_HANDLE, bindings);
}

void recordWithInputTexels(const Operator& op, VkCommandBuffer commandBuffer,
                           const BufferBinding& input, VkBufferView inputTexelView,
                           const BufferBinding& output, const BufferBinding& scratch) {
  recordOperator(Device::Access::impl(op), commandBuffer, inputTexelView,
                 Bindings{input, output, scratch, {}, {}, {}});
}

std::string Operator::describe() const {
  const Impl& op = *impl_;
  const detail::Plan& plan = op.plan;
  std::string text = std::to_string(plan.dispatches.size()) + " dispatch" +
                     (plan.dispatches.size() == 1 ? "" : "es") + ", scratch " +
                     std::to_string(plan.scratchBytes) + " bytes\n";
  for (size_t i = 0; i < plan.dispatches.size(); ++i) {
    text += "  " + detail::describeDispatch(plan.dispatches[i]) + "\n";
  }
  return text;
}

}  // namespace vkscan
