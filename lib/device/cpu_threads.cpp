#include "device/cpu_threads.hpp"

#include <algorithm>
#include <cstdlib>
#include <thread>

#if defined(__linux__)
#include <sched.h>
#endif

namespace vkscan::detail {

namespace {

// llvmpipe's cap on its worker threads (LP_MAX_THREADS in Mesa 22.3).
constexpr uint32_t kLlvmpipeMaxThreads = 32;

}  // namespace

uint32_t usableCpus() {
#if defined(__linux__)
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    int count = CPU_COUNT(&set);
    if (count > 0) return static_cast<uint32_t>(count);
  }
#endif
  return std::thread::hardware_concurrency();
}

CpuThreads cpuThreadsFor(bool llvmpipe, const char* lpNumThreads, uint32_t usableCpus) {
  if (usableCpus == 0) return {};
  uint32_t workers = usableCpus;
  if (llvmpipe) {
    // Mesa reads the variable with strtol and keeps its default where no
    // digit starts it; the count is unsigned, so a negative one hits the cap.
    long threads = usableCpus > 1 ? static_cast<long>(usableCpus) : 0;
    if (lpNumThreads != nullptr) {
      char* end = nullptr;
      long value = std::strtol(lpNumThreads, &end, 0);
      if (end != lpNumThreads) threads = value;
    }
    // No worker threads: the submitting thread runs every workgroup.
    workers = std::max<uint32_t>(1, std::min(static_cast<uint32_t>(threads), kLlvmpipeMaxThreads));
  }
  return {workers, std::min(workers, usableCpus)};
}

}  // namespace vkscan::detail
