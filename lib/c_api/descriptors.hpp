// The C API's descriptors read into the C++ ones, which then validate them
// as for any C++ caller; only what C alone can get wrong is checked here.
#pragma once

#include <vkscan/vkscan.h>

#include <vkscan/vkscan.hpp>

namespace vkscan::detail::c_api {

// Throws InvalidArgument naming the field for a null pointer, a struct_size
// of another version, a dimension_count past 1..8 or a has_exclusive_sum
// other than VK_TRUE or VK_FALSE.
CumulativeSummationDesc toCpp(const vkscan_cumulative_summation_desc* desc);
// The same, with exclusive or has_exclusive_product in has_exclusive_sum's
// place; C++'s validation names an unknown operation ("operation").
ScanDesc toCpp(const vkscan_scan_desc* desc);
CumulativeProductDesc toCpp(const vkscan_cumulative_product_desc* desc);

// operator_cache_capacity as C++ counts it: a zeroed C struct means the
// default, VKSCAN_NO_OPERATOR_CACHE none.
size_t operatorCacheCapacity(size_t capacity) noexcept;

}  // namespace vkscan::detail::c_api
