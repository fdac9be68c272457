// The operators a Device keeps by descriptor (DeviceOptions::
// operatorCacheCapacity): an equal descriptor gets the same operator, any
// difference a new one, and the Device's end frees what it kept.
#include <doctest/doctest.h>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "descriptors.hpp"
#include "device/device_impl.hpp"
#include "test_device.hpp"

using namespace vkscan;

namespace {

// Operators share their internals exactly when createOperator() returned a
// kept one; desc() is a reference into them.
bool sameOperator(const Operator& a, const Operator& b) {
  return &a.desc() == &b.desc();
}

Device deviceKeeping(size_t capacity) {
  DeviceOptions options = test::testDeviceOptions();
  options.operatorCacheCapacity = capacity;
  return createDevice(options);
}

CumulativeSummationDesc baseDesc() {
  return test::packedDesc(DataType::Int32, {6, 40}, 1, false);
}

}  // namespace

TEST_CASE("operator cache: an equal descriptor gets the kept operator, any difference a new one") {
  Device& device = test::testDevice();
  Operator first = device.createOperator(baseDesc());
  CHECK(sameOperator(device.createOperator(baseDesc()), first));

  // One change to each field of the descriptor.
  std::vector<std::pair<const char*, std::function<void(CumulativeSummationDesc&)>>> changes = {
      {"dataType", [](auto& d) { d.input.dataType = d.output.dataType = DataType::UInt32; }},
      {"sizes",
       [](auto& d) {
         d.input.sizes = d.output.sizes = {6, 41};
       }},
      {"input.strides",
       [](auto& d) {
         d.input.strides = {80, 2};
       }},
      {"output.strides",
       [](auto& d) {
         d.output.strides = {1, 6};
       }},
      {"packed strides given",
       [](auto& d) {
         d.input.strides = d.output.strides = {40, 1};
       }},
      {"axis", [](auto& d) { d.axis = 0; }},
      {"axisDirection", [](auto& d) { d.axisDirection = AxisDirection::Decreasing; }},
      {"hasExclusiveSum", [](auto& d) { d.hasExclusiveSum = true; }},
  };
  for (const auto& [field, change] : changes) {
    CAPTURE(field);
    CumulativeSummationDesc desc = baseDesc();
    change(desc);
    Operator changed = device.createOperator(desc);
    CHECK_FALSE(sameOperator(changed, first));
    CHECK(sameOperator(device.createOperator(desc), changed));
    CHECK(changed.desc().input.strides == desc.input.strides);
    CHECK(changed.desc().output.strides == desc.output.strides);
  }
  CHECK(sameOperator(device.createOperator(baseDesc()), first));

  // The operation is part of the key: each gets an operator of its own.
  for (ScanOperation operation :
       {ScanOperation::Product, ScanOperation::Maximum, ScanOperation::Minimum}) {
    const std::string operationName = scanOperationName(operation);
    CAPTURE(operationName);
    ScanDesc desc = scanDesc(baseDesc());
    desc.operation = operation;
    Operator changed = device.createOperator(desc);
    CHECK_FALSE(sameOperator(changed, first));
    CHECK(changed.desc().operation == operation);
    CHECK(sameOperator(device.createOperator(desc), changed));
  }
  CHECK(device.createOperator(baseDesc()).desc().operation == ScanOperation::Sum);
}

TEST_CASE("operator cache: past its capacity the least recently used goes") {
  Device device = deviceKeeping(2);
  CumulativeSummationDesc a = baseDesc();
  CumulativeSummationDesc b = a;
  b.hasExclusiveSum = true;
  CumulativeSummationDesc c = a;
  c.axisDirection = AxisDirection::Decreasing;
  Operator firstA = device.createOperator(a);
  Operator firstB = device.createOperator(b);
  CHECK(sameOperator(device.createOperator(a), firstA));  // a is now the most recent
  Operator firstC = device.createOperator(c);             // b goes
  CHECK(Device::Access::impl(device).operators->size() == 2);
  CHECK(sameOperator(device.createOperator(a), firstA));
  CHECK(sameOperator(device.createOperator(c), firstC));
  CHECK_FALSE(sameOperator(device.createOperator(b), firstB));
}

TEST_CASE("operator cache: a capacity of 0 plans every call afresh") {
  Device device = deviceKeeping(0);
  Operator first = device.createOperator(baseDesc());
  Operator second = device.createOperator(baseDesc());
  CHECK_FALSE(sameOperator(first, second));
  CHECK(second.dispatchCount() == first.dispatchCount());
  CHECK(Device::Access::impl(device).operators->size() == 0);
}

// vkscan's tests change a device's tuning and limits to reach every kernel
// family; a kept operator planned under others would hide that.
TEST_CASE("operator cache: a change of tuning or limits plans again") {
  Device device = deviceKeeping(8);
  Device::Impl& impl = Device::Access::impl(device);
  CumulativeSummationDesc desc = test::packedDesc(DataType::Float32, {1u << 20}, 0, false);
  Operator first = device.createOperator(desc);
  {
    test::ScopedRestore<detail::Tuning> restore(impl.tuning);
    impl.tuning.chunkLookbackMaxElements = 0;
    impl.tuning.chunkTargetInvocations = 1;
    Operator retuned = device.createOperator(desc);
    CHECK_FALSE(sameOperator(retuned, first));
    CHECK(sameOperator(device.createOperator(desc), retuned));
  }
  {
    test::ScopedRestore<DeviceCapabilities> restore(impl.capabilities);
    impl.capabilities.minStorageBufferOffsetAlignment *= 2;
    CHECK_FALSE(sameOperator(device.createOperator(desc), first));
  }
  // Back to the first tuning and limits: the first operator's bytes again
  // (the replaced entry was dropped, so this plans once more and keeps it).
  Operator again = device.createOperator(desc);
  CHECK(again.dispatchCount() == first.dispatchCount());
  CHECK(sameOperator(device.createOperator(desc), again));
}

// Kept operators hold the Device's internals, which hold the cache: the
// Device's destruction must break that cycle, or neither would ever be freed.
TEST_CASE("operator cache: destroying or replacing a Device frees it once its operators are gone") {
  std::weak_ptr<Device::Impl> destroyed;
  {
    Device device = deviceKeeping(4);
    destroyed = Device::Access::weakImpl(device);
    device.createOperator(baseDesc());
  }
  CHECK(destroyed.expired());

  std::weak_ptr<Device::Impl> held;
  std::unique_ptr<Operator> survivor;
  {
    Device device = deviceKeeping(4);
    held = Device::Access::weakImpl(device);
    survivor = std::make_unique<Operator>(device.createOperator(baseDesc()));
  }
  CHECK_FALSE(held.expired());  // an Operator keeps its device alive
  survivor.reset();
  CHECK(held.expired());

  Device replaced = deviceKeeping(4);
  std::weak_ptr<Device::Impl> old = Device::Access::weakImpl(replaced);
  replaced.createOperator(baseDesc());
  replaced = deviceKeeping(4);
  CHECK(old.expired());
  CHECK(replaced.createOperator(baseDesc()).dispatchCount() > 0);
}
