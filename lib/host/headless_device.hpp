// Devices vkscan creates itself; vkscan::createDevice() (host.hpp) with the
// one choice vkscan's tests make beside the options.
#pragma once

#include <vkscan/host.hpp>

#include "device/vector_words.hpp"

namespace vkscan::detail {

// createDevice(options), its kernels on `vectorWords` where not null (tests
// run every form on one machine) instead of the device class's choice.
Device createDevice(const DeviceOptions& options, const VectorWords* vectorWords);

}  // namespace vkscan::detail
