// Optional: a hint that only CPU implementations of Vulkan (such as Mesa's
// lavapipe) use. GPUs ignore it; results are the same bits either way. An
// engine for GPUs never needs this header.
#pragma once

#include "vkscan.hpp"

namespace vkscan {

// Operator::record() with a uniform texel buffer view of the input, through
// which the kernels read it on a CPU implementation (lavapipe gathers texel
// fetches, where it loads storage buffers one lane at a time).
//
// inputTexelView: a view of input.buffer from input.offset, format
// VK_FORMAT_R32G32B32A32_UINT, whose range covers at least the input's
// totalBytes() rounded down to 16 (or VK_WHOLE_SIZE); the buffer then also
// needs VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT. The caller owns the view and
// keeps it alive until the recorded work completes. It is ignored on GPUs, in
// place where the plan takes a single pass with look-back, where the tensor
// spans more than maxTexelBufferElements texels, and where input.offset is
// not a multiple of minStorageBufferOffsetAlignment. vkscan cannot query a
// view, so one that breaks this contract gives wrong results, not an error.
// With VK_NULL_HANDLE this is record() itself. Throws as record(); with a
// view, pipeline compute descriptor set 0 (binding 3) is pushed too.
VKSCAN_API void recordWithInputTexels(const Operator& op, VkCommandBuffer commandBuffer,
                                      const BufferBinding& input, VkBufferView inputTexelView,
                                      const BufferBinding& output,
                                      const BufferBinding& scratch = {});

}  // namespace vkscan
