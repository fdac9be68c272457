#include <vkscan/vkscan.hpp>

namespace vkscan {

const char* scanOperationName(ScanOperation operation) noexcept {
  switch (operation) {
    case ScanOperation::Sum:
      return "SUM";
    case ScanOperation::Product:
      return "PRODUCT";
    case ScanOperation::Maximum:
      return "MAXIMUM";
    case ScanOperation::Minimum:
      return "MINIMUM";
    case ScanOperation::LogSumExp:
      return "LOG_SUM_EXP";
  }
  return "UNKNOWN";
}

}  // namespace vkscan
