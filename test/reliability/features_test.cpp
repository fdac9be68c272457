// DeviceOptions::disableInt64 / disableFloat64 / disableFloat16: a device
// that pretends to lack a feature reports it. Without shaderFloat64 it
// refuses FLOAT64 with a clear message; without shaderInt64 or 16-bit storage
// it runs every type through the kernels' fallback variants, with the same
// bytes as a device that has the features, and refuses tensors over 2^30
// bytes when shaderInt64 is missing. DeviceOptions::vectorWords, the other
// option that picks a build of the kernels, gives the same bytes every way.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "device_hooks.hpp"
#include "reliability_util.hpp"
#include "test_device.hpp"

using namespace vkscan;
using namespace vkscan::test;

namespace {

const std::vector<DataType> kTypes = {DataType::Float32, DataType::Float16, DataType::Int32,
                                      DataType::UInt32,  DataType::Int64,   DataType::UInt64,
                                      DataType::Float64};
// The types DeviceOptions::vectorWords changes the kernels of (INT64 and
// UINT64 with Load64Store32 only).
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
  CHECK_FALSE(device.capabilities().supports(type));
  std::string message = unsupportedMessage(device, packedDesc(type, {10}, 0));
  CAPTURE(message);
  CHECK(contains(message, dataTypeName(type)));
  CHECK(contains(message, feature));
}

void checkOthersRun(const Device& device, DataType missing) {
  for (DataType type : kTypes) {
    if (type == missing) continue;
    CAPTURE(dataTypeName(type));
    CHECK(device.capabilities().supports(type));
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
    device.run(c.desc, buffer.data(), buffer.data());
    return buffer;
  }
  std::vector<uint8_t> output(c.desc.output.totalBytes(), 0xA5);
  device.run(c.desc, input.data(), output.data());
  return output;
}

// Every type (of `types`) and case gives the native device's bytes, which
// are the reference's.
void checkSameBytesAsNative(const Device& device, const std::vector<DataType>& types = kTypes) {
  const Device& native = testDevice(Profile::Native);
  uint64_t seed = 500;
  for (DataType type : types) {
    for (const Case& c : cases(type)) {
      std::string what = describe(c.desc) + (c.inPlace ? " in place" : "");
      CAPTURE(what);
      std::vector<uint8_t> input = randomInput(c.desc, ++seed);
      std::vector<uint8_t> expected = runCase(native, c, input);
      std::vector<uint8_t> initialOutput =
          c.inPlace ? input : std::vector<uint8_t>(c.desc.output.totalBytes(), 0xA5);
      CHECK(expected == referenceOutput(c.desc, input, initialOutput));
      CHECK(runCase(device, c, input) == expected);
    }
  }
}

}  // namespace

TEST_CASE("missing features: disableFloat64") {
  DeviceOptions options = testDeviceOptions();
  options.disableFloat64 = true;
  Device device(options);
  CHECK_FALSE(device.capabilities().shaderFloat64);
  CHECK(device.capabilities().shaderFloat16);
  checkRejected(device, DataType::Float64, "shaderFloat64");
  checkOthersRun(device, DataType::Float64);
}

TEST_CASE("missing features: disableFloat16 still runs FLOAT16, with packed halves") {
  DeviceOptions options = testDeviceOptions();
  options.disableFloat16 = true;
  Device device(options);
  CHECK_FALSE(device.capabilities().shaderFloat16);
  CHECK_FALSE(device.capabilities().storageBuffer16BitAccess);
  CHECK(device.capabilities().shaderFloat64);
  CHECK(device.capabilities().shaderInt64);
  CHECK(device.capabilities().supports(DataType::Float16));
  checkSameBytesAsNative(device);
}

TEST_CASE("missing features: disableInt64 runs every type with a native device's bytes") {
  DeviceOptions options = testDeviceOptions();
  options.disableInt64 = true;
  Device device(options);
  CHECK_FALSE(device.capabilities().shaderInt64);
  CHECK(device.capabilities().storageBuffer16BitAccess);
  for (DataType type : kTypes) {
    CAPTURE(dataTypeName(type));
    CHECK(device.capabilities().supports(type));
  }
  checkSameBytesAsNative(device);
}

TEST_CASE("missing features: disableInt64 and disableFloat16 together") {
  DeviceOptions options = testDeviceOptions();
  options.disableInt64 = true;
  options.disableFloat16 = true;
  Device device(options);
  CHECK_FALSE(device.capabilities().shaderInt64);
  CHECK_FALSE(device.capabilities().storageBuffer16BitAccess);
  checkSameBytesAsNative(device);
}

TEST_CASE("missing features: an engine's device without them, wrapped with the options") {
  DeviceOptions options = testDeviceOptions();
  options.disableInt64 = true;
  options.disableFloat16 = true;
  Device engine(options);  // stands in for an engine that left the features disabled
  ExternalDevice external = externalDeviceOf(engine);
  DeviceOptions wrapOptions;
  wrapOptions.disableInt64 = true;
  wrapOptions.disableFloat16 = true;
  Device wrapped(external, wrapOptions);
  CHECK_FALSE(wrapped.capabilities().shaderInt64);
  CHECK_FALSE(wrapped.capabilities().storageBuffer16BitAccess);
  checkSameBytesAsNative(wrapped);
  CHECK(engine.validationMessageCount() == 0);
}

TEST_CASE("missing features: all three, and Device::run rejects before allocating") {
  DeviceOptions options = testDeviceOptions();
  options.disableInt64 = true;
  options.disableFloat64 = true;
  options.disableFloat16 = true;
  Device device(options);
  checkRejected(device, DataType::Float64, "shaderFloat64");
  std::vector<uint8_t> data(80, 0);
  {
    DeviceHooks hooks(device);
    CHECK_THROWS_AS(device.run(packedDesc(DataType::Float64, {10}, 0), data.data(), data.data()),
                    Unsupported);
    for (const char* function : {"vkCreateBuffer", "vkAllocateMemory", "vkCreateCommandPool",
                                 "vkCreateShaderModule", "vkCreateComputePipelines"}) {
      CAPTURE(function);
      CHECK(hooks.calls(function) == 0);
    }
  }
  CHECK(device.cachedPipelineCount() == 0);
  checkOthersRun(device, DataType::Float64);
}

TEST_CASE("missing features: without shaderInt64 a tensor over 2^30 bytes is refused by name") {
  DeviceOptions options = testDeviceOptions();
  options.disableInt64 = true;
  Device device(options);
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

  // Device::run() reaches the check before touching the (far too small) host
  // memory.
  std::vector<uint8_t> data(16, 0);
  CHECK_THROWS_AS(device.run(outputOnly, data.data(), data.data()), Unsupported);
}

TEST_CASE("missing features: without shaderInt64 exactly 2^30 bytes are accepted") {
  DeviceOptions options = testDeviceOptions();
  options.disableInt64 = true;
  Device device(options);
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

TEST_CASE("vector words: every form gives the native device's bytes, every type it changes") {
  // testDevice(Profile::Native) runs Load64Store32 on storage buffers; these
  // run the other builds on the same tuning, and through device addresses.
  for (VectorWords words : {VectorWords::Bits64, VectorWords::Bits32, VectorWords::Load64Store32}) {
    for (bool addresses : {false, true}) {
      if (words == VectorWords::Load64Store32 && !addresses) continue;
      CAPTURE(vectorWordsName(words));
      CAPTURE(addresses);
      DeviceOptions options = testDeviceOptions();
      options.vectorWords = words;
      options.disablePushDescriptor = addresses;
      Device device(options);
      CHECK(device.vectorWords() == words);
      checkSameBytesAsNative(device, kVectorWordsTypes);
      CHECK(device.validationMessageCount() == 0);
    }
  }
}

TEST_CASE("vector words: what each choice resolves to") {
  DeviceOptions options = testDeviceOptions();
  for (VectorWords words : {VectorWords::Bits32, VectorWords::Bits64, VectorWords::Load64Store32}) {
    options.vectorWords = words;
    CHECK(Device(options).vectorWords() == words);
  }
  // Automatic times the three forms on lavapipe (a CPU device with push
  // descriptors) once per process: any may win, the same each time.
  options.vectorWords = VectorWords::Automatic;
  Device automatic(options);
  VectorWords chosen = automatic.vectorWords();
  CAPTURE(vectorWordsName(chosen));
  CHECK((chosen == VectorWords::Bits32 || chosen == VectorWords::Bits64 ||
         chosen == VectorWords::Load64Store32));
  CHECK(Device(options).vectorWords() == chosen);
  CHECK(runMatchesReference(automatic, packedDesc(DataType::Float32, {3, 5000}, 1), 41));
  // Without push descriptors there is no timing, and no Int64 means 32-bit
  // words whatever is asked.
  DeviceOptions addresses = options;
  addresses.disablePushDescriptor = true;
  CHECK(Device(addresses).vectorWords() == VectorWords::Bits64);
  DeviceOptions noInt64 = options;
  noInt64.disableInt64 = true;
  for (VectorWords words : {VectorWords::Bits64, VectorWords::Load64Store32}) {
    noInt64.vectorWords = words;
    CHECK(Device(noInt64).vectorWords() == VectorWords::Bits32);
  }
  // An engine's device: vkscan submits nothing at creation.
  Device wrapped(externalDeviceOf(automatic), DeviceOptions{});
  CHECK(wrapped.vectorWords() == VectorWords::Bits64);
  DeviceOptions narrow;
  narrow.vectorWords = VectorWords::Bits32;
  Device wrappedNarrow(externalDeviceOf(automatic), narrow);
  CHECK(wrappedNarrow.vectorWords() == VectorWords::Bits32);
  CHECK(runMatchesReference(wrappedNarrow, packedDesc(DataType::UInt32, {3, 5000}, 1), 42));
  CHECK(automatic.validationMessageCount() == 0);
}

TEST_CASE("vector words: a value outside the enum is refused by name, before any Vulkan object") {
  DeviceOptions options = testDeviceOptions();
  options.vectorWords = static_cast<VectorWords>(7);
  CHECK(std::string(vectorWordsName(options.vectorWords)) == "UNKNOWN");
  for (bool external : {false, true}) {
    CAPTURE(external);
    try {
      if (external) {
        Device(externalDeviceOf(testDevice(Profile::Native)), options);
      } else {
        Device device(options);
      }
      FAIL("no exception");
    } catch (const InvalidArgument& error) {
      CHECK(error.field() == "options.vectorWords");
      CHECK(contains(error.what(), "is 7"));
    }
  }
}
