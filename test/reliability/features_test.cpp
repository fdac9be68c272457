// DeviceOptions::disableInt64 / disableFloat64 / disableFloat16: a device
// that pretends to lack a feature reports it. Without shaderFloat64 it
// refuses FLOAT64 with a clear message; without shaderInt64 or 16-bit storage
// it runs every type through the kernels' fallback variants, with the
// reference's bytes as a device with the features does, and refuses tensors
// over 2^30 bytes when shaderInt64 is missing. The vector words, the other
// choice that picks a build of the kernels, give the same bytes every way. A
// wrapped device uses only the features its engine says it enabled.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "device/device_impl.hpp"
#include "device_hooks.hpp"
#include "host/headless_device.hpp"
#include "reliability_util.hpp"
#include "test_device.hpp"

using namespace vkscan;
using namespace vkscan::test;

namespace {

const std::vector<DataType> kTypes = {DataType::Float32, DataType::Float16, DataType::Int32,
                                      DataType::UInt32,  DataType::Int64,   DataType::UInt64,
                                      DataType::Float64, DataType::BFloat16};
// The types the vector words change the kernels of (INT64 and UINT64 with
// Load64Store32 only).
const std::vector<DataType> kVectorWordsTypes = {
    DataType::Float32, DataType::Int32, DataType::UInt32, DataType::Int64, DataType::UInt64};

std::string unsupportedMessage(const Device& device, const CumulativeSummationDesc& desc) {
  try {
    device.createOperator(desc);
  } catch (const Unsupported& error) {
    return error.what();
  }
  return {};
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

void checkRejected(const Device& device, DataType type, const char* feature) {
  CAPTURE(dataTypeName(type));
  CHECK_FALSE(device.supports(type));
  std::string message = unsupportedMessage(device, packedDesc(type, {10}, 0));
  CAPTURE(message);
  CHECK(contains(message, dataTypeName(type)));
  CHECK(contains(message, feature));
}

void checkOthersRun(const Device& device, DataType missing) {
  for (DataType type : kTypes) {
    if (type == missing) continue;
    CAPTURE(dataTypeName(type));
    CHECK(device.supports(type));
    CHECK(runMatchesReference(device, packedDesc(type, {3, 5000}, 1), 40));
  }
}

struct Case {
  CumulativeSummationDesc desc;
  bool inPlace;
};

// One-pass and multi-pass plans, both directions, exclusive, strided and
// broadcast layouts, in place.
std::vector<Case> cases(DataType type) {
  std::vector<Case> all;
  all.push_back({packedDesc(type, {3, 5000}, 1), false});
  all.push_back({packedDesc(type, {300, 37}, 0, true, AxisDirection::Decreasing), false});
  all.push_back({packedDesc(type, {(1u << 17) + 3}, 0, true, AxisDirection::Decreasing), true});
  all.push_back({packedDesc(type, {50001}, 0), false});  // single pass, look-back on CPU devices
  CumulativeSummationDesc strided = packedDesc(type, {40, 70}, 1, false, AxisDirection::Decreasing);
  strided.input.strides = {1, 41};  // Fortran order, padded
  strided.output.strides = {72, 1};
  all.push_back({strided, false});
  CumulativeSummationDesc broadcast = packedDesc(type, {40, 70}, 0, true);
  broadcast.input.strides = {0, 1};
  all.push_back({broadcast, false});
  all.push_back({packedDesc(type, {9, 31, 6}, 1, true), true});
  return all;
}

std::vector<uint8_t> runCase(const Device& device, const Case& c,
                             const std::vector<uint8_t>& input) {
  if (c.inPlace) {
    std::vector<uint8_t> buffer = input;
    run(device, c.desc, buffer.data(), buffer.data());
    return buffer;
  }
  std::vector<uint8_t> output(c.desc.output.totalBytes(), 0xA5);
  run(device, c.desc, input.data(), output.data());
  return output;
}

// Every type (of `types`) and case gives the reference's bytes, to which
// the lib suite holds every profile's kernels, the native device's too (a
// native run here cost these cases as much again in pipelines).
void checkSameBytesAsReference(const Device& device, const std::vector<DataType>& types = kTypes) {
  uint64_t seed = 500;
  for (DataType type : types) {
    for (const Case& c : cases(type)) {
      std::string what = describe(c.desc) + (c.inPlace ? " in place" : "");
      CAPTURE(what);
      std::vector<uint8_t> input = randomInput(c.desc, ++seed);
      std::vector<uint8_t> initialOutput =
          c.inPlace ? input : std::vector<uint8_t>(c.desc.output.totalBytes(), 0xA5);
      CHECK(runCase(device, c, input) == referenceOutput(c.desc, input, initialOutput));
    }
  }
}

}  // namespace

TEST_CASE("missing features: disableFloat64") {
  DeviceOptions options = testDeviceOptions();
  options.disableFloat64 = true;
  Device device = createDevice(options);
  CHECK_FALSE(capabilities(device).shaderFloat64);
  CHECK(capabilities(device).shaderFloat16);
  checkRejected(device, DataType::Float64, "shaderFloat64");
  checkOthersRun(device, DataType::Float64);
}

TEST_CASE("missing features: disableFloat16 still runs FLOAT16, with packed halves") {
  DeviceOptions options = testDeviceOptions();
  options.disableFloat16 = true;
  Device device = createDevice(options);
  CHECK_FALSE(capabilities(device).shaderFloat16);
  CHECK_FALSE(capabilities(device).storageBuffer16BitAccess);
  CHECK(capabilities(device).shaderFloat64);
  CHECK(capabilities(device).shaderInt64);
  CHECK(device.supports(DataType::Float16));
  checkSameBytesAsReference(device);
}

TEST_CASE("missing features: disableInt64 runs every type with the reference's bytes") {
  DeviceOptions options = testDeviceOptions();
  options.disableInt64 = true;
  Device device = createDevice(options);
  CHECK_FALSE(capabilities(device).shaderInt64);
  CHECK(capabilities(device).storageBuffer16BitAccess);
  for (DataType type : kTypes) {
    CAPTURE(dataTypeName(type));
    CHECK(device.supports(type));
  }
  checkSameBytesAsReference(device);
}

TEST_CASE("missing features: disableInt64 and disableFloat16 together") {
  DeviceOptions options = testDeviceOptions();
  options.disableInt64 = true;
  options.disableFloat16 = true;
  Device device = createDevice(options);
  CHECK_FALSE(capabilities(device).shaderInt64);
  CHECK_FALSE(capabilities(device).storageBuffer16BitAccess);
  checkSameBytesAsReference(device);
}

TEST_CASE("missing features: an engine's device without them, wrapped as it was created") {
  DeviceOptions options = testDeviceOptions();
  options.disableInt64 = true;
  options.disableFloat16 = true;
  Device engine = createDevice(options);  // stands in for an engine that left the features disabled
  Device wrapped(externalDeviceOf(engine));
  CHECK_FALSE(capabilities(wrapped).shaderInt64);
  CHECK_FALSE(capabilities(wrapped).storageBuffer16BitAccess);
  checkSameBytesAsReference(wrapped);
  CHECK(validationMessageCount(engine) == 0);
}

// vkscan used shaderInt64 and 16-bit storage whenever the physical device had
// them, so an engine that enabled fewer got invalid SPIR-V instead of an
// error. It now uses what the feature chain says was enabled, no more.
TEST_CASE("enabled features: a wrapped device uses only what the engine enabled") {
  Device& engine = testDevice(Profile::Native);  // every feature enabled
  REQUIRE(capabilities(engine).shaderInt64);
  REQUIRE(capabilities(engine).storageBuffer16BitAccess);
  ExternalDevice external = externalDeviceOf(engine);
  auto* features = const_cast<VkPhysicalDeviceFeatures2*>(external.enabledFeatures);
  auto* features11 = static_cast<VkPhysicalDeviceVulkan11Features*>(features->pNext);
  features->features.shaderInt64 = VK_FALSE;
  features11->storageBuffer16BitAccess = VK_FALSE;
  {
    Device wrapped(external);
    CHECK_FALSE(capabilities(wrapped).shaderInt64);
    CHECK_FALSE(capabilities(wrapped).storageBuffer16BitAccess);
    CHECK(capabilities(wrapped).shaderFloat64 == capabilities(engine).shaderFloat64);
    CHECK(describe(wrapped).find("without Int64") != std::string::npos);
    checkSameBytesAsReference(wrapped, {DataType::Float16, DataType::Int64, DataType::Float32});
  }
  // No chain: bufferDeviceAddress alone, which vkscan requires.
  external.enabledFeatures = nullptr;
  {
    Device wrapped(external);
    CHECK_FALSE(capabilities(wrapped).shaderInt64);
    CHECK_FALSE(capabilities(wrapped).storageBuffer16BitAccess);
    CHECK_FALSE(capabilities(wrapped).shaderFloat64);
    checkRejected(wrapped, DataType::Float64, "shaderFloat64");
    CHECK(runMatchesReference(wrapped, packedDesc(DataType::UInt64, {3, 5000}, 1), 44));
  }
  // A chain without bufferDeviceAddress is refused by name.
  ExternalDevice withoutAddresses = externalDeviceOf(engine);
  auto* features12 = static_cast<VkPhysicalDeviceVulkan12Features*>(
      static_cast<VkPhysicalDeviceVulkan11Features*>(
          const_cast<VkPhysicalDeviceFeatures2*>(withoutAddresses.enabledFeatures)->pNext)
          ->pNext);
  features12->bufferDeviceAddress = VK_FALSE;
  try {
    Device wrapped(withoutAddresses);
    FAIL("accepted a device without bufferDeviceAddress");
  } catch (const Unsupported& error) {
    CHECK(contains(error.what(), "was created without bufferDeviceAddress"));
  }
  // Extension names promised but not given.
  ExternalDevice noNames = externalDeviceOf(engine);
  noNames.enabledExtensionCount = 2;
  noNames.enabledExtensionNames = nullptr;
  try {
    Device wrapped(noNames);
    FAIL("accepted a null extension list");
  } catch (const InvalidArgument& error) {
    CHECK(error.field() == "external.enabledExtensionNames");
  }
  CHECK(validationMessageCount(engine) == 0);
}

// The planner takes the rows kernels without computeFullSubgroups only where
// the subgroup size cannot vary, so the sizes must be read, and read whatever
// the engine enabled (they are properties, not features).
TEST_CASE("enabled features: subgroup sizes are read with or without computeFullSubgroups") {
  Device& engine = testDevice(Profile::Native);
  const DeviceCapabilities& caps = capabilities(engine);
  if (!caps.subgroupSizeControl) return;  // neither Vulkan 1.3 nor the extension
  CHECK(caps.minSubgroupSize >= 1);
  CHECK(caps.minSubgroupSize <= caps.subgroupSize);
  CHECK(caps.subgroupSize <= caps.maxSubgroupSize);
  CHECK(caps.computeFullSubgroups);  // vkscan's own devices enable it where offered
  ExternalDevice external = externalDeviceOf(engine);
  external.enabledFeatures = nullptr;
  Device wrapped(external);
  CHECK_FALSE(capabilities(wrapped).computeFullSubgroups);
  CHECK(capabilities(wrapped).minSubgroupSize == caps.minSubgroupSize);
  CHECK(capabilities(wrapped).maxSubgroupSize == caps.maxSubgroupSize);
  CHECK(validationMessageCount(engine) == 0);
}

TEST_CASE("missing features: all three, and run() rejects before allocating") {
  DeviceOptions options = testDeviceOptions();
  options.disableInt64 = true;
  options.disableFloat64 = true;
  options.disableFloat16 = true;
  Device device = createDevice(options);
  checkRejected(device, DataType::Float64, "shaderFloat64");
  std::vector<uint8_t> data(80, 0);
  {
    DeviceHooks hooks(device);
    CHECK_THROWS_AS(run(device, packedDesc(DataType::Float64, {10}, 0), data.data(), data.data()),
                    Unsupported);
    for (const char* function : {"vkCreateBuffer", "vkAllocateMemory", "vkCreateCommandPool",
                                 "vkCreateShaderModule", "vkCreateComputePipelines"}) {
      CAPTURE(function);
      CHECK(hooks.calls(function) == 0);
    }
  }
  CHECK(test::pipelineCount(device) == 0);
  checkOthersRun(device, DataType::Float64);
}

TEST_CASE("missing features: without shaderInt64 a tensor over 2^30 bytes is refused by name") {
  DeviceOptions options = testDeviceOptions();
  options.disableInt64 = true;
  Device device = createDevice(options);
  const uint32_t overLimit = (1u << 28) + 1;  // FLOAT32: 2^30 + 4 bytes
  const std::string limit = std::to_string(kMaxTensorBytesWithoutInt64);

  CumulativeSummationDesc both = packedDesc(DataType::Float32, {overLimit}, 0);
  std::string message = unsupportedMessage(device, both);
  CAPTURE(message);
  CHECK(message.rfind("input: ", 0) == 0);
  CHECK(contains(message, "1073741828 bytes"));
  CHECK(contains(message, limit));
  CHECK(contains(message, "shaderInt64"));

  CumulativeSummationDesc outputOnly = both;
  outputOnly.input.strides = {0};  // a broadcast input spans one element
  message = unsupportedMessage(device, outputOnly);
  CHECK(message.rfind("output: ", 0) == 0);
  CHECK(contains(message, "1073741828 bytes"));
  CHECK(contains(message, "shaderInt64"));

  CumulativeSummationDesc inputOnly = packedDesc(DataType::Float32, {1u << 27}, 0);
  inputOnly.input.strides = {2};  // (2 * (2^27 - 1) + 1) * 4 bytes = 2^30 - 4
  CHECK_NOTHROW(device.createOperator(inputOnly));
  inputOnly.input.sizes = inputOnly.output.sizes = {(1u << 27) + 1};
  message = unsupportedMessage(device, inputOnly);
  CHECK(message.rfind("input: ", 0) == 0);
  CHECK(contains(message, "1073741828 bytes"));

  // run() reaches the check before touching the (far too small) host
  // memory.
  std::vector<uint8_t> data(16, 0);
  CHECK_THROWS_AS(run(device, outputOnly, data.data(), data.data()), Unsupported);
}

TEST_CASE("missing features: without shaderInt64 exactly 2^30 bytes are accepted") {
  DeviceOptions options = testDeviceOptions();
  options.disableInt64 = true;
  Device device = createDevice(options);
  for (DataType type : {DataType::Float32, DataType::Float16, DataType::UInt64}) {
    CAPTURE(dataTypeName(type));
    auto elements = static_cast<uint32_t>(kMaxTensorBytesWithoutInt64 / dataTypeSize(type));
    CumulativeSummationDesc desc = packedDesc(type, {elements / 4096, 4096}, 1);
    REQUIRE(desc.input.totalBytes() == kMaxTensorBytesWithoutInt64);
    CHECK_NOTHROW(device.createOperator(desc));
  }
  // The limit is the fallback's: a device with shaderInt64 goes beyond it.
  CHECK_NOTHROW(testDevice(Profile::Native)
                    .createOperator(packedDesc(DataType::Float32, {(1u << 28) + 1}, 0)));
}

TEST_CASE("vector words: every form gives the reference's bytes, every type it changes") {
  // testDevice(Profile::Native) runs Load64Store32 on storage buffers; these
  // run the other builds on the same tuning, and through device addresses.
  for (detail::VectorWords words :
       {detail::VectorWords::Bits64, detail::VectorWords::Load64Store32}) {
    for (bool addresses : {false, true}) {
      if (words == detail::VectorWords::Load64Store32 && !addresses) continue;
      CAPTURE(detail::vectorWordsName(words));
      CAPTURE(addresses);
      DeviceOptions options = testDeviceOptions();
      options.disablePushDescriptor = addresses;
      Device device = detail::createDevice(options, &words);
      CHECK(Device::Access::impl(device).vectorWords == words);
      checkSameBytesAsReference(device, kVectorWordsTypes);
      CHECK(validationMessageCount(device) == 0);
    }
  }
}

// The form follows from the device class, with no timing: the default
// Device of vkscan 0.1 copied 16 MiB three ways in its constructor.
TEST_CASE("vector words: each device class's form, chosen without timing") {
  DeviceCapabilities caps;
  caps.deviceType = VK_PHYSICAL_DEVICE_TYPE_CPU;
  caps.pushDescriptor = true;
  caps.shaderInt64 = true;
  CHECK(detail::vectorWordsFor(caps) == detail::VectorWords::Load64Store32);
  caps.pushDescriptor = false;
  CHECK(detail::vectorWordsFor(caps) == detail::VectorWords::Bits64);
  caps.pushDescriptor = true;
  caps.shaderInt64 = false;
  CHECK(detail::vectorWordsFor(caps) == detail::VectorWords::Bits64);
  caps.shaderInt64 = true;
  for (VkPhysicalDeviceType gpu :
       {VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU,
        VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU}) {
    caps.deviceType = gpu;
    CHECK(detail::vectorWordsFor(caps) == detail::VectorWords::Bits64);
  }

  Device device = createDevice(testDeviceOptions());
  const DeviceCapabilities& real = capabilities(device);
  CHECK(Device::Access::impl(device).vectorWords == detail::vectorWordsFor(real));
  CHECK(describe(device).find(detail::vectorWordsName(detail::vectorWordsFor(real))) !=
        std::string::npos);
  // A wrapped device takes the same form as vkscan's own on the same device.
  Device wrapped(externalDeviceOf(device));
  CHECK(Device::Access::impl(wrapped).vectorWords == Device::Access::impl(device).vectorWords);
  CHECK(runMatchesReference(wrapped, packedDesc(DataType::UInt32, {3, 5000}, 1), 42));
  CHECK(validationMessageCount(device) == 0);
}
