// How a command ends when it cannot do its job: an exit code and the one line
// main() prints after "vkscan: ".
#pragma once

#include <stdexcept>
#include <string>

namespace vkscan::cli {

enum ExitCode : int {
  kExitSuccess = 0,
  // The system failed at something valid: the device, a read or a write.
  kExitFailure = 1,
  // The command line or the input is wrong; the user can fix it.
  kExitUsage = 2,
};

class Failure : public std::runtime_error {
 public:
  Failure(ExitCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ExitCode code() const noexcept { return code_; }

 private:
  ExitCode code_;
};

// A path that does not name something usable (missing, not a directory,
// permission denied, read-only) is the user's to fix; any other errno is a
// failure of the system.
ExitCode exitCodeForErrno(int error) noexcept;

}  // namespace vkscan::cli
