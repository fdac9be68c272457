// Carry-in and line totals (ScanDesc::carryIn, totals): the carry enters the
// canonical order at each line's root and the totals are the top nodes'
// values, bit for bit as the reference computes them; a line scanned in
// chunks of 16^m with carries composed on the host from the chunks' totals
// gives the bits of the line scanned whole; and the descriptors and
// bindings that cannot be accepted are refused.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <iterator>
#include <string>
#include <utility>
#include <vector>
#include <vkscan/plans.hpp>

#include "descriptors.hpp"
#include "device/device_impl.hpp"
#include "host/device_buffer.hpp"
#include "plan/plan.hpp"
#include "plan_invariants.hpp"
#include "problem.hpp"
#include "reference.hpp"
#include "test_device.hpp"

using namespace vkscan;

namespace {

const DataType kTypes[] = {DataType::Float32, DataType::Float16, DataType::BFloat16,
                           DataType::Float64, DataType::Int32,   DataType::UInt32,
                           DataType::Int64,   DataType::UInt64};
const ScanOperation kOperations[] = {ScanOperation::Sum, ScanOperation::Product,
                                     ScanOperation::Maximum, ScanOperation::Minimum,
                                     ScanOperation::LogSumExp};
const uint32_t kLengths[] = {1, 15, 16, 17, 255, 256, 257, 4097, 65537};

bool isFloat(DataType type) {
  return type == DataType::Float32 || type == DataType::Float16 || type == DataType::BFloat16 ||
         type == DataType::Float64;
}

// The line tensor (carryIn or totals) of `desc`: the output's sizes with 1
// along the axis, packed.
TensorDesc lineTensor(const ScanDesc& desc) {
  TensorDesc tensor{carryType(desc.output.dataType), desc.output.sizes, {}};
  tensor.sizes[desc.axis] = 1;
  return tensor;
}

// Layouts of a tensor of `lines` lines of `n`, its line tensors laid out
// likewise: 0 contiguous rows, 1 a strided axis, 2 Fortran order, 3 padded
// rows (and padded line tensors).
ScanDesc layout(DataType type, uint32_t n, uint32_t kind) {
  ScanDesc desc;
  desc.input.dataType = type;
  switch (kind) {
    case 0:
      desc.input.sizes = {3, n};
      desc.axis = 1;
      break;
    case 1:
      desc.input.sizes = {n, 5};
      desc.axis = 0;
      break;
    case 2:
      desc.input.sizes = {4, n};
      desc.input.strides = {1, 4};
      desc.axis = 1;
      break;
    default:
      desc.input.sizes = {3, n};
      desc.input.strides = {n + 8, 1};
      desc.axis = 1;
      break;
  }
  desc.output = desc.input;
  return desc;
}

// Binds carryIn and totals (either may be left out) in the layout's manner.
void bindLines(ScanDesc& desc, uint32_t kind, bool carryIn, bool totals) {
  TensorDesc lines = lineTensor(desc);
  if (kind == 2) lines.strides = {1, 4};
  if (kind == 3) lines.strides = {2, 1};  // every other value: padded
  if (carryIn) desc.carryIn = lines;
  if (totals) desc.totals = lines;
}

struct Result {
  std::vector<uint8_t> output;
  std::vector<uint8_t> totals;
};

// run() with every tensor; the output and totals start as `fill` bytes.
Result runCarried(const ScanDesc& desc, const std::vector<uint8_t>& input,
                  const std::vector<uint8_t>& carryIn, bool inPlace, Device& device) {
  Result result;
  result.output = inPlace ? input : std::vector<uint8_t>(desc.output.spanBytes(), 0xA5);
  if (!desc.totals.sizes.empty()) result.totals.assign(desc.totals.spanBytes(), 0x5A);
  RunData data;
  data.input = inPlace ? result.output.data() : input.data();
  data.output = result.output.data();
  data.carryIn = desc.carryIn.sizes.empty() ? nullptr : carryIn.data();
  data.totals = desc.totals.sizes.empty() ? nullptr : result.totals.data();
  run(device, desc, data);
  return result;
}

// Random operands of the input and the carries, the run on `device` against
// the reference, bit for bit (output and totals).
void check(const ScanDesc& desc, bool inPlace, uint64_t seed, Device& device) {
  CAPTURE(test::describe(desc));
  CAPTURE(inPlace);
  bool carryIn = !desc.carryIn.sizes.empty();
  bool totals = !desc.totals.sizes.empty();
  CAPTURE(carryIn);
  CAPTURE(totals);
  size_t inSize = dataTypeSize(desc.input.dataType);
  DataType lineType = carryType(desc.output.dataType);
  size_t lineSize = dataTypeSize(lineType);
  std::vector<uint8_t> input = test::randomOperands(desc.operation, desc.input.dataType,
                                                    desc.input.spanBytes() / inSize + 1, seed);
  input.resize(desc.input.spanBytes());
  std::vector<uint8_t> carries;
  if (carryIn) {
    carries = test::randomOperands(desc.operation, lineType,
                                   desc.carryIn.spanBytes() / lineSize + 1, seed + 1);
    carries.resize(desc.carryIn.spanBytes());
  }
  Result actual = runCarried(desc, input, carries, inPlace, device);
  std::vector<uint8_t> expected =
      inPlace ? input : std::vector<uint8_t>(actual.output.size(), 0xA5);
  std::vector<uint8_t> expectedTotals(actual.totals.size(), 0x5A);
  test::referenceScan(desc, input, expected, nullptr, carryIn ? &carries : nullptr,
                      totals ? &expectedTotals : nullptr);
  int64_t difference =
      test::firstDifference(actual.output, expected, dataTypeSize(desc.output.dataType));
  CAPTURE(difference);
  int64_t totalsDifference = test::firstDifference(actual.totals, expectedTotals, lineSize);
  CAPTURE(totalsDifference);
  CHECK(difference == -1);
  CHECK(totalsDifference == -1);
}

// The same on a test profile's device.
void check(const ScanDesc& desc, bool inPlace, uint64_t seed, test::Profile profile) {
  const std::string profileName = test::profileName(profile);
  CAPTURE(profileName);
  check(desc, inPlace, seed, test::testDevice(profile));
}

// A host combine of the carry type, as the canonical order's operation
// (include/vkscan/vkscan.hpp): what the test composes chunk carries with.
template <typename T>
T combine(ScanOperation op, T earlier, T later) {
  switch (op) {
    case ScanOperation::Product:
      if constexpr (std::is_floating_point_v<T>) {
        volatile T product = earlier * later;
        return product;
      } else {
        return static_cast<T>(static_cast<uint64_t>(earlier) * static_cast<uint64_t>(later));
      }
    case ScanOperation::Maximum:
    case ScanOperation::Minimum:
      if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(later)) return later;
        if (std::isnan(earlier)) return earlier;
      }
      if (op == ScanOperation::Maximum) return later >= earlier ? later : earlier;
      return later <= earlier ? later : earlier;
    case ScanOperation::LogSumExp:
      if constexpr (std::is_floating_point_v<T>) return test::logSumExp(earlier, later);
      return later;
    default:
      if constexpr (std::is_floating_point_v<T>) {
        volatile T sum = earlier + later;
        return sum;
      } else {
        return static_cast<T>(static_cast<uint64_t>(earlier) + static_cast<uint64_t>(later));
      }
  }
}

template <typename T>
T identityOf(ScanOperation op) {
  switch (op) {
    case ScanOperation::Product:
      return T(1);
    case ScanOperation::Maximum:
    case ScanOperation::LogSumExp:
      return -std::numeric_limits<T>::infinity();
    case ScanOperation::Minimum:
      return std::numeric_limits<T>::infinity();
    default:
      return std::is_floating_point_v<T> ? T(-0.0) : T(0);
  }
}

template <typename T>
T serial(ScanOperation op, const std::vector<T>& values, size_t begin, size_t end) {
  T result = identityOf<T>(op);
  for (size_t i = begin; i < end; ++i) result = combine(op, result, values[i]);
  return result;
}

// The canonical exclusive carries X(j) of values t (level-m values of one
// line: its chunks' totals), by the tree with the identity at the root, and
// the top node's value into *top.
template <typename T>
std::vector<T> composeCarries(ScanOperation op, const std::vector<T>& t, T* top) {
  std::vector<std::vector<T>> level{t};
  do {
    const std::vector<T>& below = level.back();
    std::vector<T> above((below.size() + 15) / 16);
    for (size_t q = 0; q < above.size(); ++q) {
      above[q] = serial(op, below, 16 * q, std::min(below.size(), 16 * q + 16));
    }
    level.push_back(above);
  } while (level.back().size() > 1);
  *top = level.back()[0];
  // X_k(p) = X_{k+1}(p / 16) + L_k(p), the identity at the single node.
  std::vector<T> carry{identityOf<T>(op)};
  for (size_t k = level.size() - 1; k-- > 0;) {
    std::vector<T> below(level[k].size());
    for (size_t p = 0; p < below.size(); ++p) {
      below[p] = combine(op, carry[p / 16], serial(op, level[k], p / 16 * 16, p));
    }
    carry = std::move(below);
  }
  return carry;
}

template <typename T>
std::vector<T> valuesOf(const std::vector<uint8_t>& bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

template <typename T>
std::vector<uint8_t> bytesOf(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

// One line of n scanned whole, then as chunks of 16^m: the full chunks as
// the rows of one tensor and the last, shorter one alone, first for their
// totals, then with the carries composed from them. T is the carry type.
template <typename T>
void checkChunked(ScanOperation op, DataType type, uint32_t n, uint32_t m, bool exclusive,
                  test::Profile profile) {
  const std::string profileName = test::profileName(profile);
  std::string typeName = dataTypeName(type);
  CAPTURE(profileName);
  CAPTURE(typeName);
  CAPTURE(scanOperationName(op));
  CAPTURE(n);
  CAPTURE(m);
  CAPTURE(exclusive);
  Device& device = test::testDevice(profile);
  size_t size = dataTypeSize(type);
  std::vector<uint8_t> input = test::randomOperands(op, type, n, 7 * n + m);
  ScanDesc whole;
  whole.operation = op;
  whole.input = {type, {n}, {}};
  whole.output = whole.input;
  whole.exclusive = exclusive;
  whole.totals = lineTensor(whole);
  Result expected = runCarried(whole, input, {}, false, device);

  uint32_t chunk = 1u << (4 * m);
  uint32_t full = n / chunk;
  uint32_t rest = n - full * chunk;
  ScanDesc rows = whole;
  rows.input = {type, {full, chunk}, {}};
  rows.output = rows.input;
  rows.axis = 1;
  rows.totals = lineTensor(rows);
  ScanDesc last = whole;
  last.input = {type, {rest}, {}};
  last.output = last.input;
  last.totals = lineTensor(last);
  std::vector<uint8_t> rowsInput(input.begin(), input.begin() + size_t{full} * chunk * size);
  std::vector<uint8_t> lastInput(input.begin() + size_t{full} * chunk * size, input.end());
  std::vector<T> chunkTotals = valuesOf<T>(runCarried(rows, rowsInput, {}, false, device).totals);
  if (rest > 0)
    chunkTotals.push_back(valuesOf<T>(runCarried(last, lastInput, {}, false, device).totals)[0]);
  T top{};
  std::vector<T> carries = composeCarries(op, chunkTotals, &top);
  CHECK(std::memcmp(&top, expected.totals.data(), sizeof(T)) == 0);

  rows.carryIn = lineTensor(rows);
  last.carryIn = lineTensor(last);
  std::vector<T> rowCarries(carries.begin(), carries.begin() + full);
  std::vector<uint8_t> output =
      runCarried(rows, rowsInput, bytesOf(rowCarries), false, device).output;
  if (exclusive) {
    // Chunk 0 has no carry-in: its exclusive first output is +0.0 for sums,
    // as the whole line's.
    ScanDesc first = rows;
    first.carryIn = {};
    first.totals = {};
    first.input.sizes = {1, chunk};
    first.output = first.input;
    std::vector<uint8_t> firstInput(rowsInput.begin(), rowsInput.begin() + size_t{chunk} * size);
    std::vector<uint8_t> firstOutput = runCarried(first, firstInput, {}, false, device).output;
    std::copy(firstOutput.begin(), firstOutput.end(), output.begin());
  }
  if (rest > 0) {
    std::vector<uint8_t> lastOutput =
        runCarried(last, lastInput, bytesOf(std::vector<T>{carries.back()}), false, device).output;
    output.insert(output.end(), lastOutput.begin(), lastOutput.end());
  }
  int64_t difference = test::firstDifference(output, expected.output, size);
  CAPTURE(difference);
  CHECK(difference == -1);
}

}  // namespace

// Each operation and type runs once, on one profile, the length, layout,
// mode, bound tensors and profile turning from case to case, so that every
// length meets every layout and every profile runs some of each. Pipelines
// cost lavapipe most of the time here (each is compiled anew on each
// profile's device), so cases are spread rather than repeated;
// test::exhaustive() runs every mode of every case on every profile.
TEST_CASE("carry: carry-in and totals against the reference, every operation and type") {
  std::vector<test::Profile> profiles = test::testedProfiles();
  uint32_t k = 0;
  for (ScanOperation op : kOperations) {
    for (DataType type : kTypes) {
      if (op == ScanOperation::LogSumExp && !isFloat(type)) continue;
      for (uint32_t p = 0; p < profiles.size(); ++p) {
        test::Profile profile = profiles[p];
        if (!test::exhaustive() && p != k % profiles.size()) continue;
        if (!test::testDevice(profile).supports(type)) continue;
        for (uint32_t mode = 0; mode < (test::exhaustive() ? 8u : 1u); ++mode) {
          uint32_t pick = test::exhaustive() ? mode : k % 8;
          uint32_t n = kLengths[k % std::size(kLengths)];
          uint32_t kind = k / std::size(kLengths) % 4;
          ScanDesc desc = layout(type, n, kind);
          desc.operation = op;
          desc.axisDirection = pick % 2 ? AxisDirection::Decreasing : AxisDirection::Increasing;
          desc.exclusive = pick / 2 % 2 == 1;
          bool inPlace = pick / 4 == 1;
          uint32_t bound = k / 8 % 3;  // both, the carry-in alone, the totals alone
          bindLines(desc, kind, bound != 2, bound != 1);
          check(desc, inPlace, k, profile);
        }
      }
      ++k;
    }
  }
}

TEST_CASE("carry: wider outputs take the carry in the output's type") {
  std::vector<test::Profile> profiles = test::testedProfiles();
  const DataType pairs[][2] = {{DataType::Float16, DataType::Float32},
                               {DataType::Int32, DataType::Int64},
                               {DataType::Float32, DataType::Float64}};
  for (uint32_t i = 0; i < std::size(pairs); ++i) {
    test::Profile profile = profiles[(i + 1) % profiles.size()];
    if (!test::testDevice(profile).supports(pairs[i][1])) continue;
    ScanDesc desc = layout(pairs[i][0], kLengths[3 * i + 2], i);
    desc.output.dataType = pairs[i][1];
    desc.operation = i == 1 ? ScanOperation::Sum : ScanOperation::Maximum;
    desc.exclusive = i == 0;
    bindLines(desc, i, true, true);
    check(desc, false, 50 + i, profile);
  }
}

// On GPU plans the one-pass kernels keep carries: each line's carry-in
// enters at its root and its total is written. A contiguous axis takes the
// rows kernels, lines in segments of a workgroup (2 to 256 places: the
// level-1 chain or the level-2 one) or of several tiles in one pass (one
// level of look-back, or two in 16-wide workgroups); a strided one the
// columns kernel (one level or two, or lines of one tile, on vectors and
// off, down to a node), where workgroups hold 256, even where the chunk
// walks would take the lines in one pass.
// Accumulators of 4 and 8 bytes, every mode and binding met.
TEST_CASE("carry: one-pass kernels take carry-ins and give totals") {
  struct Case {
    DataType type;
    ScanOperation op;
    std::vector<uint32_t> sizes;
    uint32_t axis;
  };
  const Case cases[] = {
      {DataType::Float32, ScanOperation::Sum, {5, 17}, 1},
      {DataType::Float32, ScanOperation::Product, {3, 256}, 1},
      {DataType::Float32, ScanOperation::Product, {7, 20}, 1},
      {DataType::Float32, ScanOperation::Sum, {2, 5000}, 1},
      {DataType::Int64, ScanOperation::Sum, {3, 300}, 1},
      {DataType::Float64, ScanOperation::Maximum, {2, 4096}, 1},
      {DataType::Float32, ScanOperation::Sum, {2, 4097}, 1},
      {DataType::Float16, ScanOperation::LogSumExp, {1, 70000}, 1},
      {DataType::UInt32, ScanOperation::Minimum, {1, 70000}, 1},
      {DataType::Float32, ScanOperation::Sum, {20000, 4}, 0},
      {DataType::Int64, ScanOperation::Maximum, {17000, 6}, 0},
      {DataType::Float16, ScanOperation::Sum, {20000, 16}, 0},
      {DataType::Float32, ScanOperation::Sum, {3000, 19}, 0},
      {DataType::UInt64, ScanOperation::Minimum, {5000, 17}, 0},
      {DataType::Float32, ScanOperation::Sum, {100, 700}, 0},
      {DataType::Float64, ScanOperation::Maximum, {40, 1001}, 0},
      // Lines the chunk walks would take in one pass, but for the carries:
      // a node long, a small problem, and few lines off vectors (the rows
      // kernels, staged along the axis where lines pass a node).
      {DataType::Float32, ScanOperation::Sum, {8, 3000}, 0},
      {DataType::Float16, ScanOperation::Product, {1024, 64}, 0},
      {DataType::Float32, ScanOperation::Sum, {1000, 3}, 0},
      {DataType::Int32, ScanOperation::Maximum, {8, 5}, 0},
  };
  uint32_t k = 0;
  for (test::Profile profile :
       test::testedProfiles({test::Profile::GpuTuning, test::Profile::SmallWorkgroups})) {
    for (const Case& c : cases) {
      if (!test::testDevice(profile).supports(c.type)) continue;
      for (uint32_t run = 0; run < 2; ++run, ++k) {
        ScanDesc desc;
        desc.operation = c.op;
        desc.input = {c.type, c.sizes, {}};
        desc.output = desc.input;
        desc.axis = c.axis;
        desc.axisDirection = k % 2 ? AxisDirection::Decreasing : AxisDirection::Increasing;
        desc.exclusive = k / 2 % 2 == 1;
        bool inPlace = k % 3 == 1;
        // Both bound, then the carry-in alone or the totals alone.
        bindLines(desc, 1, run == 0 || k % 4 == 1, run == 0 || k % 4 == 3);
        PlanReport plan = planOf(test::testDevice(profile).createOperator(desc));
        std::string kernels;
        for (const PlannedDispatch& d : plan.dispatches) kernels += d.kernel + " ";
        CAPTURE(kernels);
        CHECK(kernels.find("chunk") == std::string::npos);
        check(desc, inPlace, 700 + k, profile);
      }
    }
  }
}

// The 64-byte header through which a one pass finds the carries where they
// lie (lib/recording.cpp lineCarriesHeader()) is recorded only in GPU plans,
// which none of the profiles that the sanitizer step runs makes: a device of
// the test's own, made under VKSCAN_TUNING=planner=gpu, records it there too.
TEST_CASE("carry: a device of GPU plans of its own takes carries in its one pass") {
  test::ScopedEnvironment gpu("VKSCAN_TUNING", "planner=gpu");
  Device device = createDevice(test::testDeviceOptions());
  const std::pair<std::vector<uint32_t>, uint32_t> shapes[] = {
      {{3, 5000}, 1}, {{5, 17}, 1}, {{3000, 19}, 0}};
  uint64_t seed = 900;
  for (const auto& [sizes, axis] : shapes) {
    ScanDesc desc;
    desc.input = {DataType::Float32, sizes, {}};
    desc.output = desc.input;
    desc.axis = axis;
    bindLines(desc, 1, true, true);
    PlanReport plan = planOf(device.createOperator(desc));
    REQUIRE(plan.dispatches.size() == 1);
    CHECK(plan.dispatches[0].kernel.find("chunk") == std::string::npos);
    check(desc, false, seed++, device);
  }
  CHECK(validationMessageCount(device) == 0);
}

// GPU plans read each line's carry-in and write its total where they lie, in
// one dispatch (kernels/line_carries.glsl): line tensors padded so that their
// line dimensions stay apart (two or three of them, as the input's merge),
// on short rows, rows in one pass and columns, with 64-bit strides and with
// the 32-bit ones of kernels without Int64. The totals' padding stays as it
// was.
TEST_CASE("carry: one scan finds padded line tensors where they lie") {
  struct Case {
    DataType type;
    std::vector<uint32_t> sizes;
    uint32_t axis;
    std::vector<uint32_t> carryStrides;
    std::vector<uint32_t> totalsStrides;
    const char* kernel;  // or the start of its name
  };
  const Case cases[] = {
      {DataType::Float32, {3, 4, 37}, 2, {16, 3, 1}, {10, 2, 1}, "rows_scan"},
      {DataType::Int64, {2, 3, 5000}, 2, {9, 2, 1}, {4, 1, 1}, "rows_onepass"},
      {DataType::Float16, {2, 2, 3, 300}, 3, {30, 8, 2, 1}, {13, 6, 1, 1}, "rows_"},
      {DataType::Float32, {20000, 2, 8}, 0, {32, 16, 1}, {24, 12, 1}, "columns_onepass"},
  };
  uint32_t k = 0;
  for (test::Profile profile :
       test::testedProfiles({test::Profile::GpuTuning, test::Profile::SmallWorkgroups,
                             test::Profile::EmulatedGpuTuning})) {
    for (const Case& c : cases) {
      if (!test::testDevice(profile).supports(c.type)) continue;
      ScanDesc desc;
      desc.input = {c.type, c.sizes, {}};
      desc.output = desc.input;
      desc.axis = c.axis;
      desc.axisDirection = k % 2 ? AxisDirection::Decreasing : AxisDirection::Increasing;
      desc.exclusive = k % 3 == 1;
      desc.carryIn = lineTensor(desc);
      desc.carryIn.strides = c.carryStrides;
      desc.totals = lineTensor(desc);
      desc.totals.strides = c.totalsStrides;
      CAPTURE(test::describe(desc));
      PlanReport plan = planOf(test::testDevice(profile).createOperator(desc));
      REQUIRE(plan.dispatches.size() == 1);
      CHECK(plan.dispatches[0].kernel.rfind(c.kernel, 0) == 0);
      CHECK(plan.dispatches[0].carryInBytesRead > 0);
      CHECK(plan.dispatches[0].totalsBytesWritten > 0);
      check(desc, k % 4 == 2, 800 + k, profile);
      ++k;
    }
  }
}

// The property a chunked caller relies on: chunks of 16^m with the carries
// the tree makes of their totals give the whole line's bits, and the tree's
// reduction of the chunk totals is the whole line's total.
TEST_CASE("carry: a line scanned in chunks of 16^m equals the line scanned whole") {
  std::vector<test::Profile> profiles = test::testedProfiles();
  // FLOAT32 sums with every m on both lengths, the others with one m each
  // (every m met), on two profiles in turn: each profile compiles its own
  // pipelines, which cost most of the time here (test::exhaustive(): every
  // case with every m and length on every profile).
  uint32_t k = 0;
  for (uint32_t c = 0; c < 6; ++c) {
    for (uint32_t m = 1; m <= 3; ++m) {
      for (uint32_t n : {70000u, 4096u * 17 + 5}) {
        bool chosen = c == 0 || (m == c % 3 + 1 && (n == 70000u) == (c % 2 == 1));
        for (uint32_t p = 0; p < profiles.size(); ++p) {
          if (!test::exhaustive() && (!chosen || p != k % std::min<size_t>(2, profiles.size()))) {
            continue;
          }
          test::Profile profile = profiles[p];
          bool exclusive = k % 4 == 3;
          switch (c) {
            case 0:
              checkChunked<float>(ScanOperation::Sum, DataType::Float32, n, m, exclusive, profile);
              break;
            case 1:
              checkChunked<float>(ScanOperation::Sum, DataType::Float16, n, m, exclusive, profile);
              break;
            case 2:
              checkChunked<float>(ScanOperation::Product, DataType::Float32, n, m, exclusive,
                                  profile);
              break;
            case 3:
              checkChunked<float>(ScanOperation::Maximum, DataType::Float32, n, m, exclusive,
                                  profile);
              break;
            case 4:
              checkChunked<float>(ScanOperation::LogSumExp, DataType::Float32, n, m, exclusive,
                                  profile);
              break;
            default:
              checkChunked<int64_t>(ScanOperation::Sum, DataType::Int64, n, m, exclusive, profile);
              break;
          }
        }
        if (chosen) ++k;
      }
    }
  }
}

namespace {

template <typename F>
void checkRefused(F call, const std::string& field, const std::string& reasonPart = {}) {
  CAPTURE(field);
  try {
    call();
    FAIL("accepted");
  } catch (const InvalidArgument& error) {
    CHECK(error.field() == field);
    if (!reasonPart.empty()) CHECK(error.reason().find(reasonPart) != std::string::npos);
  }
}

}  // namespace

TEST_CASE("carry: refused descriptors") {
  Device& device = test::testDevice();
  ScanDesc base = layout(DataType::Float16, 40, 0);
  bindLines(base, 0, true, true);
  REQUIRE(base.carryIn.dataType == DataType::Float32);
  auto refuse = [&](ScanDesc desc, const std::string& field, const std::string& reason = {}) {
    checkRefused([&] { device.createOperator(desc); }, field, reason);
  };
  ScanDesc wrongType = base;
  wrongType.carryIn.dataType = DataType::Float16;
  refuse(wrongType, "carryIn.dataType", "FLOAT32");
  wrongType = base;
  wrongType.totals.dataType = DataType::Float64;
  refuse(wrongType, "totals.dataType");
  ScanDesc wrongSizes = base;
  wrongSizes.carryIn.sizes = {3, 40};
  refuse(wrongSizes, "carryIn.sizes[1]", "axis");
  wrongSizes = base;
  wrongSizes.totals.sizes = {2, 1};
  refuse(wrongSizes, "totals.sizes[0]");
  wrongSizes = base;
  wrongSizes.totals.sizes = {3, 1, 1};
  refuse(wrongSizes, "totals.sizes");
  ScanDesc overlapping = base;
  overlapping.totals.strides = {0, 1};
  refuse(overlapping, "totals.strides");
  ScanDesc withIndices = layout(DataType::Float32, 40, 0);
  withIndices.operation = ScanOperation::Maximum;
  withIndices.indices = {DataType::Int64, withIndices.input.sizes, {}};
  bindLines(withIndices, 0, true, false);
  refuse(withIndices, "carryIn", "index");
  // A broadcast carry-in (stride 0) is read only: accepted.
  ScanDesc broadcast = base;
  broadcast.carryIn.strides = {0, 1};
  CHECK_NOTHROW(device.createOperator(broadcast));
  // Integers carry in their own type; FLOAT64 in FLOAT64.
  ScanDesc integers = layout(DataType::Int32, 40, 0);
  bindLines(integers, 0, true, true);
  CHECK(integers.carryIn.dataType == DataType::Int32);
  CHECK_NOTHROW(device.createOperator(integers));
  CHECK(carryType(DataType::BFloat16) == DataType::Float32);
  CHECK(carryType(DataType::Float64) == DataType::Float64);
  CHECK(carryType(DataType::UInt64) == DataType::UInt64);
}

TEST_CASE("carry: refused pointers and bindings") {
  Device& device = test::testDevice();
  ScanDesc desc = layout(DataType::Float32, 40, 0);
  bindLines(desc, 0, true, true);
  std::vector<uint8_t> input(desc.input.spanBytes()), output(desc.output.spanBytes());
  std::vector<uint8_t> carries(desc.carryIn.spanBytes()), totals(desc.totals.spanBytes());
  RunData data{input.data(), output.data(), nullptr, carries.data(), totals.data()};
  RunData missing = data;
  missing.carryIn = nullptr;
  checkRefused([&] { run(device, desc, missing); }, "carryIn");
  missing = data;
  missing.totals = nullptr;
  checkRefused([&] { run(device, desc, missing); }, "totals");
  ScanDesc plain = layout(DataType::Float32, 40, 0);
  checkRefused([&] { run(device, plain, data); }, "carryIn", "no carryIn");
  RunData extraTotals{input.data(), output.data(), nullptr, nullptr, totals.data()};
  checkRefused([&] { run(device, plain, extraTotals); }, "totals", "no totals");

  Operator op = device.createOperator(desc);
  Device::Impl& impl = Device::Access::impl(device);
  detail::DeviceBuffer in(impl, desc.input.totalBytes());
  detail::DeviceBuffer out(impl, desc.output.totalBytes());
  detail::DeviceBuffer lines(impl, 256);
  detail::DeviceBuffer scratch(impl, op.scratchSize() + 16);
  // Any non-null handle will do: the checks fire before the first command.
  auto commandBuffer = reinterpret_cast<VkCommandBuffer>(uintptr_t{1});
  Bindings bindings;
  bindings.input = in.binding();
  bindings.output = out.binding();
  bindings.scratch = scratch.binding();
  bindings.carryIn = {lines.binding().buffer, 0, 64};
  bindings.totals = {lines.binding().buffer, 128, 64};
  Bindings refused = bindings;
  refused.carryIn = {};
  checkRefused([&] { op.record(commandBuffer, refused); }, "bindings.carryIn.buffer");
  refused = bindings;
  refused.totals.size = 4;
  checkRefused([&] { op.record(commandBuffer, refused); }, "bindings.totals.size");
  refused = bindings;
  refused.totals.offset = 136;
  checkRefused([&] { op.record(commandBuffer, refused); }, "bindings.totals.offset");
  refused = bindings;
  refused.totals = {lines.binding().buffer, 0, 64};  // on the carry-in
  checkRefused([&] { op.record(commandBuffer, refused); }, "bindings.carryIn", "overlaps");
  refused = bindings;
  refused.carryIn = {out.binding().buffer, 0, 64};  // on the output
  checkRefused([&] { op.record(commandBuffer, refused); }, "bindings.carryIn", "overlaps");
  // Read with the input, the carry-in may share its memory; not in place.
  refused = bindings;
  refused.output = in.binding();
  refused.carryIn = {in.binding().buffer, 0, 64};
  checkRefused([&] { op.record(commandBuffer, refused); }, "bindings.carryIn", "input");
  Operator plainOp = device.createOperator(plain);
  Bindings extra{in.binding(), out.binding(), scratch.binding(), {}, bindings.carryIn, {}};
  checkRefused([&] { plainOp.record(commandBuffer, extra); }, "bindings.carryIn.buffer",
               "no carryIn");
}

// Plans with carries hold the plan invariants (as the fuzzer checks them) on
// a CPU device and on GPUs of subgroups 4 to 64, read the carry-in first and
// write the totals last; without them nothing touches those roles.
TEST_CASE("carry: plans hold the invariants and bind the new roles") {
  for (uint32_t kind = 0; kind < 4; ++kind) {
    for (uint32_t n : {1u, 17u, 300u, 4097u, 70000u, 1u << 20}) {
      for (uint32_t bound = 0; bound < 4; ++bound) {
        ScanDesc desc = layout(bound == 3 ? DataType::Float16 : DataType::Int64, n, kind);
        desc.axisDirection = n % 2 ? AxisDirection::Decreasing : AxisDirection::Increasing;
        desc.exclusive = kind % 2 == 1;
        bindLines(desc, kind, bound != 1, bound != 2);
        if (bound == 3) desc.output.dataType = DataType::Float32;
        if (bound == 3) bindLines(desc, kind, true, true);
        for (uint32_t subgroup : {4u, 8u, 32u, 64u}) {
          CAPTURE(test::describe(desc));
          CAPTURE(subgroup);
          detail::DeviceClass deviceClass =
              subgroup == 8 ? detail::DeviceClass::Cpu : detail::DeviceClass::Gpu;
          uint32_t invocations = subgroup == 4 ? 128 : 1024;
          detail::PlanLimits limits{subgroup, invocations, 65535, 65535};
          limits.pushDescriptor = subgroup == 8;
          limits.maxStorageBufferRange = uint64_t{1} << 27;
          detail::Plan plan =
              detail::makePlan(detail::normalize(desc), limits,
                               detail::tuningFor(deviceClass, subgroup, invocations, {2, 2}));
          std::vector<std::string> broken = test::planViolations(desc, plan, limits);
          std::string lines;
          for (const std::string& line : broken) lines += line + "\n";
          CHECK_MESSAGE(broken.empty(), lines);
          REQUIRE(!plan.dispatches.empty());
          bool carryIn = !desc.carryIn.sizes.empty();
          // After the widening copy where the output is wider.
          size_t first = plan.dispatches.front().pipeline.stage == detail::Stage::Widen ? 1 : 0;
          // Copied through scratch, or read and written where they lie by
          // the one scan.
          const detail::Dispatch& head = plan.dispatches[first];
          CHECK((head.in == detail::BufferRole::CarryIn || head.pipeline.lineCarryIn) == carryIn);
          bool totals = !desc.totals.sizes.empty();
          const detail::Dispatch& tail = plan.dispatches.back();
          CHECK((tail.out == detail::BufferRole::Totals || tail.pipeline.lineTotals) == totals);
          if (head.pipeline.lineCarryIn || tail.pipeline.lineTotals) {
            CHECK(plan.dispatches.size() == first + 1);
          }
          ScanDesc plain = desc;
          plain.carryIn = {};
          plain.totals = {};
          detail::Plan plainPlan =
              detail::makePlan(detail::normalize(plain), limits,
                               detail::tuningFor(deviceClass, subgroup, invocations, {2, 2}));
          for (const detail::Dispatch& d : plainPlan.dispatches) {
            CHECK(d.in != detail::BufferRole::CarryIn);
            CHECK(d.out != detail::BufferRole::Totals);
          }
        }
      }
    }
  }
}
