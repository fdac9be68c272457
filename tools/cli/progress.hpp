// Progress of a long command on stderr, e.g. "vkscan: reading big.npy 42%".
// Silent unless stderr is a terminal and the command has run for over a
// second, so short runs, pipes and logs see nothing.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace vkscan::cli {

class Progress {
 public:
  Progress();
  // Stops the display and erases its line.
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Starts a phase, e.g. ("reading in.npy", size). A total of 0 shows the
  // elapsed time instead of a percentage (for work with no measurable steps).
  void phase(std::string name, uint64_t total);
  void advance(uint64_t done);

 private:
  void run();
  void draw();

  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  bool drawn_ = false;
  std::string name_;
  uint64_t total_ = 0;
  uint64_t done_ = 0;
  std::chrono::steady_clock::time_point phaseStart_;
  // Started only for a terminal; a thread because run() blocks for as long
  // as the device computes.
  std::thread thread_;
};

}  // namespace vkscan::cli
