// The benchmark's host work (input, reference) split across the CPUs, so
// that a GPU check's minutes go to the GPU rather than to one host thread.
// Every index is handled once, by the same code whatever the split, so the
// bytes never depend on the thread count.
#pragma once

#include <algorithm>
#include <cstdint>
#include <exception>
#include <thread>
#include <vector>

namespace vkscan::bench {

// Calls body(begin, end) on up to `threads` contiguous ranges that cover
// [0, count) once, the calling thread taking the first; returns when all
// are done, rethrowing the first range's exception.
template <typename Body>
void parallelFor(uint64_t count, unsigned threads, Body&& body) {
  const uint64_t parts = std::max<uint64_t>(1, std::min<uint64_t>(threads, count));
  if (parts == 1) {
    if (count > 0) body(uint64_t{0}, count);
    return;
  }
  std::vector<std::exception_ptr> errors(parts);
  auto run = [&](uint64_t part) {
    try {
      body(count * part / parts, count * (part + 1) / parts);
    } catch (...) {
      errors[part] = std::current_exception();
    }
  };
  std::vector<std::thread> workers;
  for (uint64_t part = 1; part < parts; ++part) workers.emplace_back(run, part);
  run(0);
  for (std::thread& worker : workers) worker.join();
  for (const std::exception_ptr& error : errors) {
    if (error) std::rethrow_exception(error);
  }
}

// The threads worth starting for `work` elementary steps: one below a
// grain that a thread's start would cost more than it saves.
inline unsigned threadsFor(uint64_t work, unsigned threads) {
  constexpr uint64_t kGrain = uint64_t{1} << 16;
  return unsigned(std::clamp<uint64_t>(work / kGrain, 1, std::max(threads, 1u)));
}

}  // namespace vkscan::bench
