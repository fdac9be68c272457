// vkscan plan: the dispatches a descriptor takes, with their modeled bytes,
// on the real device or on a named device profile (vkscan/plans.hpp).
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vkscan/plans.hpp>

#include "commands.hpp"
#include "failure.hpp"

namespace vkscan::cli {

const char* const kPlanHelp =
    "usage: vkscan plan SIZES --axis N --dtype T [--operation OP] [--exclusive]\n"
    "                   [--reverse] [--strides S] [--output-strides S]\n"
    "                   [--output-dtype T] [--indices] [--carry-in] [--totals]\n"
    "                   [--profile NAME] [--json]\n"
    "\n"
    "Prints the plan vkscan makes for an array of SIZES (e.g. 4096x4096 or\n"
    "268435456), packed unless --strides says otherwise: each dispatch's kernel,\n"
    "workgroups and the bytes it reads and writes by vkscan's traffic model, the\n"
    "scratch, and the traffic ratio (bytes moved over twice the array's bytes; 1\n"
    "reads and writes it once).\n"
    "\n"
    "  --axis N        the axis to scan along (required); negative counts from\n"
    "                  the last axis, as in numpy\n"
    "  --dtype T       float16 bfloat16 float32 float64 int32 uint32 int64 uint64\n"
    "                  (or the .npy codes f2 <f4 ..., or FLOAT32 ...) (required)\n"
    "  --operation OP  sum (the default), product, maximum, minimum or\n"
    "                  log-sum-exp (float dtypes only); also prod, max, min,\n"
    "                  logsumexp, the commands' names (cumsum ... logcumsumexp)\n"
    "                  or the library's (SUM ... LOG_SUM_EXP)\n"
    "  --exclusive     leave each element out of its own result\n"
    "  --reverse       scan from the end of the axis towards its start\n"
    "  --strides S     the input's strides in elements, one per dimension, written\n"
    "                  as SIZES are (1x4096: a 4096x4096 array in Fortran order);\n"
    "                  0 broadcasts. Default: packed (row-major)\n"
    "  --output-strides S\n"
    "                  the output's strides (default: the input's, or packed where\n"
    "                  those broadcast)\n"
    "  --output-dtype T\n"
    "                  a wider output type than --dtype (int32 to int64, uint32 to\n"
    "                  uint64, float16 and bfloat16 to float32, float32 to\n"
    "                  float64): one more pass\n"
    "  --indices       maximum and minimum: each element's index too (INT64, in\n"
    "                  the output's layout)\n"
    "  --carry-in      each line continues from a carry-in (a long line scanned\n"
    "                  in chunks: the library's ScanDesc::carryIn, packed)\n"
    "  --totals        each line's total written out too (ScanDesc::totals)\n"
    "  --profile NAME  plan for a device profile instead of the real device, with\n"
    "                  no Vulkan device needed: nvidia amd amd-wave32 intel\n"
    "                  intel-simd16 mali apple lavapipe\n"
    "  --json          print one JSON object: profile, operation (SUM PRODUCT\n"
    "                  MAXIMUM MINIMUM LOG_SUM_EXP), dispatches (kernel,\n"
    "                  workgroups [x,y,z], workgroup_size, staged_tiles,\n"
    "                  scalar_lanes, tiles_across_lines, bytes_read,\n"
    "                  bytes_written), scratch_bytes,\n"
    "                  bytes_moved, tensor_bytes, traffic_ratio\n";

namespace {

struct PlanArgs {
  std::string sizes;
  long long axis = 0;
  bool axisGiven = false;
  std::string dtype;
  std::string operation = "sum";
  bool exclusive = false;
  bool reverse = false;
  // Absent where not given (an empty value is given, and refused).
  std::optional<std::string> strides;
  std::optional<std::string> outputStrides;
  std::optional<std::string> outputType;
  bool indices = false;
  bool carryIn = false;
  bool totals = false;
  std::string profile;
  bool json = false;
};

// Takes an option's value, as "--name value" or "--name=value".
bool optionValue(const std::vector<std::string>& args, size_t& i, const std::string& name,
                 std::string& value) {
  const std::string& arg = args[i];
  if (arg == name) {
    if (i + 1 == args.size()) throw Failure(kExitUsage, name + " needs a value");
    value = args[++i];
    return true;
  }
  if (arg.rfind(name + "=", 0) == 0) {
    value = arg.substr(name.size() + 1);
    return true;
  }
  return false;
}

PlanArgs parseArgs(const std::vector<std::string>& args) {
  PlanArgs parsed;
  std::vector<std::string> positional;
  bool optionsEnded = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    std::string value;
    if (optionsEnded || arg.size() < 2 || arg[0] != '-') {
      positional.push_back(arg);
    } else if (arg == "--") {
      optionsEnded = true;
    } else if (arg == "--exclusive") {
      parsed.exclusive = true;
    } else if (arg == "--reverse") {
      parsed.reverse = true;
    } else if (arg == "--indices") {
      parsed.indices = true;
    } else if (arg == "--carry-in") {
      parsed.carryIn = true;
    } else if (arg == "--totals") {
      parsed.totals = true;
    } else if (arg == "--json") {
      parsed.json = true;
    } else if (optionValue(args, i, "--axis", value)) {
      parsed.axis = parseInteger("--axis", value);
      parsed.axisGiven = true;
    } else if (optionValue(args, i, "--dtype", value)) {
      parsed.dtype = value;
    } else if (optionValue(args, i, "--strides", value)) {
      parsed.strides = value;
    } else if (optionValue(args, i, "--output-strides", value)) {
      parsed.outputStrides = value;
    } else if (optionValue(args, i, "--output-dtype", value)) {
      parsed.outputType = value;
    } else if (optionValue(args, i, "--operation", value)) {
      parsed.operation = value;
    } else if (optionValue(args, i, "--profile", value)) {
      parsed.profile = value;
    } else {
      throw Failure(kExitUsage, "plan: unknown option '" + arg + "' (see vkscan plan --help)");
    }
  }
  if (positional.size() != 1) {
    throw Failure(kExitUsage, "plan needs one SIZES argument, got " +
                                  std::to_string(positional.size()) + " (see vkscan plan --help)");
  }
  if (!parsed.axisGiven) throw Failure(kExitUsage, "plan needs --axis");
  if (parsed.dtype.empty()) throw Failure(kExitUsage, "plan needs --dtype");
  parsed.sizes = positional[0];
  return parsed;
}

// "4096x4096": decimal numbers between x's, each at most 2^32 - 1; `what` names
// the argument ("SIZES '4096x4096'") and `kind` its numbers ("sizes such as
// 4096x4096") in the refusal.
std::vector<uint32_t> parseDimensions(const std::string& text, const std::string& what,
                                      const std::string& kind) {
  std::vector<uint32_t> values;
  size_t start = 0;
  while (true) {
    size_t end = text.find('x', start);
    std::string part =
        text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    bool digits = !part.empty() && part.size() <= 10 &&
                  part.find_first_not_of("0123456789") == std::string::npos;
    unsigned long long value = digits ? std::stoull(part) : 0;
    if (!digits || value > 0xFFFFFFFFull) {
      throw Failure(kExitUsage, what + " is not " + kind + ", each from 0 to 4294967295");
    }
    values.push_back(static_cast<uint32_t>(value));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return values;
}

std::vector<uint32_t> parseSizes(const std::string& text) {
  std::vector<uint32_t> sizes =
      parseDimensions(text, "SIZES '" + text + "'", "sizes such as 4096x4096");
  if (sizes.size() > kMaxDimensions) {
    throw Failure(kExitUsage, "SIZES '" + text + "' has " + std::to_string(sizes.size()) +
                                  " dimensions, more than the " + std::to_string(kMaxDimensions) +
                                  " vkscan supports");
  }
  return sizes;
}

// `option`'s strides, one per dimension of an array of `rank`.
std::vector<uint32_t> parseStrides(const std::string& option, const std::string& text,
                                   size_t rank) {
  std::vector<uint32_t> strides =
      parseDimensions(text, option + " '" + text + "'", "strides such as 1x4096");
  if (strides.size() != rank) {
    throw Failure(kExitUsage, option + " '" + text + "' has " + std::to_string(strides.size()) +
                                  (strides.size() == 1 ? " stride" : " strides") + " for " +
                                  std::to_string(rank) + " dimension" + (rank == 1 ? "" : "s"));
  }
  return strides;
}

// The operation `text` names.
ScanOperation parseOperation(const std::string& text) {
  static const struct {
    ScanOperation operation;
    const char* names[4];
  } kOperations[] = {
      {ScanOperation::Sum, {"sum", "cumsum", "SUM", nullptr}},
      {ScanOperation::Product, {"product", "prod", "cumprod", "PRODUCT"}},
      {ScanOperation::Maximum, {"maximum", "max", "cummax", "MAXIMUM"}},
      {ScanOperation::Minimum, {"minimum", "min", "cummin", "MINIMUM"}},
      {ScanOperation::LogSumExp, {"log-sum-exp", "logsumexp", "logcumsumexp", "LOG_SUM_EXP"}},
  };
  for (const auto& entry : kOperations) {
    for (const char* name : entry.names) {
      if (name != nullptr && text == name) return entry.operation;
    }
  }
  throw Failure(kExitUsage, "--operation '" + text +
                                "' is not one of sum product maximum minimum log-sum-exp (see "
                                "vkscan plan --help)");
}

std::string withThousands(uint64_t value) {
  std::string digits = std::to_string(value);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(size_t(i), ",");
  return digits;
}

void printReport(const PlanReport& report) {
  std::printf("profile: %s\n", report.profile.c_str());
  std::printf("operation: %s\n", scanOperationName(report.operation));
  std::printf("%zu dispatch%s, scratch %s bytes\n", report.dispatches.size(),
              report.dispatches.size() == 1 ? "" : "es",
              withThousands(report.scratchBytes).c_str());
  for (const PlannedDispatch& d : report.dispatches) {
    // Input or output and scratch always; the other tensors where touched.
    std::string reads = "input " + withThousands(d.inputBytesRead);
    if (d.outputBytesRead != 0) reads += ", output " + withThousands(d.outputBytesRead);
    if (d.indicesBytesRead != 0) reads += ", indices " + withThousands(d.indicesBytesRead);
    if (d.carryInBytesRead != 0) reads += ", carry-in " + withThousands(d.carryInBytesRead);
    reads += ", scratch " + withThousands(d.scratchBytesRead);
    std::string writes = "output " + withThousands(d.outputBytesWritten);
    if (d.indicesBytesWritten != 0) writes += ", indices " + withThousands(d.indicesBytesWritten);
    if (d.totalsBytesWritten != 0) writes += ", totals " + withThousands(d.totalsBytesWritten);
    writes += ", scratch " + withThousands(d.scratchBytesWritten);
    if (d.fillBytes != 0) writes += ", of which filled " + withThousands(d.fillBytes);
    std::printf(
        "  %s %s: workgroups %ux%ux%u of %u%s%s, reads %s B (%s), writes %s B (%s)\n",
        d.kernel.c_str(), dataTypeName(d.dataType), d.workgroups[0], d.workgroups[1],
        d.workgroups[2], d.workgroupSize,
        d.stagedTiles ? ", tiles staged" : (d.scalarLanes ? ", lanes element by element" : ""),
        d.tilesAcrossLines ? ", tiles across lines first" : "", withThousands(d.bytesRead).c_str(),
        reads.c_str(), withThousands(d.bytesWritten).c_str(), writes.c_str());
  }
  std::printf("bytes moved: %s, tensor bytes: %s, traffic ratio: %.4f\n",
              withThousands(report.bytesMoved).c_str(), withThousands(report.tensorBytes).c_str(),
              report.trafficRatio);
}

}  // namespace

int planCommand(const std::vector<std::string>& args, const GlobalOptions& global) {
  const PlanArgs parsed = parseArgs(args);
  ScanDesc desc;
  desc.operation = parseOperation(parsed.operation);
  desc.input.dataType = parseDataType("--dtype", parsed.dtype);
  const DataType type = desc.input.dataType;
  // Refused before a device starts, as the scan commands do.
  if (desc.operation == ScanOperation::LogSumExp && type != DataType::Float16 &&
      type != DataType::BFloat16 && type != DataType::Float32 && type != DataType::Float64) {
    throw Failure(kExitUsage, "--operation " + parsed.operation +
                                  " takes float dtypes (float16 bfloat16 float32 float64), not " +
                                  parsed.dtype);
  }
  desc.input.sizes = parseSizes(parsed.sizes);
  const long long rank = static_cast<long long>(desc.input.sizes.size());
  if (parsed.axis < -rank || parsed.axis >= rank) {
    throw Failure(kExitUsage, "--axis " + std::to_string(parsed.axis) + " is out of range for " +
                                  std::to_string(rank) + " dimension" + (rank == 1 ? "" : "s"));
  }
  desc.axis = static_cast<uint32_t>(parsed.axis < 0 ? parsed.axis + rank : parsed.axis);
  if (parsed.strides) {
    desc.input.strides = parseStrides("--strides", *parsed.strides, desc.input.sizes.size());
  }
  desc.output = desc.input;
  // A broadcast input's layout would overlap the output with itself.
  bool broadcasts = std::find(desc.input.strides.begin(), desc.input.strides.end(), 0u) !=
                    desc.input.strides.end();
  if (broadcasts) desc.output.strides.clear();
  if (parsed.outputStrides) {
    desc.output.strides =
        parseStrides("--output-strides", *parsed.outputStrides, desc.input.sizes.size());
  }
  if (parsed.outputType) {
    desc.output.dataType = parseDataType("--output-dtype", *parsed.outputType);
  }
  if (parsed.indices) desc.indices = {DataType::Int64, desc.output.sizes, desc.output.strides};
  desc.axisDirection = parsed.reverse ? AxisDirection::Decreasing : AxisDirection::Increasing;
  desc.exclusive = parsed.exclusive;
  TensorDesc lines{carryType(desc.output.dataType), desc.input.sizes, {}};
  lines.sizes[desc.axis] = 1;
  if (parsed.carryIn) desc.carryIn = lines;
  if (parsed.totals) desc.totals = lines;

  PlanReport report;
  if (!parsed.profile.empty()) {
    try {
      report = planFor(desc, parsed.profile);
    } catch (const InvalidArgument& e) {
      if (e.field() != "profile") throw;
      throw Failure(kExitUsage, "--profile " + e.reason());
    } catch (const Unsupported& e) {
      // A type the profile's device lacks: the user's choice, no device failed.
      throw Failure(kExitUsage, e.what());
    }
  } else {
    Device device = openDevice(global);
    report = planOf(device.createOperator(desc));
    checkValidation(device, global);
  }
  if (parsed.json) {
    std::printf("%s\n", toJson(report).c_str());
  } else {
    printReport(report);
  }
  return kExitSuccess;
}

}  // namespace vkscan::cli
