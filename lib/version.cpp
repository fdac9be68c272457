#include <vkscan/vkscan.hpp>

namespace vkscan {

uint32_t version() noexcept {
  return VKSCAN_VERSION;
}

}  // namespace vkscan
