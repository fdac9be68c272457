#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace vkscan::cli {
namespace {

constexpr auto kDelay = std::chrono::seconds(1);
constexpr auto kRefresh = std::chrono::milliseconds(200);

// "42%", or the time spent for a phase without measurable steps.
std::string formatProgress(uint64_t done, uint64_t total, double phaseSeconds) {
  char text[32];
  if (total == 0) {
    std::snprintf(text, sizeof text, "%.1f s", phaseSeconds);
  } else {
    std::snprintf(text, sizeof text, "%3d%%", int(double(done) * 100.0 / double(total)));
  }
  return text;
}

}  // namespace

Progress::Progress() : phaseStart_(std::chrono::steady_clock::now()) {
  if (::isatty(STDERR_FILENO)) thread_ = std::thread([this] { run(); });
}

Progress::~Progress() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
  // Erase the line so later messages start on a clean one.
  if (drawn_) std::fputs("\r\033[K", stderr);
}

void Progress::phase(std::string name, uint64_t total) {
  std::lock_guard<std::mutex> lock(mutex_);
  name_ = std::move(name);
  total_ = total;
  done_ = 0;
  phaseStart_ = std::chrono::steady_clock::now();
}

void Progress::advance(uint64_t done) {
  std::lock_guard<std::mutex> lock(mutex_);
  done_ = done;
}

void Progress::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (wake_.wait_for(lock, kDelay, [this] { return stop_; })) return;
  do {
    draw();
  } while (!wake_.wait_for(lock, kRefresh, [this] { return stop_; }));
}

void Progress::draw() {
  if (name_.empty()) return;
  const std::chrono::duration<double> phaseTime = std::chrono::steady_clock::now() - phaseStart_;
  std::fprintf(stderr, "\r\033[Kvkscan: %s %s", name_.c_str(),
               formatProgress(done_, total_, phaseTime.count()).c_str());
  std::fflush(stderr);
  drawn_ = true;
}

}  // namespace vkscan::cli
