// The device every library test shares: headless, with the Khronos
// validation layer (and synchronization validation) when it is installed,
// unless VKSCAN_TEST_VALIDATION=0. Tests check validationMessageCount()
// stays 0.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>
#include <vkscan/host.hpp>

namespace vkscan::test {

// The plan depends on the device; lavapipe alone would only ever run the
// CPU-tuned plans. Each profile is a device whose tuning is overridden so
// that one machine runs every kernel family and pass structure, and whose
// features are masked so that it runs every kernel variant. Native loads
// 64-bit words and stores 32-bit ones (lavapipe's own Load64Store32: every
// type but FLOAT64 and FLOAT16), the others move 64-bit words (Bits64, as
// GPUs do).
enum class Profile {
  Native,           // lavapipe's own tuning: chunk kernels, reading run()'s input through
                    // its texel view where storage buffers hold it
  GpuTuning,        // as a 32-wide GPU: rows kernels with 256-wide workgroups
  SmallWorkgroups,  // as a device limited to 128 invocations, subgroup 4: 16-wide rows,
                    // one-pass look-back that never waits (its fallback path)
  ManyPasses,       // chunks of 16 elements everywhere: the deepest carry recursion,
                    // and the input through storage buffers, not texel views
  // Without shaderInt64 and 16-bit storage (DeviceOptions::disableInt64 and
  // disableFloat16): the emulated-int64 and packed-halves variants of the
  // chunk kernels on storage buffers (with look-back that never waits, as
  // DeviceAddresses), then through device addresses, then the rows kernels'.
  Emulated,
  EmulatedDeviceAddresses,
  EmulatedGpuTuning,
  DeviceAddresses,  // lavapipe's tuning without VK_KHR_push_descriptor: chunk kernels
                    // through device addresses instead of storage buffers, and
                    // look-back that never waits (its fallback path)
  // Without 16-bit storage only (DeviceOptions::disableFloat16): the
  // packed-halves FLOAT16 and BFLOAT16 kernels with native Int64, a build of
  // their own. Not in kAllProfiles: only the 2-byte float tests run it.
  PackedHalves,
};
inline constexpr size_t kProfileCount = 9;
inline constexpr Profile kAllProfiles[] = {Profile::Native,
                                           Profile::GpuTuning,
                                           Profile::SmallWorkgroups,
                                           Profile::ManyPasses,
                                           Profile::Emulated,
                                           Profile::EmulatedDeviceAddresses,
                                           Profile::EmulatedGpuTuning,
                                           Profile::DeviceAddresses};
const char* profileName(Profile profile);

// The profiles of `wanted` that this run tests: all of them, or those that
// VKSCAN_TEST_PROFILES names (comma-separated profileName()s), so that a
// configuration where only some profiles differ (the portability run at
// subgroup size 4: profiles with tuning of their own plan the same there)
// need not compile every profile's kernels again. Throws std::runtime_error
// for a name that is no profile, and when no profile of `wanted` is left, so
// that a filter never turns a test into one that runs nothing.
std::vector<Profile> testedProfiles(std::initializer_list<Profile> wanted);
std::vector<Profile> testedProfiles();  // of kAllProfiles

// VKSCAN_TEST_EXHAUSTIVE=1: suites that by default spread their cases over
// the profiles (each case on some, every case on at least one) run every
// case on every profile. CI keeps the spread; a GPU check runs it all.
bool exhaustive();
// Cases a randomized suite runs: `byDefault`, or `value`
// (VKSCAN_RANDOMIZED_CASES), so that CI's ASan step, where each case costs two
// to three times as much, can run the first of them. Throws
// std::runtime_error for anything but a count from 1 to 100000, so that a
// typo never turns a suite into nothing.
int randomizedCases(const char* value, int byDefault);

Device& testDevice(Profile profile = Profile::Native);

// Options for a Device of a test's own: validation as for the shared test
// devices (on unless VKSCAN_TEST_VALIDATION=0).
DeviceOptions testDeviceOptions();

// Destroys the shared devices. Test mains call it after the run: at static
// destruction the validation layer's own globals may already be gone, and
// destroying a device then crashed inside the layer.
void releaseTestDevices();

// The handles of `engine` as an engine would hand its own over to vkscan
// (no pipeline cache, the system loader), with the features and extensions
// `engine` enabled. The feature chain lives until this thread's next call.
ExternalDevice externalDeviceOf(const Device& engine);

// Pipelines `device` has created so far (each a distinct key).
size_t pipelineCount(const Device& device);

// An environment variable set for a scope, and what the run had put back
// after it (VKSCAN_TUNING, VKSCAN_TEST_PROFILES...).
class ScopedEnvironment {
 public:
  ScopedEnvironment(const char* name, const char* value);
  ~ScopedEnvironment();
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

 private:
  std::string name_;
  std::optional<std::string> saved_;
};

// A test case's change to a shared test device (its tuning, a capability)
// that lasts until the scope ends, however it ends: a failed REQUIRE or an
// exception must not hand the next test cases a device tuned for this one.
template <typename T>
class ScopedRestore {
 public:
  explicit ScopedRestore(T& value) : value_(value), saved_(value) {}
  ~ScopedRestore() { value_ = saved_; }
  ScopedRestore(const ScopedRestore&) = delete;
  ScopedRestore& operator=(const ScopedRestore&) = delete;

 private:
  T& value_;
  T saved_;
};

// Runs desc through run() on the profile's device. For in place the
// input must be laid out exactly as the output.
std::vector<uint8_t> runOnDevice(const ScanDesc& desc, const std::vector<uint8_t>& input,
                                 bool inPlace, const std::vector<uint8_t>& initialOutput,
                                 Device& device);
std::vector<uint8_t> runOnDevice(const CumulativeSummationDesc& desc,
                                 const std::vector<uint8_t>& input, bool inPlace,
                                 const std::vector<uint8_t>& initialOutput,
                                 Profile profile = Profile::Native);
// The same on a device of the test's own.
std::vector<uint8_t> runOnDevice(const CumulativeSummationDesc& desc,
                                 const std::vector<uint8_t>& input, bool inPlace,
                                 const std::vector<uint8_t>& initialOutput, Device& device);

// The index of the first element (elementSize bytes) where a and b differ,
// the shorter one's size where one is a prefix of the other, or -1.
int64_t firstDifference(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b,
                        size_t elementSize);

// For a failure message: the first differing element's bits in each, and how
// many elements differ ("" where a and b are equal). A run on a device where
// no debugger reaches tells an identity from a stray value by it.
std::string describeDifference(const std::vector<uint8_t>& actual,
                               const std::vector<uint8_t>& expected, size_t elementSize);

// Random element bytes for `count` elements of `type`: floats with random
// mantissas and exponents in [-8, 8] (so partial sums never go subnormal,
// which some devices flush), integers over their full range.
std::vector<uint8_t> randomElements(DataType type, uint64_t count, uint64_t seed);

// Operands for `operation`: randomElements() for sums; factors near +-1 for
// products (odd integers, so that wrapped products rarely reach 0); for
// maximum and minimum, values with many ties, a quarter zeros of both signs,
// and a few infinities and NaNs; for log-sum-exp (float types only), values
// in [-30, 30] with ties, gaps past its cutoff, and a few infinities and
// NaNs.
std::vector<uint8_t> randomOperands(ScanOperation operation, DataType type, uint64_t count,
                                    uint64_t seed);

}  // namespace vkscan::test
