// Streams an .npy file: the header first, so the caller can check it and
// allocate once, then the data straight into the caller's memory.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <functional>
#include <string>

#include "npy.hpp"

namespace vkscan::npy {

class NpyReader {
 public:
  // Opens `path` read-only and reads its header. For a regular file, also
  // checks that its size is exactly the header plus the data the header
  // describes. Throws std::system_error (errno) if the file cannot be opened
  // or read, NpyError if it is not a valid .npy of a supported type.
  explicit NpyReader(const std::string& path);
  ~NpyReader();
  NpyReader(const NpyReader&) = delete;
  NpyReader& operator=(const NpyReader&) = delete;

  const Header& header() const noexcept { return header_; }

  // The opened file's identity (st_dev, st_ino), to tell whether another
  // path names the same file.
  const struct stat& fileStatus() const noexcept { return status_; }

  // Reads the header().dataBytes() bytes of data into `destination`, calling
  // `progress(bytesRead)` after each chunk. Call at most once. Throws
  // NpyError if the file ends early or has bytes past the data,
  // std::system_error if a read fails.
  void readData(void* destination, const std::function<void(uint64_t)>& progress);

  // The open file and where its data starts, to map it instead of reading
  // it (streaming).
  int fd() const noexcept { return fd_; }
  uint64_t dataStart() const noexcept { return dataOffset_; }

 private:
  // Reads up to `size` bytes, fewer only at end of file.
  size_t readFully(void* destination, size_t size);

  int fd_ = -1;
  struct stat status_ = {};
  Header header_;
  uint64_t dataOffset_ = 0;
};

}  // namespace vkscan::npy
