#include "tuning/tuning_override.hpp"

#include <charconv>
#include <cstdlib>
#include <limits>
#include <string>
#include <vkscan/vkscan.hpp>

namespace vkscan::detail {
namespace {

constexpr const char* kField = "VKSCAN_TUNING";

[[noreturn]] void refuse(const std::string& entry, const std::string& why) {
  throw InvalidArgument(kField, "'" + entry + "': " + why);
}

uint64_t count(const std::string& entry, const std::string& value, uint64_t least, uint64_t most) {
  uint64_t parsed = 0;
  const char* end = value.data() + value.size();
  auto [stop, error] = std::from_chars(value.data(), end, parsed);
  if (value.empty() || error != std::errc() || stop != end) refuse(entry, "not a count");
  if (parsed < least || parsed > most) {
    refuse(entry, "out of range (" + std::to_string(least) + " to " + std::to_string(most) + ")");
  }
  return parsed;
}

template <typename T>
void setOnce(std::optional<T>& slot, T value, const std::string& entry) {
  if (slot.has_value()) refuse(entry, "named twice");
  slot = value;
}

}  // namespace

TuningOverride parseTuningOverride(const std::string& text) {
  TuningOverride result;
  result.text = text;
  if (text.empty()) return result;
  constexpr uint64_t kU32 = std::numeric_limits<uint32_t>::max();
  size_t start = 0;
  for (;;) {
    size_t comma = text.find(',', start);
    std::string entry = text.substr(start, comma == std::string::npos ? comma : comma - start);
    size_t equals = entry.find('=');
    if (equals == std::string::npos) refuse(entry, "expected NAME=VALUE");
    std::string name = entry.substr(0, equals);
    std::string value = entry.substr(equals + 1);
    if (name == "planner") {
      if (value != "gpu" && value != "cpu") refuse(entry, "expected gpu or cpu");
      setOnce(result.deviceClass, value == "gpu" ? DeviceClass::Gpu : DeviceClass::Cpu, entry);
    } else if (name == "lookbackPolls") {
      setOnce(result.lookbackPolls, static_cast<uint32_t>(count(entry, value, 0, kU32)), entry);
    } else if (name == "rowsWorkgroupSize") {
      // Rows tiles are whole subtrees of the canonical order.
      if (value != "16" && value != "256") refuse(entry, "expected 16 or 256");
      setOnce(result.rowsWorkgroupSize, value == "16" ? 16u : 256u, entry);
    } else if (name == "rowsStagedNodes") {
      setOnce(result.rowsStagedNodes, count(entry, value, 0, 1) == 1, entry);
    } else if (name == "rowsLinesFastest") {
      setOnce(result.rowsLinesFastest, count(entry, value, 0, 1) == 1, entry);
    } else if (name == "columnsScalarLines") {
      setOnce(result.columnsScalarLines, count(entry, value, 1, kU32), entry);
    } else if (name == "columnsOneTile") {
      setOnce(result.columnsOneTile, count(entry, value, 0, 1) == 1, entry);
    } else if (name == "columnsWorkgroupSize") {
      // Lanes of lines: a sixteenth of the workgroup, at least 4.
      if (value != "64" && value != "128" && value != "256") {
        refuse(entry, "expected 64, 128 or 256");
      }
      setOnce(result.columnsWorkgroupSize, static_cast<uint32_t>(std::stoul(value)), entry);
    } else if (name == "chunkTargetInvocations") {
      setOnce(result.chunkTargetInvocations, count(entry, value, 1, kU32), entry);
    } else if (name == "wholeLineInvocations") {
      setOnce(result.wholeLineInvocations, count(entry, value, 1, kU32), entry);
    } else if (name == "chunkSmallProblem") {
      setOnce(result.chunkSmallProblem, count(entry, value, 0, kU32), entry);
    } else {
      refuse(entry,
             "no such knob (planner, lookbackPolls, rowsWorkgroupSize, rowsStagedNodes, "
             "rowsLinesFastest, columnsScalarLines, columnsOneTile, columnsWorkgroupSize, "
             "chunkTargetInvocations, wholeLineInvocations, chunkSmallProblem)");
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return result;
}

TuningOverride tuningOverrideFromEnvironment() {
  const char* value = std::getenv(kField);
  return parseTuningOverride(value != nullptr ? value : "");
}

void applyTuningOverride(Tuning& tuning, uint32_t maxWorkgroupInvocations,
                         const TuningOverride& tuningOverride) {
  const TuningOverride& o = tuningOverride;
  if (o.lookbackPolls) tuning.lookbackPolls = *o.lookbackPolls;
  auto workgroup = [&](const char* name, uint32_t size) {
    if (size > maxWorkgroupInvocations) {
      throw InvalidArgument(kField, std::string(name) + "=" + std::to_string(size) +
                                        ": the device allows workgroups of " +
                                        std::to_string(maxWorkgroupInvocations));
    }
    return size;
  };
  if (o.rowsWorkgroupSize) {
    tuning.rowsWorkgroupSize = workgroup("rowsWorkgroupSize", *o.rowsWorkgroupSize);
  }
  if (o.rowsStagedNodes) tuning.rowsStagedNodes = *o.rowsStagedNodes;
  if (o.rowsLinesFastest) tuning.rowsLinesFastest = *o.rowsLinesFastest;
  if (o.columnsScalarLines) tuning.columnsScalarLines = *o.columnsScalarLines;
  if (o.columnsOneTile) tuning.columnsOneTile = *o.columnsOneTile;
  if (o.columnsWorkgroupSize) {
    tuning.columnsWorkgroupSize = workgroup("columnsWorkgroupSize", *o.columnsWorkgroupSize);
  }
  if (o.chunkTargetInvocations) tuning.chunkTargetInvocations = *o.chunkTargetInvocations;
  if (o.wholeLineInvocations) tuning.wholeLineInvocations = *o.wholeLineInvocations;
  if (o.chunkSmallProblem) tuning.chunkSmallProblem = *o.chunkSmallProblem;
}

Tuning tunedFor(DeviceClass deviceClass, uint32_t subgroupSize, uint32_t maxWorkgroupInvocations,
                CpuThreads cpuThreads, const TuningOverride& tuningOverride) {
  Tuning tuning = tuningFor(tuningOverride.deviceClass.value_or(deviceClass), subgroupSize,
                            maxWorkgroupInvocations, cpuThreads);
  applyTuningOverride(tuning, maxWorkgroupInvocations, tuningOverride);
  return tuning;
}

}  // namespace vkscan::detail
