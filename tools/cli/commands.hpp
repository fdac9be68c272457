// The commands of the vkscan tool. Each takes the arguments after its name
// (global options removed), returns the exit code and throws Failure,
// vkscan::Error or std::system_error for main() to report.
#pragma once

#include <string>
#include <vector>

#include "vkscan/host.hpp"

namespace vkscan::cli {

// Options valid before or after any command.
struct GlobalOptions {
  int deviceIndex = -1;
  bool validation = false;
};

// The device a command runs on. With --validation, throws Failure(kExitFailure) if the layer is not
// installed, before any work: a run that no layer watched has not shown that
// it is correct.
Device openDevice(const GlobalOptions& global);

// With --validation, throws Failure(kExitFailure) if the layer reported
// anything: a run with validation errors has not shown that it is correct.
void checkValidation(const Device& device, const GlobalOptions& global);

int demoCommand(const std::vector<std::string>& args, const GlobalOptions& global);
int infoCommand(const std::vector<std::string>& args, const GlobalOptions& global);
int planCommand(const std::vector<std::string>& args, const GlobalOptions& global);

// cumsum, cumprod, cummax, cummin and logcumsumexp: one command, the scan's operation its
// parameter (scan.cpp).
int scanCommand(ScanOperation operation, const std::vector<std::string>& args,
                const GlobalOptions& global);
const char* scanCommandName(ScanOperation operation);
std::string scanHelp(ScanOperation operation);

extern const char* const kDemoHelp;
extern const char* const kInfoHelp;
extern const char* const kPlanHelp;

// The DataType `text` names (float16 bfloat16 float32 float64 int32 uint32
// int64 uint64, or numpy's f2 <f4 ...); throws Failure(kExitUsage) naming
// `option` otherwise.
DataType parseDataType(const std::string& option, const std::string& text);

// Throws Failure(kExitUsage) unless `text` is a whole decimal integer.
long long parseInteger(const std::string& option, const std::string& text);

}  // namespace vkscan::cli
