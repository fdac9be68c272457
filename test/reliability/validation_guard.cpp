// A doctest listener that holds every test case to zero validation messages.
// It reads the process-wide count (every Device, including ones a test made
// and destroyed), so no test has to remember to check. Messages at exit, when
// the shared test device is destroyed, are checked by an atexit handler that
// runs after that device's destructor (it is registered before the device is
// made). A listener cannot fail the test case it observes, so a message ends
// the process with EXIT_FAILURE after the run, naming the test case.
#include "validation_guard.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "device/device_impl.hpp"
#include "test_device.hpp"

namespace vkscan::test {
namespace {

std::atomic<uint64_t> expected{0};   // provoked on purpose
std::atomic<uint64_t> accounted{0};  // already reported or expected
std::atomic<bool> failed{false};

uint64_t unaccounted() {
  return detail::processValidationMessageCount() - accounted.load() - expected.load();
}

void checkAtExit() {
  uint64_t late = unaccounted();
  if (late > 0) {
    std::fprintf(stderr,
                 "validation guard: %llu validation message(s) after the last test case "
                 "(device teardown: objects not destroyed?)\n",
                 static_cast<unsigned long long>(late));
    failed = true;
  }
  if (failed) {
    std::fprintf(stderr, "validation guard: FAILED (see the messages above)\n");
    std::fflush(nullptr);
    std::_Exit(EXIT_FAILURE);
  }
}

struct ValidationGuard : doctest::IReporter {
  explicit ValidationGuard(const doctest::ContextOptions&) {
    static const bool registered = std::atexit(checkAtExit) == 0;
    (void)registered;
  }

  void test_case_end(const doctest::CurrentTestCaseStats&) override {
    uint64_t fresh = unaccounted();
    if (fresh == 0) return;
    accounted += fresh;
    failed = true;
    std::fprintf(stderr, "validation guard: test case \"%s\" raised %llu validation message(s)\n",
                 name_.c_str(), static_cast<unsigned long long>(fresh));
  }
  void test_case_start(const doctest::TestCaseData& data) override { name_ = data.m_name; }

  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}

 private:
  std::string name_;
};

}  // namespace

void expectValidationMessages(uint64_t count) {
  expected += count;
}

bool validationRequired() {
  const char* env = std::getenv("VKSCAN_REQUIRE_VALIDATION");
  return env != nullptr && std::strcmp(env, "1") == 0;
}

}  // namespace vkscan::test

DOCTEST_REGISTER_LISTENER("validation_guard", 1, vkscan::test::ValidationGuard);

TEST_CASE("validation: the Khronos layer and synchronization validation are active") {
  vkscan::Device::Impl& impl = vkscan::Device::Access::impl(vkscan::test::testDevice());
  if (!vkscan::test::validationRequired() && !impl.validationEnabled) {
    MESSAGE(
        "VK_LAYER_KHRONOS_validation is not active (not installed, or "
        "VKSCAN_TEST_VALIDATION=0); set VKSCAN_REQUIRE_VALIDATION=1 to make this a failure");
    return;
  }
  CHECK(impl.validationEnabled);
  CHECK(impl.synchronizationValidation);
}
