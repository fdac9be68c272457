// vkscan demo: the examples of DirectML's DML_CUMULATIVE_SUMMATION_OPERATOR_DESC
// page, computed on the device and checked against the page's answers.
#include <cstdio>
#include <string>

#include "commands.hpp"
#include "failure.hpp"

namespace vkscan::cli {

const char* const kDemoHelp =
    "usage: vkscan demo\n"
    "\n"
    "Runs the examples of DirectML's cumulative summation documentation (plus an\n"
    "exclusive sum in decreasing direction) on the device, printing each input,\n"
    "its parameters, the result and the expected result. Exits with 0 if every\n"
    "result matches, 1 otherwise.\n";

namespace {

constexpr uint32_t kRows = 3;
constexpr uint32_t kColumns = 4;
using Matrix = float[kRows][kColumns];

const Matrix kInput = {{2, 1, 3, 5}, {3, 8, 7, 3}, {9, 6, 2, 4}};

struct Example {
  const char* title;
  uint32_t axis;
  AxisDirection direction;
  bool exclusive;
  Matrix expected;
};

const Example kExamples[] = {
    {"Example 1. Cumulative summation across horizontal slivers",
     3,
     AxisDirection::Increasing,
     false,
     {{2, 3, 6, 11}, {3, 11, 18, 21}, {9, 15, 17, 21}}},
    {"Example 2. Exclusive sums",
     3,
     AxisDirection::Increasing,
     true,
     {{0, 2, 3, 6}, {0, 3, 11, 18}, {0, 9, 15, 17}}},
    {"Example 3. Axis direction",
     3,
     AxisDirection::Decreasing,
     false,
     {{11, 9, 8, 5}, {21, 18, 10, 3}, {21, 12, 6, 4}}},
    {"Example 4. Summing along a different axis",
     2,
     AxisDirection::Increasing,
     false,
     {{2, 1, 3, 5}, {5, 9, 10, 8}, {14, 15, 12, 12}}},
    {"Exclusive sums in decreasing direction",
     3,
     AxisDirection::Decreasing,
     true,
     {{9, 8, 5, 0}, {18, 10, 3, 0}, {12, 6, 4, 0}}},
};

void printMatrix(const char* label, const Matrix& m) {
  for (uint32_t r = 0; r < kRows; ++r) {
    std::printf("  %-10s%s", r == 0 ? label : "", r == 0 ? "[[[[" : "   [");
    for (uint32_t c = 0; c < kColumns; ++c) std::printf(c == 0 ? "%2g" : ", %2g", double(m[r][c]));
    std::printf(r + 1 == kRows ? "]]]]\n" : "],\n");
  }
}

}  // namespace

int demoCommand(const std::vector<std::string>& args, const GlobalOptions& global) {
  if (!args.empty()) {
    throw Failure(kExitUsage, "demo takes no arguments, got '" + args[0] + "'");
  }
  const Device device = openDevice(global);
  std::printf("Device: %s\n\n", capabilities(device).deviceName.c_str());
  std::printf("InputTensor: (Sizes:{1,1,%u,%u}, DataType:FLOAT32)\n", kRows, kColumns);
  printMatrix("", kInput);

  int failures = 0;
  for (const Example& example : kExamples) {
    CumulativeSummationDesc desc;
    desc.input.dataType = DataType::Float32;
    desc.input.sizes = {1, 1, kRows, kColumns};
    desc.output = desc.input;
    desc.axis = example.axis;
    desc.axisDirection = example.direction;
    desc.hasExclusiveSum = example.exclusive;

    Matrix result = {};
    run(device, desc, kInput, result);
    bool match = true;
    for (uint32_t r = 0; r < kRows; ++r) {
      for (uint32_t c = 0; c < kColumns; ++c)
        match = match && result[r][c] == example.expected[r][c];
    }
    failures += match ? 0 : 1;

    std::printf("\n%s\n", example.title);
    std::printf("  Axis: %u  AxisDirection: %s  HasExclusiveSum: %s\n", example.axis,
                example.direction == AxisDirection::Increasing ? "INCREASING" : "DECREASING",
                example.exclusive ? "TRUE" : "FALSE");
    printMatrix("result:", result);
    printMatrix("expected:", example.expected);
    std::printf("  %s\n", match ? "ok" : "MISMATCH");
  }
  checkValidation(device, global);

  const int total = int(sizeof kExamples / sizeof kExamples[0]);
  std::printf("\n%d of %d examples match\n", total - failures, total);
  return failures == 0 ? kExitSuccess : kExitFailure;
}

}  // namespace vkscan::cli
