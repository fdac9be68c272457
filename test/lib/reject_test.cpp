// Invalid descriptors and bindings: each is rejected before any Vulkan work
// is recorded, with an InvalidArgument that names the field at fault.
#include <doctest/doctest.h>

#include <string>

#include "device/device_impl.hpp"
#include "host/device_buffer.hpp"
#include "test_device.hpp"

using namespace vkscan;

namespace {

CumulativeSummationDesc valid() {
  CumulativeSummationDesc desc;
  desc.input = {DataType::Float32, {2, 3, 4}, {}};
  desc.output = desc.input;
  desc.axis = 1;
  return desc;
}

// createOperator throws InvalidArgument whose field() is `field` and whose
// message mentions `mentions`.
void expectRejected(const ScanDesc& desc, const std::string& field, const std::string& mentions) {
  CAPTURE(field);
  try {
    test::testDevice().createOperator(desc);
    FAIL("accepted an invalid descriptor");
  } catch (const InvalidArgument& error) {
    CHECK(error.field() == field);
    std::string what = error.what();
    CAPTURE(what);
    CHECK(what.find(mentions) != std::string::npos);
    CHECK(what == error.field() + ": " + error.reason());
  }
}

void expectRejected(const CumulativeSummationDesc& desc, const std::string& field,
                    const std::string& mentions) {
  expectRejected(scanDesc(desc), field, mentions);
}

}  // namespace

TEST_CASE("reject: an operation outside ScanOperation") {
  ScanDesc desc = scanDesc(valid());
  desc.operation = static_cast<ScanOperation>(5);
  expectRejected(desc, "operation", "unknown value 5");
  CHECK(std::string(scanOperationName(desc.operation)) == "UNKNOWN");
  CHECK(std::string(scanOperationName(ScanOperation::Sum)) == "SUM");
  CHECK(std::string(scanOperationName(ScanOperation::Product)) == "PRODUCT");
  CHECK(std::string(scanOperationName(ScanOperation::Maximum)) == "MAXIMUM");
  CHECK(std::string(scanOperationName(ScanOperation::Minimum)) == "MINIMUM");
  CHECK(std::string(scanOperationName(ScanOperation::LogSumExp)) == "LOG_SUM_EXP");
}

TEST_CASE("reject: log-sum-exp of an integer type") {
  for (DataType type : {DataType::Int32, DataType::UInt32, DataType::Int64, DataType::UInt64}) {
    CAPTURE(dataTypeName(type));
    ScanDesc desc = scanDesc(valid());
    desc.operation = ScanOperation::LogSumExp;
    desc.input.dataType = type;
    desc.output.dataType = type;
    expectRejected(desc, "input.dataType",
                   std::string(dataTypeName(type)) + " is not a float type");
  }
}

TEST_CASE("reject: the other operations refuse what sums refuse, naming the same field") {
  for (ScanOperation operation : {ScanOperation::Product, ScanOperation::Maximum,
                                  ScanOperation::Minimum, ScanOperation::LogSumExp}) {
    const std::string operationName = scanOperationName(operation);
    CAPTURE(operationName);
    ScanDesc desc = scanDesc(valid());
    desc.operation = operation;
    desc.output.dataType = DataType::Float16;  // narrower
    expectRejected(desc, "output.dataType", "differs from the input's FLOAT32");
    desc = scanDesc(valid());
    desc.operation = operation;
    desc.axis = 3;
    expectRejected(desc, "axis", "is 3");
  }
}

TEST_CASE("reject: rank 0") {
  CumulativeSummationDesc desc = valid();
  desc.input.sizes = {};
  desc.output.sizes = {};
  expectRejected(desc, "input.sizes", "0 dimensions");
}

TEST_CASE("reject: rank above 8") {
  CumulativeSummationDesc desc = valid();
  desc.input.sizes.assign(9, 1);
  desc.output.sizes.assign(9, 1);
  expectRejected(desc, "input.sizes", "9 dimensions");
}

TEST_CASE("reject: axis not below the rank") {
  CumulativeSummationDesc desc = valid();
  desc.axis = 3;
  expectRejected(desc, "axis", "is 3");
}

TEST_CASE("reject: input and output types differ, the output not one that widens the input") {
  CumulativeSummationDesc desc = valid();
  desc.output.dataType = DataType::Int32;
  expectRejected(desc, "output.dataType", "INT32");
  desc.output.dataType = DataType::Float16;
  expectRejected(desc, "output.dataType", "does not widen it");
}

TEST_CASE("reject: input and output ranks differ") {
  CumulativeSummationDesc desc = valid();
  desc.output.sizes = {6, 4};
  expectRejected(desc, "output.sizes", "2 dimensions");
}

TEST_CASE("reject: input and output sizes differ") {
  CumulativeSummationDesc desc = valid();
  desc.output.sizes = {2, 5, 4};
  expectRejected(desc, "output.sizes[1]", "is 5");
}

TEST_CASE("reject: a stride count that does not match the sizes") {
  CumulativeSummationDesc desc = valid();
  desc.input.strides = {12, 4};
  expectRejected(desc, "input.strides", "2 entries");
}

TEST_CASE("reject: output strides that make elements overlap") {
  CumulativeSummationDesc desc = valid();
  desc.output.strides = {12, 1, 1};
  expectRejected(desc, "output.strides", "overlap");
  desc.output.strides = {0, 4, 1};
  expectRejected(desc, "output.strides", "overlap");
}

TEST_CASE("reject: unknown enum values") {
  CumulativeSummationDesc desc = valid();
  desc.axisDirection = static_cast<AxisDirection>(7);
  expectRejected(desc, "axisDirection", "7");
  desc = valid();
  desc.input.dataType = static_cast<DataType>(42);
  desc.output.dataType = desc.input.dataType;
  expectRejected(desc, "input.dataType", "42");
}

TEST_CASE("reject: a tensor too large to address") {
  CumulativeSummationDesc desc = valid();
  desc.input.sizes = {0xffffffffu, 0xffffffffu, 0xffffffffu};
  desc.output.sizes = desc.input.sizes;
  expectRejected(desc, "input.sizes", "more bytes");
}

TEST_CASE("accept: a stride of 0 on the input broadcasts") {
  CumulativeSummationDesc desc = valid();
  desc.input.strides = {0, 1, 0};
  CHECK_NOTHROW(test::testDevice().createOperator(desc));
}

TEST_CASE("accept: an empty tensor records nothing") {
  CumulativeSummationDesc desc = valid();
  desc.input.sizes = {2, 0, 4};
  desc.output.sizes = desc.input.sizes;
  Operator op = test::testDevice().createOperator(desc);
  CHECK(op.dispatchCount() == 0);
  CHECK(op.scratchSize() == 0);
  CHECK(desc.input.totalBytes() == 0);
}

// Binding checks happen in record(); the command buffer must stay empty.
TEST_CASE("reject: bad bindings, before recording anything") {
  Device& device = test::testDevice();
  Device::Impl& impl = Device::Access::impl(device);
  CumulativeSummationDesc desc = valid();
  desc.input.sizes = {1, 70000};  // long enough to need scratch
  desc.output.sizes = desc.input.sizes;
  Operator op = device.createOperator(desc);
  REQUIRE(op.scratchSize() > 0);
  uint64_t bytes = desc.input.totalBytes();
  detail::DeviceBuffer a(impl, 2 * bytes + 64);
  detail::DeviceBuffer scratch(impl, op.scratchSize());
  // Any non-null handle will do: every check fires before the first command.
  auto commandBuffer = reinterpret_cast<VkCommandBuffer>(uintptr_t{1});
  BufferBinding in{a.buffer(), 0, bytes};
  BufferBinding out{a.buffer(), bytes + 16 - bytes % 16, bytes};
  auto expectBindingRejected = [&](BufferBinding input, BufferBinding output,
                                   BufferBinding scratchBinding, const std::string& field) {
    CAPTURE(field);
    try {
      op.record(commandBuffer, input, output, scratchBinding);
      FAIL("accepted invalid bindings");
    } catch (const InvalidArgument& error) {
      CHECK(error.field() == field);
    }
  };
  expectBindingRejected({VK_NULL_HANDLE, 0, bytes}, out, scratch.binding(),
                        "bindings.input.buffer");
  expectBindingRejected(in, {a.buffer(), out.offset, bytes - 4}, scratch.binding(),
                        "bindings.output.size");
  expectBindingRejected(in, {a.buffer(), out.offset + 4, bytes}, scratch.binding(),
                        "bindings.output.offset");
  expectBindingRejected(in, {a.buffer(), 32, bytes}, scratch.binding(), "bindings.output");
  expectBindingRejected(in, out, {scratch.buffer(), 0, op.scratchSize() - 16},
                        "bindings.scratch.size");
  expectBindingRejected(in, out, {a.buffer(), 0, op.scratchSize()}, "bindings.scratch");
  expectBindingRejected(in, out, {}, "bindings.scratch.buffer");
  expectBindingRejected(in, {a.buffer(), 0, VK_WHOLE_SIZE}, scratch.binding(),
                        "bindings.output.size");
}

TEST_CASE("reject: in place with differing input and output strides") {
  Device& device = test::testDevice();
  Device::Impl& impl = Device::Access::impl(device);
  CumulativeSummationDesc desc = valid();
  desc.output.strides = {1, 2, 6};
  desc.input.strides = {12, 4, 1};
  Operator op = device.createOperator(desc);
  detail::DeviceBuffer buffer(impl, 256);
  auto commandBuffer = reinterpret_cast<VkCommandBuffer>(uintptr_t{1});
  try {
    op.record(commandBuffer, buffer.binding(), buffer.binding());
    FAIL("accepted in place with different layouts");
  } catch (const InvalidArgument& error) {
    CHECK(error.field() == "bindings.output");
  }
}

TEST_CASE("reject: device options that select no device, by name") {
  const auto fieldOf = [](const DeviceOptions& options) {
    try {
      Device device = createDevice(options);
    } catch (const InvalidArgument& error) {
      return error.field();
    }
    return std::string("no exception");
  };
  for (int index : {-7, -2, 1 << 20}) {
    CAPTURE(index);
    DeviceOptions options = test::testDeviceOptions();
    options.deviceIndex = index;
    CHECK(fieldOf(options) == "options.deviceIndex");
  }
  DeviceOptions named = test::testDeviceOptions();
  named.deviceName = "no device is called this";
  CHECK(fieldOf(named) == "options.deviceName");
}
