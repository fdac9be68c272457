#include "device/vector_words.hpp"

namespace vkscan::detail {

const char* vectorWordsName(VectorWords words) noexcept {
  switch (words) {
    case VectorWords::Bits64:
      return "Bits64";
    case VectorWords::Load64Store32:
      return "Load64Store32";
  }
  return "UNKNOWN";
}

VectorWords vectorWordsFor(const DeviceCapabilities& caps) noexcept {
  // note: a GPU loads and stores 16 bytes either way.
  bool cpu = caps.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
  return cpu && caps.pushDescriptor && caps.shaderInt64 ? VectorWords::Load64Store32
                                                        : VectorWords::Bits64;
}

}  // namespace vkscan::detail
