#include "device/cpu_threads.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "device/device_impl.hpp"
#include "test_device.hpp"

namespace vkscan::detail {
namespace {

// llvmpipe names its rasterizer threads "llvmpipe-N", as many as the worker
// threads it runs compute workgroups on.
uint32_t llvmpipeThreadsOfThisProcess() {
  uint32_t count = 0;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream comm(task.path() / "comm");
    std::string name;
    std::getline(comm, name);
    if (name.rfind("llvmpipe-", 0) == 0) ++count;
  }
  return count;
}

// A thread names itself once it first runs. On a loaded runner (CI's ASan
// step counted 30 of 32) some had not yet when the Device was made, so the count is taken
// once it has held for a second. Other threads lavapipe starts keep their
// creator's name, so waiting for unnamed threads would not end.
uint32_t settledLlvmpipeThreads() {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::seconds(30);
  uint32_t count = llvmpipeThreadsOfThisProcess();
  auto heldSince = Clock::now();
  while (Clock::now() - heldSince < std::chrono::seconds(1) && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const uint32_t now = llvmpipeThreadsOfThisProcess();
    if (now != count) {
      count = now;
      heldSince = Clock::now();
    }
  }
  return count;
}

TEST_CASE("cpu threads: llvmpipe's worker threads, from LP_NUM_THREADS and the usable CPUs") {
  struct Case {
    bool llvmpipe;
    const char* lpNumThreads;
    uint32_t usableCpus;
    uint32_t workers;
    uint32_t busy;
  };
  const Case cases[] = {
      // By default a worker per usable CPU, at most 32; for one CPU none
      // (the submitting thread), which is one worker too.
      {true, nullptr, 2, 2, 2},
      {true, nullptr, 1, 1, 1},
      {true, nullptr, 64, 32, 32},
      // LP_NUM_THREADS wins; workers past the CPUs share them.
      {true, "1", 2, 1, 1},
      {true, "0", 2, 1, 1},
      {true, "4", 2, 4, 2},
      {true, "4", 1, 4, 1},
      {true, "100", 2, 32, 2},
      // Read as Mesa reads it: strtol with base prefixes, trailing text
      // ignored, no digits keep the default, a negative count is a huge
      // unsigned one.
      {true, "0x3", 8, 3, 3},
      {true, "3 threads", 8, 3, 3},
      {true, "many", 8, 8, 8},
      {true, "", 8, 8, 8},
      {true, "-1", 8, 32, 8},
      // Other CPU implementations: a worker per usable CPU, whatever
      // llvmpipe's variable says.
      {false, "1", 6, 6, 6},
      {false, nullptr, 6, 6, 6},
      // Unknown CPUs: unknown threads.
      {true, "4", 0, 0, 0},
      {false, nullptr, 0, 0, 0},
  };
  for (const Case& c : cases) {
    CAPTURE(c.llvmpipe);
    CAPTURE(c.lpNumThreads == nullptr ? "(unset)" : c.lpNumThreads);
    CAPTURE(c.usableCpus);
    const CpuThreads threads = cpuThreadsFor(c.llvmpipe, c.lpNumThreads, c.usableCpus);
    CHECK(threads.workers == c.workers);
    CHECK(threads.busy == c.busy);
  }
}

TEST_CASE("cpu threads: the tuning keeps a subgroup per busy thread and blocks per worker") {
  Tuning oversubscribed = tuningFor(DeviceClass::Cpu, 8, 1024, {4, 2});
  CHECK(oversubscribed.wholeLineInvocations == 16);
  CHECK(oversubscribed.cpuWorkers == 4);
  Tuning one = tuningFor(DeviceClass::Cpu, 8, 1024, {1, 1});
  CHECK(one.wholeLineInvocations == 8);
  CHECK(one.cpuWorkers == 1);
  CHECK(tuningFor(DeviceClass::Gpu, 32, 1024, {4, 2}).cpuWorkers == 0);
}

// Run by ctest also under LP_NUM_THREADS=0, 1, 3 and 40 (test/lib/CMakeLists.txt).
TEST_CASE("cpu threads: a Device on lavapipe expects the worker threads lavapipe starts") {
  const uint32_t before = llvmpipeThreadsOfThisProcess();
  DeviceOptions options = test::testDeviceOptions();
  Device device = createDevice(options);
  if (capabilities(device).driverID != VK_DRIVER_ID_MESA_LLVMPIPE) {
    MESSAGE("not lavapipe: nothing to compare");
    return;
  }
  const uint32_t started = settledLlvmpipeThreads() - before;
  const char* variable = std::getenv("LP_NUM_THREADS");
  CAPTURE(variable == nullptr ? "(unset)" : variable);
  CAPTURE(started);
  // No threads: the submitting thread runs the workgroups, one worker.
  const Device::Impl& impl = Device::Access::impl(device);
  CHECK(impl.tuning.cpuWorkers == (started == 0 ? 1 : started));
  // The public view (describe(), which vkscan info prints) is the one the
  // plans use.
  CHECK(impl.cpuThreads.workers == impl.tuning.cpuWorkers);
  CHECK(impl.cpuThreads.busy == std::min(impl.cpuThreads.workers, usableCpus()));
  const std::string expected =
      ", worker threads expected: " + std::to_string(impl.cpuThreads.workers) + " (" +
      std::to_string(impl.cpuThreads.busy) + " at once)";
  CHECK(describe(device).find(expected) != std::string::npos);
}

}  // namespace
}  // namespace vkscan::detail
