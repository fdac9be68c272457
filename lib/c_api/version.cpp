#include <vkscan/vkscan.h>

#include <vkscan/vkscan.hpp>

extern "C" uint32_t vkscan_version(void) {
  return vkscan::version();
}
