// Storage buffers that may alias, said in the SPIR-V. The chunk kernels bind
// input, output and aux as storage buffers that are one range in place (and
// on scratch for the carry passes). glslang decorates no GLSL buffer
// Aliased, and without it a Vulkan compiler may take two bindings for
// distinct memory: an exclusive output in place, which does not depend on
// the element it overwrites, may then be stored before that element is read.
// Nor may a binding be NonWritable (GLSL's readonly): on an H200 (driver
// 580) exclusive scans in place still read outputs with Aliased alone,
// as a compiler may then take the memory for unchanging during the dispatch.
#pragma once

#include <cstdint>
#include <vector>

namespace vkscan::detail {

// Adds `OpDecorate %v Aliased` for every StorageBuffer variable of `words`
// (a SPIR-V module) that is decorated neither Aliased nor Restrict, at the
// start of the module's annotations, and removes every NonWritable
// decoration. Returns how many Aliased it added. Throws Error for words that
// are no well-formed module.
uint32_t declareStorageBuffersAliased(std::vector<uint32_t>& words);

}  // namespace vkscan::detail
