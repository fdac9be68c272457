#include "output_file.hpp"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace vkscan::cli {
namespace {

[[noreturn]] void throwErrno(const char* what) {
  throw std::system_error(errno, std::generic_category(), what);
}

// The temporary files' names for the signal handler, which may only call
// async-signal-safe functions: fixed buffers, each published by a flag. A
// command writes at most two files at once (values and indices).
constexpr int kMaxTemporaries = 2;
char gTemporaryPaths[kMaxTemporaries][PATH_MAX];
volatile sig_atomic_t gHaveTemporary[kMaxTemporaries] = {};

extern "C" void removeTemporaryAndDie(int signal) {
  for (int slot = 0; slot < kMaxTemporaries; ++slot) {
    if (gHaveTemporary[slot]) ::unlink(gTemporaryPaths[slot]);
  }
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

// A slot no open OutputFile holds.
int takeSlot() {
  for (int slot = 0; slot < kMaxTemporaries; ++slot) {
    if (!gHaveTemporary[slot]) return slot;
  }
  throw std::system_error(EMFILE, std::generic_category(), "too many output files at once");
}

void installSignalHandlers() {
  for (int signal : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) {
    struct sigaction action = {};
    action.sa_handler = removeTemporaryAndDie;
    sigemptyset(&action.sa_mask);
    ::sigaction(signal, &action, nullptr);
  }
}

// A new file gets the permissions open(O_CREAT, 0666) would give it, as
// numpy's would; a replaced file keeps its own.
mode_t outputMode(const std::string& target) {
  struct stat status;
  if (::stat(target.c_str(), &status) == 0) return status.st_mode & 07777;
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

// The file that open(path, O_CREAT) would write: the end of path's chain of
// symbolic links, which need not exist yet (numpy creates a dangling link's
// target). The kernel's own limit on links in a chain applies.
std::string endOfLinks(std::string path) {
  for (int links = 0; links <= 40; ++links) {
    struct stat status;
    if (::lstat(path.c_str(), &status) != 0 || !S_ISLNK(status.st_mode)) return path;
    std::error_code error;
    std::filesystem::path next = std::filesystem::read_symlink(path, error);
    if (error) throw std::system_error(error, "cannot resolve symbolic link");
    if (next.is_relative()) next = std::filesystem::path(path).parent_path() / next;
    path = next.string();
  }
  throw std::system_error(ELOOP, std::generic_category(), "cannot resolve symbolic link");
}

}  // namespace

OutputFile::OutputFile(const std::string& path) : target_(endOfLinks(path)) {
  const std::filesystem::path target(target_);
  directory_ = target.has_parent_path() ? target.parent_path().string() : ".";
  temporary_ =
      (std::filesystem::path(directory_) / ("." + target.filename().string() + ".XXXXXX")).string();
  if (temporary_.size() >= sizeof(gTemporaryPaths[0])) {
    throw std::system_error(ENAMETOOLONG, std::generic_category(), "cannot create");
  }
  installSignalHandlers();
  const int slot = takeSlot();
  fd_ = ::mkostemp(temporary_.data(), O_CLOEXEC);
  if (fd_ < 0) throwErrno("cannot create a file in the output directory");
  std::memcpy(gTemporaryPaths[slot], temporary_.c_str(), temporary_.size() + 1);
  slot_ = slot;
  gHaveTemporary[slot] = 1;
  if (::fchmod(fd_, outputMode(target_)) != 0) {
    const int error = errno;
    discard();
    throw std::system_error(error, std::generic_category(), "cannot set permissions");
  }
}

OutputFile::~OutputFile() {
  discard();
}

void OutputFile::discard() noexcept {
  if (fd_ >= 0) {
    ::close(fd_);
    ::unlink(temporary_.c_str());
    gHaveTemporary[slot_] = 0;
    fd_ = -1;
  }
}

void OutputFile::writeAt(uint64_t offset, const void* data, size_t size) {
  const auto* bytes = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::pwrite(fd_, bytes, size, off_t(offset));
    if (n < 0) {
      if (errno == EINTR) continue;
      throwErrno("write failed");
    }
    bytes += n;
    offset += uint64_t(n);
    size -= size_t(n);
  }
}

void OutputFile::write(const void* data, size_t size) {
  const auto* bytes = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd_, bytes, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      throwErrno("write failed");
    }
    bytes += n;
    size -= size_t(n);
  }
}

void OutputFile::commit() {
  if (::fsync(fd_) != 0) throwErrno("fsync failed");
  if (::rename(temporary_.c_str(), target_.c_str()) != 0) throwErrno("cannot rename into place");
  gHaveTemporary[slot_] = 0;
  ::close(fd_);
  fd_ = -1;
  // The data is durable already; without the directory sync only the new
  // name could be lost in a power cut, so a failure here is not worth
  // reporting a successful run as failed.
  const int dir = ::open(directory_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

}  // namespace vkscan::cli
