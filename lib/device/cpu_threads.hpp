// The host threads a CPU implementation of Vulkan runs workgroups on, as the
// tuning sees them (Tuning::cpuWorkers, Tuning::wholeLineInvocations). A
// wrong count costs speed, never bits.
#pragma once

#include <cstdint>

namespace vkscan::detail {

struct CpuThreads {
  // Threads the implementation hands workgroups to; llvmpipe gives each a
  // block of them in order. 0: unknown, or a GPU.
  uint32_t workers = 0;
  // How many of those run at once: the workers, at most the CPUs this
  // process may run on. 0: unknown, or a GPU.
  uint32_t busy = 0;
};

// The CPUs this process may run on: its affinity mask (taskset, a
// container's cpuset) where the host has one, else
// std::thread::hardware_concurrency(); 0 when neither tells.
uint32_t usableCpus();

// `llvmpipe`: the device is lavapipe (VK_DRIVER_ID_MESA_LLVMPIPE), which
// (Mesa 22.3) starts LP_NUM_THREADS worker threads (`lpNumThreads`, the
// variable's value or null), by default one per usable CPU where there are
// several, at most 32, and with none runs the workgroups on the submitting
// thread. Other CPU implementations: a worker per usable CPU.
CpuThreads cpuThreadsFor(bool llvmpipe, const char* lpNumThreads, uint32_t usableCpus);

}  // namespace vkscan::detail
