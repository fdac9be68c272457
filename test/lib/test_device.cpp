#include "test_device.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

#include "device/device_impl.hpp"
#include "host/headless_device.hpp"
#include "reference.hpp"

namespace vkscan::test {

const char* profileName(Profile profile) {
  switch (profile) {
    case Profile::Native:
      return "native";
    case Profile::GpuTuning:
      return "gpu-tuning";
    case Profile::SmallWorkgroups:
      return "small-workgroups";
    case Profile::ManyPasses:
      return "many-passes";
    case Profile::Emulated:
      return "emulated";
    case Profile::EmulatedDeviceAddresses:
      return "emulated-device-addresses";
    case Profile::EmulatedGpuTuning:
      return "emulated-gpu-tuning";
    case Profile::DeviceAddresses:
      return "device-addresses";
    case Profile::PackedHalves:
      return "packed-halves";
  }
  return "?";
}

namespace {

std::vector<Profile> tested(const std::vector<Profile>& wanted) {
  const char* env = std::getenv("VKSCAN_TEST_PROFILES");
  if (env == nullptr || *env == '\0') return wanted;
  std::set<std::string> names;
  std::stringstream list(env);
  for (std::string name; std::getline(list, name, ',');) {
    bool known = false;
    for (int p = 0; p < static_cast<int>(kProfileCount); ++p) {
      known = known || name == profileName(static_cast<Profile>(p));
    }
    if (!known) {
      throw std::runtime_error("VKSCAN_TEST_PROFILES names \"" + name +
                               "\", which is no test profile");
    }
    names.insert(name);
  }
  std::vector<Profile> kept;
  for (Profile profile : wanted) {
    if (names.count(profileName(profile)) != 0) kept.push_back(profile);
  }
  if (kept.empty()) {
    throw std::runtime_error(std::string("VKSCAN_TEST_PROFILES=") + env +
                             " leaves none of this test's profiles");
  }
  return kept;
}

}  // namespace

std::vector<Profile> testedProfiles(std::initializer_list<Profile> wanted) {
  return tested(std::vector<Profile>(wanted));
}

std::vector<Profile> testedProfiles() {
  return tested(std::vector<Profile>(std::begin(kAllProfiles), std::end(kAllProfiles)));
}

int randomizedCases(const char* value, int byDefault) {
  if (value == nullptr) return byDefault;
  char* end = nullptr;
  errno = 0;
  long count = std::strtol(value, &end, 10);
  if (end == value || *end != '\0' || errno != 0 || count < 1 || count > 100000) {
    throw std::runtime_error(std::string("VKSCAN_RANDOMIZED_CASES is \"") + value +
                             "\", not a count from 1 to 100000");
  }
  return static_cast<int>(count);
}

bool exhaustive() {
  const char* value = std::getenv("VKSCAN_TEST_EXHAUSTIVE");
  return value != nullptr && std::strcmp(value, "1") == 0;
}

ScopedEnvironment::ScopedEnvironment(const char* name, const char* value) : name_(name) {
  if (const char* old = std::getenv(name)) saved_ = old;
  setenv(name, value, 1);
}

ScopedEnvironment::~ScopedEnvironment() {
  if (saved_) {
    setenv(name_.c_str(), saved_->c_str(), 1);
  } else {
    unsetenv(name_.c_str());
  }
}

DeviceOptions testDeviceOptions() {
  DeviceOptions options;
  const char* env = std::getenv("VKSCAN_TEST_VALIDATION");
  options.enableValidation = env == nullptr || std::strcmp(env, "0") != 0;
  return options;
}

namespace {

Device makeDevice(Profile profile) {
  DeviceOptions options = testDeviceOptions();
  bool emulated = profile == Profile::Emulated || profile == Profile::EmulatedDeviceAddresses ||
                  profile == Profile::EmulatedGpuTuning;
  options.disableInt64 = emulated;
  options.disableFloat16 = emulated || profile == Profile::PackedHalves;
  options.disablePushDescriptor =
      profile == Profile::DeviceAddresses || profile == Profile::EmulatedDeviceAddresses;
  // Native keeps lavapipe's own choice (Load64Store32, the word-stores
  // build); the others run the default build every GPU takes.
  const detail::VectorWords bits64 = detail::VectorWords::Bits64;
  Device device = detail::createDevice(options, profile == Profile::Native ? nullptr : &bits64);
  detail::Tuning& tuning = Device::Access::impl(device).tuning;
  switch (profile) {
    case Profile::Native:
    case Profile::EmulatedDeviceAddresses:
    case Profile::PackedHalves:
      break;
    case Profile::Emulated:
    case Profile::DeviceAddresses:
      // Also: look-back that never waits, so that the tiles other workers
      // have not published yet are reduced by the looking invocation (the
      // fallback path, which the default's short wait rarely takes here).
      tuning.lookbackPolls = 0;
      break;
    case Profile::GpuTuning:
    case Profile::EmulatedGpuTuning:
      tuning = detail::tuningFor(detail::DeviceClass::Gpu, 32, 1024, {});
      break;
    case Profile::SmallWorkgroups:
      tuning = detail::tuningFor(detail::DeviceClass::Gpu, 4, 128, {});
      // Also: the one-pass look-back never waits, so that workgroups reduce
      // the tiles others have not published yet (its fallback path).
      tuning.lookbackPolls = 0;
      break;
    case Profile::ManyPasses:
      // Also: the input through storage buffers where Native reads it
      // through texel views (run() gives them), so that lavapipe's own plans
      // run the storage-buffer loads too.
      tuning.texelInput = false;
      tuning.chunkTargetInvocations = UINT64_MAX;
      tuning.wholeLineInvocations = UINT64_MAX;
      tuning.chunkSmallProblem = 0;
      tuning.chunkLookbackMaxElements = 0;
      break;
  }
  return device;
}

// Made on first use (ctest runs each test case in a process of its own) and
// destroyed by releaseTestDevices(), never by static destruction.
std::unique_ptr<Device> devices[kProfileCount];
std::mutex devicesMutex;

}  // namespace

Device& testDevice(Profile profile) {
  std::lock_guard<std::mutex> lock(devicesMutex);
  std::unique_ptr<Device>& device = devices[static_cast<int>(profile)];
  if (!device) device = std::make_unique<Device>(makeDevice(profile));
  return *device;
}

void releaseTestDevices() {
  std::lock_guard<std::mutex> lock(devicesMutex);
  for (std::unique_ptr<Device>& device : devices) device.reset();
}

size_t pipelineCount(const Device& device) {
  return Device::Access::impl(device).pipelines->size();
}

ExternalDevice externalDeviceOf(const Device& engine) {
  // What a device from createDevice() enabled: every feature its
  // capabilities show. Per thread, read by the Device constructor at once.
  thread_local VkPhysicalDeviceSubgroupSizeControlFeatures sizeControl{};
  thread_local VkPhysicalDeviceVulkan12Features features12{};
  thread_local VkPhysicalDeviceVulkan11Features features11{};
  thread_local VkPhysicalDeviceFeatures2 features{};
  thread_local const char* pushDescriptor = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
  const DeviceCapabilities& caps = capabilities(engine);
  sizeControl = detail::vkStruct<VkPhysicalDeviceSubgroupSizeControlFeatures>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES);
  sizeControl.computeFullSubgroups = caps.computeFullSubgroups;
  features12 = detail::vkStruct<VkPhysicalDeviceVulkan12Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &sizeControl);
  features12.bufferDeviceAddress = caps.bufferDeviceAddress;
  features12.shaderFloat16 = caps.shaderFloat16;
  features11 = detail::vkStruct<VkPhysicalDeviceVulkan11Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &features12);
  features11.storageBuffer16BitAccess = caps.storageBuffer16BitAccess;
  features = detail::vkStruct<VkPhysicalDeviceFeatures2>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &features11);
  features.features.shaderInt64 = caps.shaderInt64;
  features.features.shaderFloat64 = caps.shaderFloat64;
  ExternalDevice external;
  external.enabledFeatures = &features;
  external.enabledExtensionCount = caps.pushDescriptor ? 1 : 0;
  external.enabledExtensionNames = &pushDescriptor;
  external.instance = engine.instance();
  external.physicalDevice = engine.physicalDevice();
  external.device = engine.handle();
  external.queue = engine.queue();
  external.queueFamilyIndex = engine.queueFamilyIndex();
  return external;
}

std::vector<uint8_t> runOnDevice(const ScanDesc& desc, const std::vector<uint8_t>& input,
                                 bool inPlace, const std::vector<uint8_t>& initialOutput,
                                 Device& device) {
  if (inPlace) {
    std::vector<uint8_t> buffer = input;
    run(device, desc, buffer.data(), buffer.data());
    return buffer;
  }
  std::vector<uint8_t> output = initialOutput;
  output.resize(desc.output.totalBytes());
  run(device, desc, input.data(), output.data());
  return output;
}

std::vector<uint8_t> runOnDevice(const CumulativeSummationDesc& desc,
                                 const std::vector<uint8_t>& input, bool inPlace,
                                 const std::vector<uint8_t>& initialOutput, Device& device) {
  return runOnDevice(scanDesc(desc), input, inPlace, initialOutput, device);
}

std::vector<uint8_t> runOnDevice(const CumulativeSummationDesc& desc,
                                 const std::vector<uint8_t>& input, bool inPlace,
                                 const std::vector<uint8_t>& initialOutput, Profile profile) {
  return runOnDevice(desc, input, inPlace, initialOutput, testDevice(profile));
}

int64_t firstDifference(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b,
                        size_t elementSize) {
  for (size_t i = 0; i < std::min(a.size(), b.size()); i += elementSize) {
    if (std::memcmp(&a[i], &b[i], std::min(elementSize, a.size() - i)) != 0) {
      return static_cast<int64_t>(i / elementSize);
    }
  }
  return a.size() == b.size() ? -1 : static_cast<int64_t>(std::min(a.size(), b.size()));
}

std::string describeDifference(const std::vector<uint8_t>& actual,
                               const std::vector<uint8_t>& expected, size_t elementSize) {
  int64_t first = firstDifference(actual, expected, elementSize);
  if (first < 0) return "";
  auto bits = [&](const std::vector<uint8_t>& v) {
    std::string hex = "0x";
    size_t begin = static_cast<size_t>(first) * elementSize;
    if (begin + elementSize > v.size()) return std::string("(none)");
    for (size_t b = elementSize; b-- > 0;) {
      static const char kDigits[] = "0123456789abcdef";
      hex += kDigits[v[begin + b] >> 4];
      hex += kDigits[v[begin + b] & 15];
    }
    return hex;
  };
  size_t differing = 0;
  size_t common = std::min(actual.size(), expected.size()) / elementSize;
  for (size_t i = 0; i < common; ++i) {
    differing +=
        std::memcmp(&actual[i * elementSize], &expected[i * elementSize], elementSize) != 0;
  }
  return "element " + std::to_string(first) + ": " + bits(actual) + " for " + bits(expected) +
         ", " + std::to_string(differing) + " of " + std::to_string(common) + " elements differ";
}

std::vector<uint8_t> randomElements(DataType type, uint64_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  size_t size = dataTypeSize(type);
  std::vector<uint8_t> bytes(((count * size) + 3) & ~uint64_t{3});
  std::uniform_int_distribution<int> exponent(-8, 8);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  for (uint64_t i = 0; i < count; ++i) {
    double real = std::ldexp(mantissa(rng), exponent(rng)) * ((rng() & 1) ? -1.0 : 1.0);
    uint64_t bits = rng();
    switch (type) {
      case DataType::Float32: {
        float value = static_cast<float>(real);
        std::memcpy(&bytes[i * size], &value, size);
        break;
      }
      case DataType::Float16: {
        uint16_t value = floatToHalf(static_cast<float>(real / 16.0));
        std::memcpy(&bytes[i * size], &value, size);
        break;
      }
      case DataType::BFloat16: {
        uint16_t value = floatToBfloat16(static_cast<float>(real));
        std::memcpy(&bytes[i * size], &value, size);
        break;
      }
      case DataType::Float64:
        std::memcpy(&bytes[i * size], &real, size);
        break;
      default:
        std::memcpy(&bytes[i * size], &bits, size);
        break;
    }
  }
  return bytes;
}

}  // namespace vkscan::test

namespace vkscan::test {
namespace {

template <typename T>
void put(std::vector<uint8_t>& bytes, uint64_t i, T value) {
  std::memcpy(&bytes[i * sizeof(T)], &value, sizeof(T));
}

// A float operand as `type` stores it.
void putFloat(std::vector<uint8_t>& bytes, uint64_t i, DataType type, double value) {
  switch (type) {
    case DataType::Float32:
      return put(bytes, i, static_cast<float>(value));
    case DataType::Float16:
      return put(bytes, i, floatToHalf(static_cast<float>(value)));
    case DataType::BFloat16:
      return put(bytes, i, floatToBfloat16(static_cast<float>(value)));
    default:
      return put(bytes, i, value);
  }
}

bool isFloat(DataType type) {
  return type == DataType::Float32 || type == DataType::Float16 || type == DataType::BFloat16 ||
         type == DataType::Float64;
}

}  // namespace

std::vector<uint8_t> randomOperands(ScanOperation operation, DataType type, uint64_t count,
                                    uint64_t seed) {
  if (operation == ScanOperation::Sum) return randomElements(type, count, seed);
  std::mt19937_64 rng(seed);
  size_t size = dataTypeSize(type);
  std::vector<uint8_t> bytes(((count * size) + 3) & ~uint64_t{3});
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_int_distribution<int> exponent(-8, 8);
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t bits = rng();
    double sign = (bits & 1) ? -1.0 : 1.0;
    if (operation == ScanOperation::LogSumExp) {
      // Values in [-30, 30], a quarter on a grid of halves (ties); gaps past
      // the cutoff (-1000); -infinity (the identity); and rarely what
      // swallows the rest of a line: +infinity, NaN, +1000.
      uint64_t kind = (bits >> 8) % 16384;
      double value = unit(rng) * 60.0 - 30.0;
      if (kind < 4096) value = static_cast<double>(kind % 8) / 2.0 - 2.0;
      if (kind >= 4096 && kind < 4352) value = -1000.0;
      if (kind >= 4352 && kind < 4416) value = -INFINITY;
      if (kind == 16381) value = INFINITY;
      if (kind == 16382) value = sign * NAN;
      if (kind == 16383) value = 1000.0;
      putFloat(bytes, i, type, value);
      continue;
    }
    if (operation == ScanOperation::Product) {
      if (isFloat(type)) {
        putFloat(bytes, i, type, sign * (1.0 + (unit(rng) - 0.5) / 32.0));
      } else {
        // Odd factors keep wrapped products from reaching 0 for good.
        uint64_t factor = (bits >> 8) % 64 == 0 ? bits >> 1 : (bits >> 1) | 1u;
        std::memcpy(&bytes[i * size], &factor, size);
      }
      continue;
    }
    // Maximum and minimum: many ties, zeros of both signs, infinities and a
    // few NaNs of both signs, to exercise every rule of the selection.
    uint64_t kind = (bits >> 8) % 4096;
    if (isFloat(type)) {
      double value = std::ldexp(1.0 + std::floor(unit(rng) * 4.0) / 4.0, exponent(rng)) * sign;
      if (type == DataType::Float16) value /= 16.0;
      if (kind < 1024) value = sign * 0.0;
      if (kind == 1024) value = sign * INFINITY;
      if (kind == 1025) value = sign * NAN;
      putFloat(bytes, i, type, value);
    } else {
      // Small values of either sign (ties) or any bits (the extremes).
      uint64_t value =
          kind < 2048 ? static_cast<uint64_t>(static_cast<int64_t>(kind % 17) - 8) : rng();
      std::memcpy(&bytes[i * size], &value, size);
    }
  }
  return bytes;
}

}  // namespace vkscan::test
