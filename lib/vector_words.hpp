// DeviceOptions::vectorWords: what Automatic means on a device.
#pragma once

#include "device_impl.hpp"

namespace vkscan::detail {

// Throws InvalidArgument("options.vectorWords") for a value outside the enum.
void validateVectorWords(VectorWords words);

// Bits32, Bits64 or Load64Store32 for `device`, whose capabilities, tables,
// pipeline layout and queue are set up and whose options.vectorWords has
// been validated. Without shaderInt64 it is Bits32, whatever was asked.
// Automatic times word_copy.comp in the three forms only on a headless device
// (ownsDevice: vkscan's own queue) that is a CPU implementation with
// VK_KHR_push_descriptor and shaderInt64; the outcome is kept for the
// process, per physical device and driver. Throws VulkanError if the timing
// fails, Unsupported if its buffers find no host-visible memory; nothing is
// left allocated either way.
VectorWords resolveVectorWords(Device::Impl& device);

}  // namespace vkscan::detail
