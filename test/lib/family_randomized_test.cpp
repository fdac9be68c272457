// The scan family at random: every operation, type, wider output, indices,
// carry-in and totals, direction and exclusive mode, on ranks 1 to 8, padded,
// permuted (input and output apart: transposing scans) and broadcast layouts
// and in place, each case on one test profile, against the CPU reference bit
// for bit (output, indices and totals, gaps of strided tensors included). On
// profiles with GPU tuning, half the cases plan under drawn knobs of the GPU
// planner. The fixed suites reach each path with chosen shapes; this one
// meets the combinations they leave out.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "descriptors.hpp"
#include "device/device_impl.hpp"
#include "reference.hpp"
#include "test_device.hpp"
#include "tuning/tuning_override.hpp"

using namespace vkscan;

namespace {

const ScanOperation kOperations[] = {ScanOperation::Sum, ScanOperation::Product,
                                     ScanOperation::Maximum, ScanOperation::Minimum,
                                     ScanOperation::LogSumExp};
const DataType kTypes[] = {DataType::Float32, DataType::Float16, DataType::Int32,
                           DataType::UInt32,  DataType::Int64,   DataType::UInt64,
                           DataType::Float64, DataType::BFloat16};
const DataType kFloats[] = {DataType::Float32, DataType::Float16, DataType::Float64,
                            DataType::BFloat16};

// The type `type` widens to (outputTypeWidens()), or `type` where none.
DataType widened(DataType type) {
  switch (type) {
    case DataType::Int32:
      return DataType::Int64;
    case DataType::UInt32:
      return DataType::UInt64;
    case DataType::Float16:
    case DataType::BFloat16:
      return DataType::Float32;
    case DataType::Float32:
      return DataType::Float64;
    default:
      return type;
  }
}

// Element strides of `sizes` in the dimension order `order` (innermost
// first), starting at `first` and padding each dimension by 0 or 1.
std::vector<uint32_t> stridesIn(const std::vector<uint32_t>& sizes,
                                const std::vector<uint32_t>& order, uint32_t first,
                                std::mt19937_64& pick) {
  std::vector<uint32_t> strides(sizes.size(), 0);
  uint32_t stride = first;
  for (uint32_t d : order) {
    strides[d] = stride;
    stride *= std::max<uint32_t>(1, sizes[d]) + pick() % 2;
  }
  return strides;
}

std::string describeTensor(const TensorDesc& tensor) {
  if (tensor.sizes.empty()) return "none";
  std::string text = dataTypeName(tensor.dataType);
  for (size_t d = 0; d < tensor.strides.size(); ++d) {
    text += (d == 0 ? " strides " : "x") + std::to_string(tensor.strides[d]);
  }
  return text;
}

struct Drawn {
  ScanDesc desc;
  bool inPlace = false;
  // The GPU planner's knobs as VKSCAN_TUNING sets them for the GPU check's
  // A/B steps ("" for half the cases); a profile with GPU tuning plans the
  // case under them.
  std::string knobs;
};

// One case from `seed`: a descriptor createOperator() accepts, by the rules of
// include/vkscan/vkscan.hpp (indices only for maximum and minimum, inclusive,
// not widened, not with carries; in place only for equal types and layouts).
Drawn draw(uint64_t seed, bool& longAxis) {
  std::mt19937_64 pick(seed);
  Drawn drawn;
  ScanDesc& desc = drawn.desc;
  desc.operation = kOperations[pick() % std::size(kOperations)];
  desc.input.dataType = desc.operation == ScanOperation::LogSumExp
                            ? kFloats[pick() % std::size(kFloats)]
                            : kTypes[pick() % std::size(kTypes)];
  uint32_t rank = 1 + pick() % 8;
  desc.axis = pick() % rank;
  std::vector<uint32_t>& sizes = desc.input.sizes;
  for (uint32_t d = 0; d < rank; ++d) {
    sizes.push_back(1 + pick() % (rank <= 2 ? 600 : (rank <= 4 ? 12 : 4)));
  }
  // Now and then an axis of several one-pass tiles (4096 elements), so that
  // every operation meets the look-back and multi-pass plans.
  longAxis = pick() % 8 == 0;
  if (longAxis) sizes[desc.axis] = 4096 + pick() % 12288;
  test::fitElements(desc.input, desc.axis, 1 << 14);
  if (pick() % 32 == 0) sizes[pick() % rank] = 0;
  desc.output = desc.input;
  if (pick() % 4 == 0) desc.output.dataType = widened(desc.input.dataType);
  const bool widens = desc.output.dataType != desc.input.dataType;
  desc.axisDirection = pick() % 2 ? AxisDirection::Decreasing : AxisDirection::Increasing;
  desc.exclusive = pick() % 2;
  const bool extremum =
      desc.operation == ScanOperation::Maximum || desc.operation == ScanOperation::Minimum;
  const bool indices = extremum && !widens && !desc.exclusive && pick() % 3 == 0;
  drawn.inPlace = !widens && !indices && pick() % 4 == 0;
  // Permuted (e.g. Fortran) order with padding, the output's sometimes a
  // different one (a transposing scan), sometimes a broadcast input
  // dimension; in place keeps the packed layout both tensors share.
  std::vector<uint32_t> order(rank);
  for (uint32_t d = 0; d < rank; ++d) order[d] = d;
  uint32_t layout = drawn.inPlace ? 0 : pick() % 3;
  if (layout > 0) {
    std::shuffle(order.begin(), order.end(), pick);
    desc.input.strides = stridesIn(sizes, order, 1 + pick() % 2, pick);
    if (pick() % 2) std::shuffle(order.begin(), order.end(), pick);
    desc.output.strides = stridesIn(sizes, order, 1 + pick() % 2, pick);
    if (layout == 2) desc.input.strides[pick() % rank] = 0;
  }
  if (indices) desc.indices = {DataType::Int64, sizes, desc.output.strides};
  // Carry-in and totals: a value per line, packed or in the tensors' order
  // with padding.
  for (TensorDesc* lines : {&desc.carryIn, &desc.totals}) {
    if (indices || pick() % 3 != 0) continue;
    lines->dataType = carryType(desc.output.dataType);
    lines->sizes = sizes;
    lines->sizes[desc.axis] = 1;
    if (pick() % 2) lines->strides = stridesIn(lines->sizes, order, 1 + pick() % 2, pick);
  }
  if (pick() % 2) {
    // The third choice keeps the profile's own columns workgroup (256, or
    // 128 on small-workgroups).
    const char* columnsWorkgroups[] = {"columnsWorkgroupSize=64,", "columnsWorkgroupSize=128,", ""};
    const char* polls[] = {"0", "1", "256"};
    const char* scalarLines[] = {"1", "4", "16"};
    drawn.knobs = pick() % 4 == 0 ? "rowsWorkgroupSize=16," : "";
    drawn.knobs += columnsWorkgroups[pick() % 3];
    drawn.knobs += "rowsStagedNodes=" + std::to_string(pick() % 2);
    drawn.knobs += ",rowsLinesFastest=" + std::to_string(pick() % 2);
    drawn.knobs += ",columnsOneTile=" + std::to_string(pick() % 2);
    drawn.knobs += std::string(",lookbackPolls=") + polls[pick() % 3];
    drawn.knobs += std::string(",columnsScalarLines=") + scalarLines[pick() % 3];
  }
  return drawn;
}

void check(const Drawn& drawn, uint64_t seed, test::Profile profile) {
  const ScanDesc& desc = drawn.desc;
  CAPTURE(test::describe(desc));
  const std::string profileName = test::profileName(profile);
  CAPTURE(profileName);
  CAPTURE(seed);
  CAPTURE(drawn.inPlace);
  const std::string indices = describeTensor(desc.indices);
  const std::string carryIn = describeTensor(desc.carryIn);
  const std::string totals = describeTensor(desc.totals);
  CAPTURE(indices);
  CAPTURE(carryIn);
  CAPTURE(totals);
  Device& device = test::testDevice(profile);
  Device::Impl& impl = Device::Access::impl(device);
  test::ScopedRestore<detail::Tuning> restoreTuning(impl.tuning);
  const bool tuned = !drawn.knobs.empty() && impl.tuning.deviceClass == detail::DeviceClass::Gpu;
  const std::string knobs = tuned ? drawn.knobs : "";
  CAPTURE(knobs);
  if (tuned) {
    detail::applyTuningOverride(impl.tuning, impl.capabilities.maxComputeWorkGroupInvocations,
                                detail::parseTuningOverride(knobs));
  }
  const size_t inSize = dataTypeSize(desc.input.dataType);
  const size_t outSize = dataTypeSize(desc.output.dataType);
  const size_t lineSize = dataTypeSize(carryType(desc.output.dataType));
  std::vector<uint8_t> input = test::randomOperands(desc.operation, desc.input.dataType,
                                                    desc.input.spanBytes() / inSize + 1, seed);
  input.resize(desc.input.spanBytes());
  std::vector<uint8_t> carries;
  const bool hasCarryIn = !desc.carryIn.sizes.empty();
  const bool hasTotals = !desc.totals.sizes.empty();
  const bool hasIndices = !desc.indices.sizes.empty();
  if (hasCarryIn) {
    carries = test::randomOperands(desc.operation, desc.carryIn.dataType,
                                   desc.carryIn.spanBytes() / lineSize + 1, seed + 1);
    carries.resize(desc.carryIn.spanBytes());
  }
  std::vector<uint8_t> output =
      drawn.inPlace ? input : std::vector<uint8_t>(desc.output.spanBytes(), 0xA5);
  std::vector<uint8_t> indexBytes(hasIndices ? desc.indices.spanBytes() : 0, 0x5A);
  std::vector<uint8_t> totalBytes(hasTotals ? desc.totals.spanBytes() : 0, 0x5A);
  std::vector<uint8_t> expected = output;
  std::vector<uint8_t> expectedIndices = indexBytes;
  std::vector<uint8_t> expectedTotals = totalBytes;
  test::referenceScan(desc, input, expected, hasIndices ? &expectedIndices : nullptr,
                      hasCarryIn ? &carries : nullptr, hasTotals ? &expectedTotals : nullptr);

  RunData data;
  data.input = drawn.inPlace ? output.data() : input.data();
  data.output = output.data();
  data.indices = hasIndices ? indexBytes.data() : nullptr;
  data.carryIn = hasCarryIn ? carries.data() : nullptr;
  data.totals = hasTotals ? totalBytes.data() : nullptr;
  run(device, desc, data);

  int64_t difference = test::firstDifference(output, expected, outSize);
  int64_t indexDifference = test::firstDifference(indexBytes, expectedIndices, 8);
  int64_t totalsDifference = test::firstDifference(totalBytes, expectedTotals, lineSize);
  CAPTURE(difference);
  CAPTURE(indexDifference);
  CAPTURE(totalsDifference);
  const std::string mismatch = test::describeDifference(output, expected, outSize);
  CAPTURE(mismatch);
  const bool wrong = difference != -1 || indexDifference != -1 || totalsDifference != -1;
  const std::string plan = wrong ? device.createOperator(desc).describe() : "";
  CAPTURE(plan);
  CHECK(difference == -1);
  CHECK(indexDifference == -1);
  CHECK(totalsDifference == -1);
}

}  // namespace

TEST_CASE("randomized: the scan family, with wider outputs, indices, carry-in and totals") {
  std::mt19937_64 rng(20261206);
  const int cases = test::randomizedCases(std::getenv("VKSCAN_RANDOMIZED_CASES"), 150);
  const std::vector<test::Profile> profiles = test::testedProfiles();
  int longAxes = 0;
  for (int c = 0; c < cases; ++c) {
    uint64_t seed = rng();
    bool longAxis = false;
    Drawn drawn = draw(seed, longAxis);
    longAxes += longAxis;
    check(drawn, seed, profiles[c % profiles.size()]);
  }
  MESSAGE(cases << " cases, " << longAxes << " with a long axis");
  CHECK(longAxes >= cases / 16);
}
