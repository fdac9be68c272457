// The commands of the vkscan tool. Each takes the arguments after its name
// (global options removed), returns the exit code and throws Failure,
// vkscan::Error or std::system_error for main() to report.
#pragma once

#include <string>
#include <vector>

#include "vkscan/vkscan.hpp"

namespace vkscan::cli {

// Options valid before or after any command.
struct GlobalOptions {
  int deviceIndex = -1;
  bool validation = false;
};

// The vector words of the tool's scans (cumsum, demo): Bits64, the form every
// GPU takes. On CPU devices Automatic times copies in each form at start-up,
// 0.3 s of a 0.5 s scan of a small file on lavapipe, which a process that
// scans once never earns back; results are the same bits in every form.
inline constexpr VectorWords kScanVectorWords = VectorWords::Bits64;

// The device a command runs on, with `words` as DeviceOptions::vectorWords.
// With --validation, throws Failure(kExitFailure) if the layer is not
// installed, before any work: a run that no layer watched has not shown that
// it is correct.
Device openDevice(const GlobalOptions& global, VectorWords words);

// With --validation, throws Failure(kExitFailure) if the layer reported
// anything: a run with validation errors has not shown that it is correct.
void checkValidation(const Device& device, const GlobalOptions& global);

int demoCommand(const std::vector<std::string>& args, const GlobalOptions& global);
int cumsumCommand(const std::vector<std::string>& args, const GlobalOptions& global);
int infoCommand(const std::vector<std::string>& args, const GlobalOptions& global);

extern const char* const kDemoHelp;
extern const char* const kCumsumHelp;
extern const char* const kInfoHelp;

// Throws Failure(kExitUsage) unless `text` is a whole decimal integer.
long long parseInteger(const std::string& option, const std::string& text);

}  // namespace vkscan::cli
