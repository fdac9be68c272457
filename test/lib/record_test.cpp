// Operator::record() into the caller's command buffer, as an engine uses it:
// its own buffers at offsets, scratch shared between operators, the barriers
// the header asks of the caller, and the pipeline cache behind it all.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>
#include <vkscan/cpu_hints.hpp>

#include "descriptors.hpp"
#include "device/device_impl.hpp"
#include "host/device_buffer.hpp"
#include "host/headless_device.hpp"
#include "one_shot.hpp"
#include "pipeline_cache.hpp"
#include "plan/plan.hpp"
#include "problem.hpp"
#include "reference.hpp"
#include "test_device.hpp"

using namespace vkscan;

namespace {

std::vector<uint8_t> expectedOf(const CumulativeSummationDesc& desc,
                                const std::vector<uint8_t>& input) {
  std::vector<uint8_t> expected(desc.output.totalBytes());
  test::referenceCumsum(desc, input, expected);
  return expected;
}

// Two operators in one command buffer, the second reading the first's
// output, every binding at an offset, scratch shared.
void checkTwoOperatorsAtOffsets(Device& device) {
  Device::Impl& impl = Device::Access::impl(device);
  CumulativeSummationDesc first = test::packedDesc(DataType::Float32, {3, 50000}, 1, false);
  CumulativeSummationDesc second = test::packedDesc(DataType::Float32, {50000, 3}, 0, true);
  second.input.sizes = {3, 50000};
  second.output.sizes = second.input.sizes;
  second.axis = 1;
  second.axisDirection = AxisDirection::Decreasing;
  Operator a = device.createOperator(first);
  Operator b = device.createOperator(second);
  uint64_t bytes = first.input.totalBytes();
  VkDeviceSize scratchBytes = std::max(a.scratchSize(), b.scratchSize());

  // One buffer: [pad | input | pad | output of a (input of b) | pad | output of b]
  const uint64_t pad = 48;
  detail::DeviceBuffer buffer(impl, 3 * (bytes + pad) + 64);
  detail::DeviceBuffer scratch(impl, scratchBytes + 32);
  BufferBinding in{buffer.buffer(), pad, bytes};
  BufferBinding mid{buffer.buffer(), 2 * pad + bytes, bytes};
  BufferBinding out{buffer.buffer(), 3 * pad + 2 * bytes, bytes};
  BufferBinding scratchBinding{scratch.buffer(), 16, scratchBytes};

  std::vector<uint8_t> input = test::randomElements(DataType::Float32, bytes / 4, 5);
  std::memcpy(static_cast<uint8_t*>(buffer.mapped()) + in.offset, input.data(), bytes);

  test::OneShot shot(impl);
  a.record(shot.commandBuffer(), in, mid, scratchBinding);
  shot.computeToCompute();
  b.record(shot.commandBuffer(), mid, out, scratchBinding);
  shot.submitAndWait();

  std::vector<uint8_t> afterA = expectedOf(first, input);
  std::vector<uint8_t> afterB = expectedOf(second, afterA);
  const auto* mapped = static_cast<const uint8_t*>(buffer.mapped());
  CHECK(std::memcmp(mapped + mid.offset, afterA.data(), bytes) == 0);
  CHECK(std::memcmp(mapped + out.offset, afterB.data(), bytes) == 0);
  CHECK(validationMessageCount(device) == 0);
}

}  // namespace

TEST_CASE("record: two operators in one command buffer, at offsets, sharing scratch") {
  checkTwoOperatorsAtOffsets(test::testDevice());
  checkTwoOperatorsAtOffsets(test::testDevice(test::Profile::DeviceAddresses));
}

// Storage buffers are bound from offsets rounded down to the device's
// alignment, the rest carried as element offsets. Lavapipe's alignment (16)
// equals vkscan's binding alignment, so a larger one is pretended: every
// multiple of the real alignment is a valid offset.
TEST_CASE("record: storage buffers bound below the tensors' offsets") {
  Device& device = test::testDevice();
  Device::Impl& impl = Device::Access::impl(device);
  if (!capabilities(device).pushDescriptor) {
    MESSAGE("skipped: the device has no VK_KHR_push_descriptor, so no storage-buffer kernels");
    return;
  }
  test::ScopedRestore<uint64_t> restoreAlignment(impl.capabilities.minStorageBufferOffsetAlignment);
  impl.capabilities.minStorageBufferOffsetAlignment = 256;
  checkTwoOperatorsAtOffsets(device);
}

// An operator whose tensors or scratch do not fit maxStorageBufferRange
// keeps device addresses: other pipelines, the same bits. A device of its
// own, so that no other test has made those pipelines already.
TEST_CASE("record: storage buffers only for tensors within maxStorageBufferRange") {
  Device device = createDevice(test::testDeviceOptions());
  Device::Impl& impl = Device::Access::impl(device);
  if (!capabilities(device).pushDescriptor) {
    MESSAGE("skipped: the device has no VK_KHR_push_descriptor, so no storage-buffer kernels");
    return;
  }
  CumulativeSummationDesc desc = test::packedDesc(DataType::Float32, {3, 50000}, 1, true);
  std::vector<uint8_t> input = test::randomElements(DataType::Float32, 150000, 8);
  std::vector<uint8_t> expected = expectedOf(desc, input);
  uint64_t saved = impl.capabilities.maxStorageBufferRange;
  size_t before = test::pipelineCount(device);
  impl.capabilities.maxStorageBufferRange = 4096;
  std::vector<uint8_t> viaAddresses(expected.size());
  run(device, desc, input.data(), viaAddresses.data());
  size_t withAddresses = test::pipelineCount(device);
  impl.capabilities.maxStorageBufferRange = saved;
  std::vector<uint8_t> viaStorageBuffers(expected.size());
  run(device, desc, input.data(), viaStorageBuffers.data());
  CHECK(withAddresses > before);
  CHECK(test::pipelineCount(device) > withAddresses);
  CHECK(viaAddresses == expected);
  CHECK(viaStorageBuffers == expected);
  CHECK(validationMessageCount(device) == 0);
}

// A binding at a 16-byte offset lies up to the alignment less 16 above where
// its storage buffer is bound. A tensor that fills maxStorageBufferRange
// from there still takes storage buffers, and runs bound there (an odd count
// of halves too: DML sizes tensors in whole words); one byte less of range
// takes device addresses (new pipelines). An alignment of 64 is pretended,
// as above.
TEST_CASE("record: storage buffers for tensors that fill the range from the largest lead") {
  Device device = createDevice(test::testDeviceOptions());
  Device::Impl& impl = Device::Access::impl(device);
  if (!capabilities(device).pushDescriptor) {
    MESSAGE("skipped: the device has no VK_KHR_push_descriptor, so no storage-buffer kernels");
    return;
  }
  const DeviceCapabilities saved = impl.capabilities;
  const uint64_t alignment = 64;
  const uint64_t lead = alignment - 16;
  for (DataType type : {DataType::Float32, DataType::Float16}) {
    CAPTURE(dataTypeName(type));
    CumulativeSummationDesc desc = test::packedDesc(type, {3, 33333}, 1, true);
    uint64_t bytes = desc.input.totalBytes();
    uint64_t elementBytes = 3 * 33333 * dataTypeSize(type);
    impl.capabilities.minStorageBufferOffsetAlignment = alignment;
    impl.capabilities.maxStorageBufferRange = lead + bytes;
    Operator op = device.createOperator(desc);
    size_t pipelines = test::pipelineCount(device);

    uint64_t outOffset = lead + (bytes + alignment) / alignment * alignment;
    detail::DeviceBuffer buffer(impl, outOffset + bytes);
    detail::DeviceBuffer scratch(impl, op.scratchSize() + lead);
    BufferBinding in{buffer.buffer(), lead, bytes};
    BufferBinding out{buffer.buffer(), outOffset, bytes};
    BufferBinding scratchBinding{scratch.buffer(), lead, op.scratchSize()};
    std::vector<uint8_t> input = test::randomElements(type, elementBytes / dataTypeSize(type), 12);
    input.resize(bytes);
    std::memcpy(static_cast<uint8_t*>(buffer.mapped()) + in.offset, input.data(), bytes);
    test::OneShot shot(impl);
    op.record(shot.commandBuffer(), in, out, scratchBinding);
    shot.submitAndWait();
    std::vector<uint8_t> expected = expectedOf(desc, input);
    CHECK(std::memcmp(static_cast<const uint8_t*>(buffer.mapped()) + out.offset, expected.data(),
                      elementBytes) == 0);

    impl.capabilities.maxStorageBufferRange = saved.maxStorageBufferRange;
    device.createOperator(desc);
    CHECK(test::pipelineCount(device) == pipelines);
    impl.capabilities.maxStorageBufferRange = lead + bytes - 1;
    device.createOperator(desc);
    CHECK(test::pipelineCount(device) > pipelines);
    impl.capabilities = saved;
  }
  CHECK(validationMessageCount(device) == 0);
}

TEST_CASE("record: in place, output bound to the input's range") {
  Device& device = test::testDevice();
  Device::Impl& impl = Device::Access::impl(device);
  for (DataType type : {DataType::Float16, DataType::Int64}) {
    CumulativeSummationDesc desc = test::packedDesc(type, {70001}, 0, true);
    Operator op = device.createOperator(desc);
    uint64_t bytes = desc.input.totalBytes();
    detail::DeviceBuffer buffer(impl, bytes);
    detail::DeviceBuffer scratch(impl, op.scratchSize());
    std::vector<uint8_t> input = test::randomElements(type, bytes / dataTypeSize(type), 9);
    input.resize(bytes);
    std::memcpy(buffer.mapped(), input.data(), bytes);
    test::OneShot shot(impl);
    op.record(shot.commandBuffer(), buffer.binding(), buffer.binding(), scratch.binding());
    shot.submitAndWait();
    std::vector<uint8_t> expected = input;
    test::referenceCumsum(desc, input, expected);
    CHECK(std::memcmp(buffer.mapped(), expected.data(), bytes) == 0);
  }
  CHECK(validationMessageCount(device) == 0);
}

// The kernels read the input's units through its texel view where the
// device gathers texels faster (a CPU device), so an input whose view shows
// other bytes than its buffer is scanned as the view shows it; elsewhere,
// and in place with a look-back pass, the view is ignored. Every shape here
// loads its input in 32-byte units or 16-byte vectors of a 4-byte type only:
// lines of whole nodes, along the axis or interleaved.
TEST_CASE("record: an input's texel view is what CPU devices read, but in place look-back") {
  Device& device = test::testDevice();
  Device::Impl& impl = Device::Access::impl(device);
  bool texels = impl.tuning.texelInput && impl.capabilities.pushDescriptor;
  struct Shape {
    DataType type;
    std::vector<uint32_t> sizes;
    uint32_t axis;
  };
  const Shape shapes[] = {{DataType::Float32, {65536}, 0},    {DataType::Int32, {1 << 20}, 0},
                          {DataType::Float32, {64, 4096}, 1}, {DataType::UInt64, {512, 256}, 0},
                          {DataType::Float16, {32, 8192}, 1}, {DataType::Float64, {40000}, 0},
                          {DataType::Float32, {256, 260}, 0}, {DataType::Int32, {128, 4100}, 0}};
  for (const Shape& shape : shapes) {
    for (bool inPlace : {false, true}) {
      CumulativeSummationDesc desc = test::packedDesc(shape.type, shape.sizes, shape.axis, false);
      CAPTURE(dataTypeName(shape.type));
      CAPTURE(desc.input.totalBytes());
      CAPTURE(inPlace);
      Operator op = device.createOperator(desc);
      uint64_t bytes = desc.input.totalBytes();
      uint64_t count = bytes / dataTypeSize(shape.type);
      detail::DeviceBuffer buffer(impl, bytes);
      detail::DeviceBuffer shown(impl, bytes, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT);
      detail::DeviceBuffer out(impl, bytes);
      detail::DeviceBuffer scratch(impl, op.scratchSize());
      std::vector<uint8_t> input = test::randomElements(shape.type, count, 3);
      std::vector<uint8_t> viewed = test::randomElements(shape.type, count, 4);
      std::memcpy(buffer.mapped(), input.data(), bytes);
      std::memcpy(shown.mapped(), viewed.data(), bytes);
      BufferBinding in = buffer.binding();
      REQUIRE(shown.texelView() != VK_NULL_HANDLE);
      test::OneShot shot(impl);
      recordWithInputTexels(op, shot.commandBuffer(), in, shown.texelView(),
                            inPlace ? in : out.binding(), scratch.binding());
      shot.submitAndWait();
      detail::Plan plan = detail::makePlan(detail::normalize(desc), impl.planLimits(), impl.tuning);
      bool lookback =
          std::any_of(plan.dispatches.begin(), plan.dispatches.end(),
                      [](const auto& d) { return detail::isLookback(d.pipeline.stage); });
      CAPTURE(lookback);
      bool throughView = texels && !(inPlace && lookback);
      std::vector<uint8_t> expected(bytes);
      test::referenceCumsum(desc, throughView ? viewed : input, expected);
      CHECK(std::memcmp(inPlace ? buffer.mapped() : out.mapped(), expected.data(), bytes) == 0);
    }
  }
  CHECK(validationMessageCount(device) == 0);
}

// Whether a device's operators hold texel variants: on a CPU device with
// push descriptors with Int64, where the kernels have texel builds. The tests
// below run both vector-word forms, whose builds differ.
namespace {

bool holdsTexelVariants(const Device& device) {
  const Device::Impl& impl = Device::Access::impl(device);
  return impl.tuning.texelInput && impl.capabilities.pushDescriptor &&
         impl.capabilities.shaderInt64;
}

Device deviceOnWords(detail::VectorWords words) {
  return detail::createDevice(test::testDeviceOptions(), &words);
}

// The pipeline keys of desc's plan on the device, in dispatch order.
std::vector<detail::PipelineKey> pipelineKeys(const Device::Impl& impl,
                                              const CumulativeSummationDesc& desc) {
  detail::Plan plan = detail::makePlan(detail::normalize(desc), impl.planLimits(), impl.tuning);
  std::vector<detail::PipelineKey> keys;
  for (const detail::Dispatch& d : plan.dispatches) keys.push_back(d.pipeline);
  return keys;
}

}  // namespace

// Operators on a CPU device also hold the texel variants of their dispatches
// that read the input through storage buffers, where such builds exist.
TEST_CASE("pipeline cache: one pipeline per key, shared by operators") {
  for (detail::VectorWords words :
       {detail::VectorWords::Bits64, detail::VectorWords::Load64Store32}) {
    CAPTURE(detail::vectorWordsName(words));
    Device device = deviceOnWords(words);
    size_t perKey = holdsTexelVariants(device) ? 2 : 1;
    CumulativeSummationDesc desc = test::packedDesc(DataType::Int32, {40, 40}, 1, false);
    Operator first = device.createOperator(desc);
    size_t afterFirst = test::pipelineCount(device);
    CHECK(afterFirst == first.dispatchCount() * perKey);
    // Same stage, type and flags: rows of whole 32-byte units, as the first.
    desc.input.sizes = {7, 904};
    desc.output.sizes = desc.input.sizes;
    Operator second = device.createOperator(desc);
    CHECK(test::pipelineCount(device) == afterFirst);
    // A CPU device's chunk scan compiles exclusivity in.
    desc.hasExclusiveSum = true;
    Operator third = device.createOperator(desc);
    CHECK(test::pipelineCount(device) == afterFirst + perKey);
    CHECK(validationMessageCount(device) == 0);
  }
}

// An inclusive and an exclusive scan of one shape bind the same pipelines;
// each dispatch's push constants say which it is, so one command buffer holds
// both. Lines for the rows, look-back and multi-pass plans (CPU devices'
// chunk scans compile exclusivity in: pipelines of their own).
TEST_CASE("pipeline cache: inclusive and exclusive scans share pipelines, not results") {
  size_t shared = 0;
  for (test::Profile profile :
       test::testedProfiles({test::Profile::Native, test::Profile::GpuTuning,
                             test::Profile::SmallWorkgroups, test::Profile::ManyPasses})) {
    std::string profileName = test::profileName(profile);
    CAPTURE(profileName);
    Device& device = test::testDevice(profile);
    Device::Impl& impl = Device::Access::impl(device);
    for (std::vector<uint32_t> sizes :
         std::vector<std::vector<uint32_t>>{{3, 5000}, {1, 70000}, {1, 1u << 20}, {300, 4}}) {
      uint32_t axis = sizes[0] == 300 ? 0 : 1;
      CumulativeSummationDesc inclusive = test::packedDesc(DataType::Float32, sizes, axis);
      CumulativeSummationDesc exclusive = test::packedDesc(DataType::Float32, sizes, axis, true);
      CAPTURE(test::describe(exclusive));
      Operator a = device.createOperator(inclusive);
      size_t pipelines = test::pipelineCount(device);
      Operator b = device.createOperator(exclusive);
      // Keys that compile exclusivity in differ from the inclusive plan's.
      bool compiledIn = pipelineKeys(impl, inclusive) != pipelineKeys(impl, exclusive);
      if (!compiledIn) {
        CHECK(test::pipelineCount(device) == pipelines);
        ++shared;
      }

      uint64_t bytes = inclusive.input.totalBytes();
      detail::DeviceBuffer buffer(impl, 3 * bytes);
      VkDeviceSize scratchBytes = (std::max(a.scratchSize(), b.scratchSize()) + 256) / 256 * 256;
      detail::DeviceBuffer scratch(impl, 2 * scratchBytes);
      BufferBinding in{buffer.buffer(), 0, bytes};
      BufferBinding outA{buffer.buffer(), bytes, bytes};
      BufferBinding outB{buffer.buffer(), 2 * bytes, bytes};
      std::vector<uint8_t> input = test::randomElements(DataType::Float32, bytes / 4, 17);
      std::memcpy(buffer.mapped(), input.data(), bytes);
      test::OneShot shot(impl);
      a.record(shot.commandBuffer(), in, outA, {scratch.buffer(), 0, scratchBytes});
      b.record(shot.commandBuffer(), in, outB, {scratch.buffer(), scratchBytes, scratchBytes});
      shot.submitAndWait();
      const auto* mapped = static_cast<const uint8_t*>(buffer.mapped());
      CHECK(std::memcmp(mapped + bytes, expectedOf(inclusive, input).data(), bytes) == 0);
      CHECK(std::memcmp(mapped + 2 * bytes, expectedOf(exclusive, input).data(), bytes) == 0);
    }
    CHECK(validationMessageCount(device) == 0);
  }
  CHECK(shared > 0);
}

// The look-back pass orders its outputs after its published totals only in
// place, with a second pipeline, made with the operator (nothing is
// compiled at record time).
TEST_CASE("pipeline cache: a look-back operator holds its in-place pipeline too") {
  for (detail::VectorWords words :
       {detail::VectorWords::Bits64, detail::VectorWords::Load64Store32}) {
    CAPTURE(detail::vectorWordsName(words));
    Device device = deviceOnWords(words);
    Operator op = device.createOperator(test::packedDesc(DataType::Float32, {40000}, 0, false));
    if (capabilities(device).deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU) {
      MESSAGE("the look-back pass runs on CPU devices only");
      return;
    }
    CHECK(op.dispatchCount() == 1);
    // Its plain and in-place pipelines, and its texel one where that exists.
    CHECK(test::pipelineCount(device) == (holdsTexelVariants(device) ? 3u : 2u));
    CHECK(validationMessageCount(device) == 0);
  }
}

// The rows kernels number lanes as if every subgroup were full
// (kernels/rows.glsl placeInWorkgroup()): where the device lets them, their
// pipelines require it, and only where Vulkan allows (the engine enabled
// computeFullSubgroups, the workgroup width a multiple of the subgroup).
TEST_CASE("pipeline cache: subgroup kernels require full subgroups where the device allows") {
  DeviceCapabilities caps;
  caps.subgroupSize = 32;
  caps.computeFullSubgroups = true;
  detail::PipelineKey key;
  key.stage = detail::Stage::RowsOnePass;
  key.workgroupSize = 256;
  CHECK(detail::requiresFullSubgroups(key, caps));
  key.stage = detail::Stage::RowsScan;
  CHECK(detail::requiresFullSubgroups(key, caps));
  key.workgroupSize = 16;  // narrower than the subgroup
  CHECK_FALSE(detail::requiresFullSubgroups(key, caps));
  key.workgroupSize = 256;
  key.stage = detail::Stage::ChunkScan;  // no subgroup operations
  CHECK_FALSE(detail::requiresFullSubgroups(key, caps));
  key.stage = detail::Stage::RowsOnePass;
  caps.computeFullSubgroups = false;
  CHECK_FALSE(detail::requiresFullSubgroups(key, caps));

  // On this machine: rows on the GPU-tuned profile, then the same on the
  // device wrapped as an engine that did not enable the feature.
  Device& device = test::testDevice(test::Profile::GpuTuning);
  const detail::PipelineCache& pipelines = *Device::Access::impl(device).pipelines;
  CumulativeSummationDesc desc = test::packedDesc(DataType::Float32, {16, 5000}, 1);
  std::vector<uint8_t> input(desc.input.totalBytes());
  for (size_t i = 0; i < input.size() / 4; ++i) {
    float value = static_cast<float>(static_cast<int>(i % 7) - 3);
    std::memcpy(input.data() + 4 * i, &value, 4);
  }
  std::vector<uint8_t> expected(desc.output.totalBytes());
  test::referenceCumsum(desc, input, expected);
  CHECK(test::runOnDevice(desc, input, false, {}, device) == expected);
  if (capabilities(device).computeFullSubgroups) {
    // Created now or by an earlier case: the cache holds this key once.
    CHECK(pipelines.fullSubgroupPipelines() > 0);
  } else {
    MESSAGE("this device does not offer computeFullSubgroups");
    CHECK(pipelines.fullSubgroupPipelines() == 0);
  }
  ExternalDevice external = test::externalDeviceOf(device);
  auto* features11 =
      static_cast<const VkPhysicalDeviceVulkan11Features*>(external.enabledFeatures->pNext);
  auto* features12 = static_cast<VkPhysicalDeviceVulkan12Features*>(features11->pNext);
  features12->pNext = nullptr;  // drops VkPhysicalDeviceSubgroupSizeControlFeatures
  Device wrapped(external);
  CHECK_FALSE(capabilities(wrapped).computeFullSubgroups);
  Device::Access::impl(wrapped).tuning = Device::Access::impl(device).tuning;
  CHECK(test::runOnDevice(desc, input, false, {}, wrapped) == expected);
  CHECK(Device::Access::impl(wrapped).pipelines->fullSubgroupPipelines() == 0);
  CHECK(validationMessageCount(device) == 0);
}

// Whether a driver's cache saves any compiling is the driver's business
// (lavapipe's holds only its header): what vkscan owes is data in the
// Vulkan cache format, accepted by another device, and garbage ignored.
TEST_CASE("pipeline cache: saved data is a Vulkan cache that another device accepts") {
  std::vector<uint8_t> data;
  {
    Device device = createDevice();
    device.createOperator(test::packedDesc(DataType::Float32, {100}, 0, false));
    data = pipelineCacheData(device);
  }
  // VkPipelineCacheHeaderVersionOne: header length, then version.
  REQUIRE(data.size() >= 32);
  uint32_t header[2];
  std::memcpy(header, data.data(), sizeof(header));
  CHECK(header[0] >= 32);
  CHECK(header[1] == VK_PIPELINE_CACHE_HEADER_VERSION_ONE);
  CumulativeSummationDesc desc = test::packedDesc(DataType::Float32, {100}, 0, false);
  std::vector<float> input(100, 1.0f);
  DeviceOptions options;
  options.pipelineCacheData = data;
  std::vector<float> output(100, -1.0f);
  run(createDevice(options), desc, input.data(), output.data());
  CHECK(output[0] == 1.0f);
  CHECK(output[99] == 100.0f);
  DeviceOptions garbage;
  garbage.pipelineCacheData = {1, 2, 3, 4, 5, 6, 7, 8};
  output.assign(100, -1.0f);
  run(createDevice(garbage), desc, input.data(), output.data());
  CHECK(output[0] == 1.0f);
  CHECK(output[99] == 100.0f);
}

TEST_CASE("run() touches only the bytes the tensors span, not their padding to 4 bytes") {
  // An odd count of FLOAT16 spans 6 bytes of a padded 8. run() used to
  // overwrite the two after them, and read two past an input of 6 bytes
  // (which the ASan suite reports).
  CumulativeSummationDesc desc = test::packedDesc(DataType::Float16, {3}, 0, false);
  CHECK(desc.input.spanBytes() == 6);
  CHECK(desc.input.totalBytes() == 8);
  std::vector<uint16_t> input = {test::floatToHalf(1), test::floatToHalf(2), test::floatToHalf(3)};
  std::vector<uint16_t> output = {0, 0, 0, 0xabcd};
  run(test::testDevice(), desc, input.data(), output.data());
  CHECK(output[2] == test::floatToHalf(6));
  CHECK(output[3] == 0xabcd);
  std::vector<uint16_t> inPlace = input;
  inPlace.push_back(0xabcd);
  run(test::testDevice(), desc, inPlace.data(), inPlace.data());
  CHECK(inPlace[2] == test::floatToHalf(6));
  CHECK(inPlace[3] == 0xabcd);
}

TEST_CASE("run() refuses null pointers and in place with different strides, by name") {
  CumulativeSummationDesc desc = test::packedDesc(DataType::Float32, {2, 3}, 1, false);
  std::vector<float> data(6, 1.0f), result(6, 0.0f);
  const auto fieldOf = [&](const CumulativeSummationDesc& d, const void* in, void* out) {
    try {
      run(test::testDevice(), d, in, out);
    } catch (const InvalidArgument& error) {
      return error.field();
    }
    return std::string("no exception");
  };
  CHECK(fieldOf(desc, nullptr, result.data()) == "input");
  CHECK(fieldOf(desc, data.data(), nullptr) == "output");
  CHECK(result == std::vector<float>(6, 0.0f));
  CumulativeSummationDesc fortran = desc;
  fortran.output.strides = {1, 2};
  CHECK(fieldOf(fortran, data.data(), data.data()) == "output");
  CHECK(data == std::vector<float>(6, 1.0f));
  // Explicit packed strides are the same layout as none.
  CumulativeSummationDesc explicitPacked = desc;
  explicitPacked.output.strides = {3, 1};
  CHECK(fieldOf(explicitPacked, data.data(), data.data()) == "no exception");
  CHECK(data == std::vector<float>{1, 2, 3, 1, 2, 3});
  // An empty tensor has no bytes to read or write.
  CumulativeSummationDesc empty = test::packedDesc(DataType::Float32, {0, 3}, 1, false);
  CHECK(fieldOf(empty, nullptr, nullptr) == "no exception");
}

TEST_CASE("a validated device outlives a later device made without validation") {
  // Making the second device reloaded volk's process-wide instance pointers
  // without the debug-utils extension; destroying the first then called a
  // null vkDestroyDebugUtilsMessengerEXT.
  DeviceOptions validated;
  validated.enableValidation = true;
  auto first = std::make_unique<Device>(createDevice(validated));
  auto second = std::make_unique<Device>(createDevice());
  std::vector<float> input(10, 1.0f), output(10);
  CumulativeSummationDesc desc = test::packedDesc(DataType::Float32, {10}, 0, false);
  run(*first, desc, input.data(), output.data());
  CHECK_NOTHROW(first.reset());
  CHECK_NOTHROW(run(*second, desc, input.data(), output.data()));
}

TEST_CASE("engine device: vkscan wraps an engine's handles and leaves them to the engine") {
  Device engine = createDevice();  // stands in for the engine: it owns the instance and device
  Device::Impl& owner = Device::Access::impl(engine);
  auto cacheInfo =
      detail::vkStruct<VkPipelineCacheCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO);
  VkPipelineCache engineCache = VK_NULL_HANDLE;
  REQUIRE(owner.vk.vkCreatePipelineCache(owner.device, &cacheInfo, nullptr, &engineCache) ==
          VK_SUCCESS);

  ExternalDevice external = test::externalDeviceOf(engine);
  external.pipelineCache = engineCache;
  CumulativeSummationDesc desc = test::packedDesc(DataType::Int32, {3, 1000}, 1, true);
  std::vector<int32_t> input(3000, 2), output(3000);
  {
    Device wrapped(external);
    CHECK(wrapped.handle() == engine.handle());
    CHECK(capabilities(wrapped).deviceName == capabilities(engine).deviceName);
    run(wrapped, desc, input.data(), output.data());
    CHECK(output[999] == 2 * 999);
    CHECK(output[1000] == 0);
    // The engine's cache received the pipelines.
    size_t size = 0;
    REQUIRE(owner.vk.vkGetPipelineCacheData(owner.device, engineCache, &size, nullptr) ==
            VK_SUCCESS);
    CHECK(size > 0);
  }
  // The wrapper is gone; the engine's device, queue and cache still work.
  std::fill(output.begin(), output.end(), -1);
  run(engine, desc, input.data(), output.data());
  CHECK(output[2999] == 2 * 999);
  owner.vk.vkDestroyPipelineCache(owner.device, engineCache, nullptr);
}

TEST_CASE("engine device: null handles are rejected by name") {
  Device engine = createDevice();
  ExternalDevice external;
  external.instance = engine.instance();
  external.physicalDevice = engine.physicalDevice();
  try {
    Device wrapped(external);
    FAIL("accepted a null device");
  } catch (const InvalidArgument& error) {
    CHECK(error.field() == "external.device");
  }
  external.device = engine.handle();
  Device withoutQueue(external);
  CumulativeSummationDesc desc = test::packedDesc(DataType::Float32, {4}, 0);
  std::vector<float> data(4, 1.0f);
  try {
    run(withoutQueue, desc, data.data(), data.data());
    FAIL("ran without a queue");
  } catch (const InvalidArgument& error) {
    CHECK(error.field() == "external.queue");
  }
}

TEST_CASE("engine device: a queue family past the device's families is rejected by name") {
  // It was taken as given, for run()'s command pool to fail on.
  Device& engine = test::testDevice();
  ExternalDevice external = test::externalDeviceOf(engine);
  external.queueFamilyIndex = 1000;
  try {
    Device wrapped(external);
    FAIL("accepted queue family 1000");
  } catch (const InvalidArgument& error) {
    CHECK(error.field() == "external.queueFamilyIndex");
    CHECK(std::string(error.what()).find("1000 is past the") != std::string::npos);
  }
  // Without a queue, run() is off and the family is never used.
  external.queue = VK_NULL_HANDLE;
  CHECK_NOTHROW(Device{external});
}
