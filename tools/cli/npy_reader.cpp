#include "npy_reader.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>

namespace vkscan::npy {
namespace {

// Large enough that the syscall cost vanishes, small enough for smooth
// progress.
constexpr size_t kChunkSize = size_t(16) << 20;

[[noreturn]] void throwErrno(const char* what) {
  throw std::system_error(errno, std::generic_category(), what);
}

std::string truncatedMessage(uint64_t expected, uint64_t actual) {
  return "truncated: header says " + std::to_string(expected) + " bytes of data, file has " +
         std::to_string(actual);
}

}  // namespace

NpyReader::NpyReader(const std::string& path) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throwErrno("cannot open");
  if (::fstat(fd_, &status_) != 0) {
    const int error = errno;
    ::close(fd_);
    throw std::system_error(error, std::generic_category(), "cannot stat");
  }
  try {
    if (S_ISDIR(status_.st_mode)) throw std::system_error(EISDIR, std::generic_category());
    std::string bytes(kMaxPreambleSize, '\0');
    bytes.resize(readFully(bytes.data(), bytes.size()));
    dataOffset_ = dataOffset(bytes);
    const size_t have = bytes.size();
    bytes.resize(dataOffset_);
    bytes.resize(have + readFully(bytes.data() + have, dataOffset_ - have));
    header_ = parseHeader(bytes);
    const uint64_t expected = header_.dataBytes();
    if (S_ISREG(status_.st_mode)) {
      const uint64_t actual = uint64_t(status_.st_size) - dataOffset_;
      if (actual < expected) throw NpyError(truncatedMessage(expected, actual));
      if (actual > expected) {
        throw NpyError("header says " + std::to_string(expected) + " bytes of data, file has " +
                       std::to_string(actual) + " (" + std::to_string(actual - expected) +
                       " bytes too many)");
      }
    }
  } catch (...) {
    ::close(fd_);
    throw;
  }
}

NpyReader::~NpyReader() {
  ::close(fd_);
}

size_t NpyReader::readFully(void* destination, size_t size) {
  auto* out = static_cast<char*>(destination);
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::read(fd_, out + done, size - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      throwErrno("read failed");
    }
    if (n == 0) break;
    done += size_t(n);
  }
  return done;
}

void NpyReader::readData(void* destination, const std::function<void(uint64_t)>& progress) {
  const uint64_t total = header_.dataBytes();
  auto* out = static_cast<char*>(destination);
  uint64_t done = 0;
  while (done < total) {
    const size_t want = size_t(std::min<uint64_t>(kChunkSize, total - done));
    const size_t got = readFully(out + done, want);
    done += got;
    if (got < want) throw NpyError(truncatedMessage(total, done));
    progress(done);
  }
  // A pipe's length is only known at its end; a regular file was checked on
  // open but may have grown since.
  char extra;
  if (readFully(&extra, 1) != 0) {
    throw NpyError("header says " + std::to_string(total) +
                   " bytes of data, file has more after them");
  }
}

}  // namespace vkscan::npy
