// VKSCAN_TUNING: a diagnostic that replaces some of a device's tuning values
// ("planner=cpu,lookbackPolls=16"), so that a benchmark on a GPU compares
// plans in one run, without a rebuild (scripts/gpu-check.sh, step
// `variants`). Every value still computes the canonical order: it changes
// speed only, as the tests' profiles do.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "tuning/tuning.hpp"

namespace vkscan::detail {

struct TuningOverride {
  std::string text;                        // as given; empty: no override
  std::optional<DeviceClass> deviceClass;  // "planner": gpu or cpu
  std::optional<uint32_t> lookbackPolls;
  std::optional<uint32_t> rowsWorkgroupSize;  // 16 or 256
  std::optional<bool> rowsStagedNodes;        // 0 or 1
  std::optional<bool> rowsLinesFastest;       // 0 or 1
  std::optional<uint64_t> columnsScalarLines;
  std::optional<bool> columnsOneTile;            // 0 or 1
  std::optional<uint32_t> columnsWorkgroupSize;  // 64, 128 or 256
  std::optional<uint64_t> chunkTargetInvocations;
  std::optional<uint64_t> wholeLineInvocations;
  std::optional<uint64_t> chunkSmallProblem;
};

// Parses comma-separated NAME=VALUE entries, each name at most once.
// Throws InvalidArgument (field "VKSCAN_TUNING") naming the entry at fault.
TuningOverride parseTuningOverride(const std::string& text);

// The environment's VKSCAN_TUNING, parsed; no override where it is unset or
// empty.
TuningOverride tuningOverrideFromEnvironment();

// The override's values set on `tuning` (all but its device class, which
// chooses the tuning they apply to). Throws InvalidArgument (field
// "VKSCAN_TUNING") for a rowsWorkgroupSize or columnsWorkgroupSize past
// maxWorkgroupInvocations, leaving `tuning` partly set.
void applyTuningOverride(Tuning& tuning, uint32_t maxWorkgroupInvocations,
                         const TuningOverride& tuningOverride);

// tuningFor() of the override's device class, or else `deviceClass`, with the
// override's values (applyTuningOverride()).
Tuning tunedFor(DeviceClass deviceClass, uint32_t subgroupSize, uint32_t maxWorkgroupInvocations,
                CpuThreads cpuThreads, const TuningOverride& tuningOverride);

}  // namespace vkscan::detail
