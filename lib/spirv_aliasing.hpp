// Storage buffers that may alias, said in the SPIR-V. The chunk kernels bind
// input, output and aux as storage buffers that are one range in place (and
// on scratch for the carry passes). glslang decorates no GLSL buffer
// Aliased, and without it a Vulkan compiler may take two bindings for
// distinct memory: an exclusive output in place, which does not depend on
// the element it overwrites, may then be stored before that element is read.
#pragma once

#include <cstdint>
#include <vector>

namespace vkscan::detail {

// Adds `OpDecorate %v Aliased` for every StorageBuffer variable of `words`
// (a SPIR-V module) that is decorated neither Aliased nor Restrict, at the
// start of the module's annotations. Returns how many it added. Throws
// Error for words that are no well-formed module.
uint32_t declareStorageBuffersAliased(std::vector<uint32_t>& words);

}  // namespace vkscan::detail
