// An output file that appears complete or not at all: data goes to a
// temporary file in the destination's directory, which is synced and renamed
// over the destination only by commit(). A failure, an exception or a signal
// before then leaves the destination as it was. At most two may be open at
// once (a command's values and indices).
#pragma once

#include <cstddef>
#include <string>

namespace vkscan::cli {

class OutputFile {
 public:
  // Creates the temporary file next to `path` (next to the end of its chain
  // of links if `path` is a symbolic link, whether that file exists or not),
  // so the rename stays on one file system. Throws std::system_error if the
  // directory does not exist or is not writable, or if the links loop.
  explicit OutputFile(const std::string& path);
  // Removes the temporary file unless commit() succeeded.
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Throws std::system_error (e.g. ENOSPC).
  void write(const void* data, size_t size);
  // Writes at `offset` from the file's start, leaving write()'s position
  // alone (a stream that computes the end of the file first). Throws
  // std::system_error.
  void writeAt(uint64_t offset, const void* data, size_t size);

  // Syncs the data, renames the temporary file over the destination and
  // syncs the directory. Throws std::system_error.
  void commit();

 private:
  void discard() noexcept;

  std::string target_;
  std::string directory_;
  std::string temporary_;
  int fd_ = -1;
  int slot_ = 0;  // where the signal handler finds temporary_
};

}  // namespace vkscan::cli
