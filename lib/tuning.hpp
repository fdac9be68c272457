// Tuning constants, as data keyed by what they depend on. They change speed
// only: every choice here computes the same canonical order.
#pragma once

#include <cstdint>

namespace vkscan::detail {

struct Tuning {
  // Rows kernels: 256 invocations (a 4096-element tile) where the device
  // allows it, else 16 (a 256-element tile). Both are whole subtrees of the
  // canonical order, which is why nothing in between is offered.
  uint32_t rowsWorkgroupSize;
  // Columns kernels: invocations per workgroup.
  uint32_t columnsWorkgroupSize;
  // Columns kernels shrink their chunks (16^3 -> 16^2 -> 16) until at least
  // this many invocations run, trading an extra pass for parallelism.
  uint64_t columnsTargetInvocations;
  // A strided axis goes to the columns kernels only with this many lines to
  // spread across invocations; fewer lines scan faster as rows.
  uint64_t columnsMinLines;
};

inline Tuning tuningFor(uint32_t subgroupSize, uint32_t maxWorkgroupInvocations) {
  Tuning tuning{};
  tuning.rowsWorkgroupSize = maxWorkgroupInvocations >= 256 ? 256 : 16;
  uint32_t columns = subgroupSize >= 64 ? subgroupSize : 64;
  tuning.columnsWorkgroupSize = columns <= maxWorkgroupInvocations ? columns : maxWorkgroupInvocations;
  // Wide-subgroup GPUs want more threads in flight than CPU-like devices.
  tuning.columnsTargetInvocations = subgroupSize >= 32 ? (1u << 17) : (1u << 13);
  tuning.columnsMinLines = 32;
  return tuning;
}

}  // namespace vkscan::detail
