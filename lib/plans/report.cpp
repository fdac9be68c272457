// planFor(), planOf() and toJson() (include/vkscan/plans.hpp): a plan with
// its modeled traffic, from a profile's limits or from an operator.
#include <charconv>
#include <cstdio>
#include <vkscan/plans.hpp>

#include "device/device_impl.hpp"
#include "operator/operator_impl.hpp"
#include "plan/limits.hpp"
#include "plan/plan.hpp"
#include "plan/traffic.hpp"
#include "problem.hpp"
#include "tuning/tuning_override.hpp"

namespace vkscan {
namespace {

PlanReport reportOf(const detail::Plan& plan, const ScanDesc& desc, std::string profile) {
  using detail::BufferRole;
  PlanReport report;
  report.profile = std::move(profile);
  report.operation = desc.operation;
  report.scratchBytes = plan.scratchBytes;
  report.tensorBytes = desc.input.elementCount() * dataTypeSize(desc.input.dataType);
  for (const detail::Dispatch& dispatch : plan.dispatches) {
    detail::DispatchTraffic traffic = detail::dispatchTraffic(dispatch);
    PlannedDispatch planned;
    planned.kernel = detail::stageName(dispatch.pipeline.stage);
    planned.dataType = dispatch.pipeline.type;
    planned.workgroups[0] = dispatch.groupsX;
    planned.workgroups[1] = dispatch.groupsY;
    planned.workgroups[2] = 1;
    planned.workgroupSize = dispatch.pipeline.workgroupSize;
    planned.stagedTiles = dispatch.pipeline.stagedNodes;
    planned.scalarLanes =
        dispatch.pipeline.stage == detail::Stage::ColumnsOnePass && dispatch.pipeline.scalarLanes;
    planned.tilesAcrossLines = (dispatch.params.flags & VKSCAN_FLAG_LINES_FASTEST) != 0u;
    auto read = [&](BufferRole role) { return traffic.read[static_cast<size_t>(role)]; };
    auto written = [&](BufferRole role) { return traffic.written[static_cast<size_t>(role)]; };
    planned.inputBytesRead = read(BufferRole::Input);
    planned.outputBytesRead = read(BufferRole::Output);
    planned.indicesBytesRead = read(BufferRole::Indices);
    planned.carryInBytesRead = read(BufferRole::CarryIn);
    planned.scratchBytesRead = read(BufferRole::Scratch);
    planned.outputBytesWritten = written(BufferRole::Output);
    planned.indicesBytesWritten = written(BufferRole::Indices);
    planned.totalsBytesWritten = written(BufferRole::Totals);
    planned.scratchBytesWritten = written(BufferRole::Scratch);
    planned.fillBytes = traffic.fillBytes;
    planned.bytesRead = traffic.bytesRead();
    planned.bytesWritten = traffic.bytesWritten();
    report.bytesMoved += planned.bytesRead + planned.bytesWritten;
    report.dispatches.push_back(std::move(planned));
  }
  if (report.tensorBytes != 0) {
    report.trafficRatio =
        static_cast<double>(report.bytesMoved) / (2.0 * static_cast<double>(report.tensorBytes));
  }
  return report;
}

const DeviceProfile& findProfile(const std::string& name) {
  for (const DeviceProfile& profile : deviceProfiles()) {
    if (profile.name == name) return profile;
  }
  std::string names;
  for (const std::string& known : profileNames()) names += (names.empty() ? "" : ", ") + known;
  throw InvalidArgument("profile", "'" + name + "' is no device profile (" + names + ")");
}

// As createOperator()'s checks of what the device can do.
void checkProfileSupports(const ScanDesc& desc, const DeviceProfile& profile) {
  for (const auto& [tensor, field] : {std::pair{&desc.input, "input"}, {&desc.output, "output"}}) {
    if (tensor->dataType == DataType::Float64 && !profile.shaderFloat64) {
      throw Unsupported(std::string(field) + ".dataType: FLOAT64 is not supported by profile " +
                        profile.name + " (FLOAT64 needs shaderFloat64)");
    }
  }
  if (profile.shaderInt64) return;
  for (const auto& [tensor, field] : {std::pair{&desc.input, "input"}, {&desc.output, "output"}}) {
    if (tensor->totalBytes() > kMaxTensorBytesWithoutInt64) {
      throw Unsupported(std::string(field) + ": the tensor spans " +
                        std::to_string(tensor->totalBytes()) + " bytes; profile " + profile.name +
                        " has no shaderInt64, without which vkscan addresses at most 2^30 bytes");
    }
  }
}

void appendNumber(std::string& text, uint64_t value) {
  text += std::to_string(value);
}

// JSON strings: quotes, backslashes and control characters escaped.
void appendString(std::string& text, const std::string& value) {
  text += '"';
  for (char c : value) {
    if (c == '"' || c == '\\') {
      text += '\\';
      text += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
      text += escaped;
    } else {
      text += c;
    }
  }
  text += '"';
}

}  // namespace

PlanReport planFor(const CumulativeSummationDesc& desc, const std::string& profileName) {
  return planFor(scanDesc(desc), profileName);
}

PlanReport planFor(const ScanDesc& desc, const std::string& profileName) {
  const DeviceProfile& profile = findProfile(profileName);
  detail::Problem problem = detail::normalize(desc);
  checkProfileSupports(desc, profile);
  detail::PlanLimits limits = detail::planLimitsOf(profile);
  detail::CpuThreads threads;
  threads.workers = profile.cpuWorkers;
  threads.busy = profile.cpuWorkers;
  detail::Tuning tuning = detail::tunedFor(
      profile.cpuDevice ? detail::DeviceClass::Cpu : detail::DeviceClass::Gpu, profile.subgroupSize,
      profile.maxComputeWorkGroupInvocations, threads, detail::tuningOverrideFromEnvironment());
  return reportOf(detail::makePlan(problem, limits, tuning), desc, profile.name);
}

PlanReport planOf(const Operator& op) {
  const Operator::Impl& impl = Device::Access::impl(op);
  return reportOf(impl.plan, impl.desc, impl.device->capabilities.deviceName);
}

std::string toJson(const PlanReport& report) {
  std::string text = "{\"profile\":";
  appendString(text, report.profile);
  text += ",\"operation\":";
  appendString(text, scanOperationName(report.operation));
  text += ",\"dispatches\":[";
  for (size_t i = 0; i < report.dispatches.size(); ++i) {
    const PlannedDispatch& d = report.dispatches[i];
    text += i == 0 ? "{\"kernel\":" : ",{\"kernel\":";
    appendString(text, d.kernel);
    text += ",\"workgroups\":[";
    for (int axis = 0; axis < 3; ++axis) {
      if (axis != 0) text += ',';
      appendNumber(text, d.workgroups[axis]);
    }
    text += "],\"workgroup_size\":";
    appendNumber(text, d.workgroupSize);
    text += d.stagedTiles ? ",\"staged_tiles\":true" : ",\"staged_tiles\":false";
    text += d.scalarLanes ? ",\"scalar_lanes\":true" : ",\"scalar_lanes\":false";
    text += d.tilesAcrossLines ? ",\"tiles_across_lines\":true" : ",\"tiles_across_lines\":false";
    text += ",\"bytes_read\":";
    appendNumber(text, d.bytesRead);
    text += ",\"bytes_written\":";
    appendNumber(text, d.bytesWritten);
    text += '}';
  }
  text += "],\"scratch_bytes\":";
  appendNumber(text, report.scratchBytes);
  text += ",\"bytes_moved\":";
  appendNumber(text, report.bytesMoved);
  text += ",\"tensor_bytes\":";
  appendNumber(text, report.tensorBytes);
  text += ",\"traffic_ratio\":";
  // Shortest round-trip form, independent of the locale.
  char ratio[32];
  auto result = std::to_chars(ratio, ratio + sizeof ratio, report.trafficRatio);
  text.append(ratio, result.ptr);
  text += '}';
  return text;
}

}  // namespace vkscan
