// One "+" of the canonical order on the host, bit for bit as the kernels'
// combine() (kernels/common.glsl): the chunked scan composes the carries of
// its chunks with it.
#pragma once

#include <vkscan/vkscan.hpp>

namespace vkscan::detail {

// combine(earlier, later) of `operation` on values of the accumulation type
// `type` (carryType()): FLOAT32, FLOAT64 or an integer type.
void combineCanonical(ScanOperation operation, DataType type, const void* earlier,
                      const void* later, void* result);

// The operation's identity in `type`.
void identityCanonical(ScanOperation operation, DataType type, void* result);

}  // namespace vkscan::detail
