#include "operator/operator_cache.hpp"

#include "operator/operator_impl.hpp"

namespace vkscan::detail {
namespace {

uint64_t mix(uint64_t hash, uint64_t value) {
  return (hash ^ value) * 0x100000001b3u;  // FNV-1a, a value at a time
}

uint64_t mixTensor(uint64_t hash, const TensorDesc& tensor) {
  hash = mix(hash, static_cast<uint64_t>(tensor.dataType));
  hash = mix(hash, tensor.sizes.size());
  for (uint32_t size : tensor.sizes) hash = mix(hash, size);
  hash = mix(hash, tensor.strides.size());
  for (uint32_t stride : tensor.strides) hash = mix(hash, stride);
  return hash;
}

bool sameTensor(const TensorDesc& a, const TensorDesc& b) {
  return a.dataType == b.dataType && a.sizes == b.sizes && a.strides == b.strides;
}

}  // namespace

size_t OperatorCache::DescHash::operator()(const ScanDesc* desc) const noexcept {
  uint64_t hash = 0xcbf29ce484222325u;
  hash = mixTensor(hash, desc->input);
  hash = mixTensor(hash, desc->output);
  hash = mix(hash, desc->axis);
  hash = mix(hash, static_cast<uint64_t>(desc->axisDirection));
  hash = mix(hash, desc->exclusive ? 1u : 0u);
  hash = mix(hash, static_cast<uint64_t>(desc->operation));
  hash = mixTensor(hash, desc->indices);
  hash = mixTensor(hash, desc->carryIn);
  hash = mixTensor(hash, desc->totals);
  return static_cast<size_t>(hash);
}

bool OperatorCache::DescEqual::operator()(const ScanDesc* a, const ScanDesc* b) const noexcept {
  return sameTensor(a->input, b->input) && sameTensor(a->output, b->output) && a->axis == b->axis &&
         a->axisDirection == b->axisDirection && a->exclusive == b->exclusive &&
         a->operation == b->operation && sameTensor(a->indices, b->indices) &&
         sameTensor(a->carryIn, b->carryIn) && sameTensor(a->totals, b->totals);
}

OperatorCache::OperatorCache(size_t capacity) : capacity_(capacity) {}

std::shared_ptr<const Operator::Impl> OperatorCache::find(const ScanDesc& desc,
                                                          const Tuning& tuning,
                                                          const PlanLimits& limits) {
  if (capacity_ == 0) return nullptr;
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = index_.find(&desc);
  if (found == index_.end()) return nullptr;
  Entries::iterator entry = found->second;
  if (entry->tuning != tuning || entry->limits != limits) return nullptr;
  entries_.splice(entries_.begin(), entries_, entry);
  return entry->op;
}

void OperatorCache::insert(std::shared_ptr<const Operator::Impl> op, const Tuning& tuning,
                           const PlanLimits& limits) {
  if (capacity_ == 0) return;
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = index_.find(&op->desc);
  if (found != index_.end()) {
    // Made under other tuning or limits: the new operator replaces it.
    Entries::iterator entry = found->second;
    if (entry->tuning == tuning && entry->limits == limits) return;
    index_.erase(found);
    entries_.erase(entry);
  }
  if (entries_.size() == capacity_) {
    index_.erase(&entries_.back().op->desc);
    entries_.pop_back();
  }
  entries_.push_front({std::move(op), tuning, limits});
  index_.emplace(&entries_.front().op->desc, entries_.begin());
}

void OperatorCache::clear() noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  index_.clear();
  entries_.clear();
}

size_t OperatorCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

}  // namespace vkscan::detail
