#include "failure.hpp"

#include <cerrno>

namespace vkscan::cli {

ExitCode exitCodeForErrno(int error) noexcept {
  switch (error) {
    case ENOENT:
    case ENOTDIR:
    case EISDIR:
    case EACCES:
    case EPERM:
    case EROFS:
    case ENAMETOOLONG:
    case ELOOP:
      return kExitUsage;
    default:
      return kExitFailure;
  }
}

}  // namespace vkscan::cli
