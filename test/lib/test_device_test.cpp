// The test harness's own contract: VKSCAN_TEST_PROFILES narrows the profiles
// a run tests (the subgroup-4 portability run sets it), and a filter that
// names no profile, or leaves a test none, fails instead of passing empty;
// a test case's change to a shared device is undone however the case ends;
// VKSCAN_RANDOMIZED_CASES sizes the randomized suites or is refused.
#include "test_device.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>

using namespace vkscan::test;

namespace {

// Sets VKSCAN_TEST_PROFILES for one scope and puts back what the run had.
struct ProfilesVariable : ScopedEnvironment {
  explicit ProfilesVariable(const char* value) : ScopedEnvironment("VKSCAN_TEST_PROFILES", value) {}
};

}  // namespace

TEST_CASE("test profiles: VKSCAN_TEST_PROFILES filters them and refuses what would test nothing") {
  {
    ProfilesVariable all("");
    CHECK(testedProfiles().size() == std::size(kAllProfiles));
    CHECK(testedProfiles({Profile::PackedHalves, Profile::Native}) ==
          std::vector<Profile>{Profile::PackedHalves, Profile::Native});
  }
  {
    ProfilesVariable some("emulated,native");
    CHECK(testedProfiles() == std::vector<Profile>{Profile::Native, Profile::Emulated});
    CHECK(testedProfiles({Profile::DeviceAddresses, Profile::Emulated}) ==
          std::vector<Profile>{Profile::Emulated});
    CHECK_THROWS_WITH_AS(testedProfiles({Profile::GpuTuning}),
                         "VKSCAN_TEST_PROFILES=emulated,native leaves none of this test's profiles",
                         std::runtime_error);
  }
  {
    ProfilesVariable misspelt("native,gpu_tuning");
    CHECK_THROWS_WITH_AS(testedProfiles(),
                         "VKSCAN_TEST_PROFILES names \"gpu_tuning\", which is no test profile",
                         std::runtime_error);
  }
}

TEST_CASE("test devices: ScopedRestore puts a shared value back however the scope ends") {
  int value = 1;
  {
    ScopedRestore<int> restore(value);
    value = 2;
  }
  CHECK(value == 1);
  try {
    ScopedRestore<int> restore(value);
    value = 3;
    throw std::runtime_error("a failed REQUIRE throws too");
  } catch (const std::runtime_error&) {
    CHECK(value == 1);
  }
  CHECK(value == 1);
}

TEST_CASE("randomized: VKSCAN_RANDOMIZED_CASES sizes the suite, and refuses what is no count") {
  CHECK(randomizedCases(nullptr, 300) == 300);
  CHECK(randomizedCases(nullptr, 150) == 150);
  CHECK(randomizedCases("1", 300) == 1);
  CHECK(randomizedCases("120", 300) == 120);
  for (const char* bad : {"", "0", "-5", "12x", "x", "100001", "99999999999999999999"}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(randomizedCases(bad, 300),
                         doctest::Contains("VKSCAN_RANDOMIZED_CASES is \""), std::runtime_error);
  }
}
