// Operators a Device has made, by descriptor: createOperator() for a
// descriptor it has seen returns the same operator without validating,
// planning or looking up pipelines again. Thread-safe.
#pragma once

#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "plan/common.hpp"
#include "tuning/tuning.hpp"

namespace vkscan::detail {

class OperatorCache {
 public:
  // Holds at most `capacity` operators (DeviceOptions::operatorCacheCapacity),
  // the least recently used going first; 0 holds none.
  explicit OperatorCache(size_t capacity);
  OperatorCache(const OperatorCache&) = delete;
  OperatorCache& operator=(const OperatorCache&) = delete;

  // The operator made for a descriptor equal to `desc` under the same
  // tuning and limits (vkscan's tests change a device's tuning to reach
  // every kernel family, and expect the plans to follow), or null.
  std::shared_ptr<const Operator::Impl> find(const ScanDesc& desc, const Tuning& tuning,
                                             const PlanLimits& limits);

  // Keeps `op`, made under `tuning` and `limits`, unless an operator for an
  // equal descriptor is kept already (two threads made it at once).
  void insert(std::shared_ptr<const Operator::Impl> op, const Tuning& tuning,
              const PlanLimits& limits);

  // Drops every operator: each holds its Device::Impl, so a Device's
  // destruction must, or the two would keep each other alive.
  void clear() noexcept;

  size_t size() const;

 private:
  struct Entry {
    std::shared_ptr<const Operator::Impl> op;
    Tuning tuning;
    PlanLimits limits;
  };
  using Entries = std::list<Entry>;
  // Keys point at each entry's own descriptor (Operator::Impl::desc).
  struct DescHash {
    size_t operator()(const ScanDesc* desc) const noexcept;
  };
  struct DescEqual {
    bool operator()(const ScanDesc* a, const ScanDesc* b) const noexcept;
  };

  size_t capacity_;
  mutable std::mutex mutex_;
  Entries entries_;  // most recently used first
  std::unordered_map<const ScanDesc*, Entries::iterator, DescHash, DescEqual> index_;
};

}  // namespace vkscan::detail
