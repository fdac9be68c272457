// The push-constant block is declared once for C++ and GLSL; these checks
// pin the C++ layout to GLSL's std430 rules.
#include "scan_params.h"

#include <cstddef>

namespace vkscan::detail {

static_assert(offsetof(ScanParams, inAddr) == 0);
static_assert(offsetof(ScanParams, auxAddr) == 16);
static_assert(offsetof(ScanParams, inAxisStride) == 24);
static_assert(offsetof(ScanParams, inLineStride) == 40);
static_assert(offsetof(ScanParams, outLineStride) == 64);
static_assert(offsetof(ScanParams, lineSize) == 88);
static_assert(offsetof(ScanParams, axisLen) == 100);
static_assert(offsetof(ScanParams, flags) == 120);
static_assert(offsetof(ScanParams, lookbackBlock) == 124);
static_assert(sizeof(ScanParams) <= 128, "must fit the 128-byte push-constant minimum");

}  // namespace vkscan::detail
