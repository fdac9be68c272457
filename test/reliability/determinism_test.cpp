// Determinism: the same input gives the same bits on every run, in C and in
// Fortran order (strides), in place and not, for every type.
#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "device/device_impl.hpp"
#include "plan/plan.hpp"
#include "problem.hpp"
#include "reliability_util.hpp"
#include "test_device.hpp"

using namespace vkscan;
using namespace vkscan::test;

namespace {

const DataType kTypes[] = {DataType::Float32, DataType::Float16, DataType::Int32,
                           DataType::UInt32,  DataType::Int64,   DataType::UInt64,
                           DataType::Float64, DataType::BFloat16};

constexpr int kRuns = 20;

// sizes {rows, cols} in Fortran order: element (r, c) at r + c * rows.
CumulativeSummationDesc fortranOrder(CumulativeSummationDesc desc) {
  uint32_t rows = desc.input.sizes[0];
  desc.input.strides = {1, rows};
  desc.output.strides = {1, rows};
  return desc;
}

// Rearranges C-order element bytes of a {rows, cols} tensor to Fortran order.
std::vector<uint8_t> toFortran(const std::vector<uint8_t>& c, uint32_t rows, uint32_t cols,
                               size_t size) {
  std::vector<uint8_t> f(c.size(), 0);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t k = 0; k < cols; ++k) {
      std::memcpy(&f[(r + size_t{k} * rows) * size], &c[(size_t{r} * cols + k) * size], size);
    }
  }
  return f;
}

}  // namespace

TEST_CASE("determinism: 20 runs, C and Fortran order, in place and not, every type") {
  const Device& device = testDevice();
  int comparisons = 0;
  for (DataType type : kTypes) {
    for (uint32_t axis : {0u, 1u}) {
      for (bool exclusive : {false, true}) {
        const uint32_t rows = 37, cols = 1000;
        CumulativeSummationDesc c =
            packedDesc(type, {rows, cols}, axis, exclusive,
                       axis == 0 ? AxisDirection::Decreasing : AxisDirection::Increasing);
        CumulativeSummationDesc f = fortranOrder(c);
        std::string what = describe(c);
        CAPTURE(what);
        size_t size = dataTypeSize(type);
        std::vector<uint8_t> input = randomInput(c, 900 + axis);
        std::vector<uint8_t> first(c.output.totalBytes());
        run(device, c, input.data(), first.data());
        CHECK(first == referenceOutput(c, input, first));

        std::vector<uint8_t> fortranInput = toFortran(input, rows, cols, size);
        fortranInput.resize(f.input.totalBytes());
        std::vector<uint8_t> fortranExpected = toFortran(first, rows, cols, size);
        fortranExpected.resize(f.output.totalBytes());
        for (int round = 0; round < kRuns; ++round) {
          CAPTURE(round);
          std::vector<uint8_t> again(c.output.totalBytes());
          run(device, c, input.data(), again.data());
          CHECK(again == first);
          std::vector<uint8_t> inPlace = input;
          run(device, c, inPlace.data(), inPlace.data());
          CHECK(inPlace == first);
          std::vector<uint8_t> fortran(f.output.totalBytes());
          run(device, f, fortranInput.data(), fortran.data());
          CHECK(fortran == fortranExpected);
          comparisons += 3;
        }
      }
    }
  }
  MESSAGE("bitwise comparisons: " << comparisons);
}

// The look-back pass is the one plan whose work depends on scheduling: a
// tile finds its predecessors published, or not yet and reduces them itself.
// Its sums must not: the same bits on every run, whichever way each tile went.
// Decreasing, the odd-length line is off vectors and walks realigned.
TEST_CASE("determinism: 20 runs of the single pass with look-back, in place and not, every type") {
  const Device& device = testDevice();
  const Device::Impl& impl = Device::Access::impl(device);
  int comparisons = 0;
  for (DataType type : kTypes) {
    for (bool exclusive : {false, true}) {
      CumulativeSummationDesc desc =
          packedDesc(type, {13 * 4096 + 7}, 0, exclusive,
                     exclusive ? AxisDirection::Decreasing : AxisDirection::Increasing);
      std::string what = describe(desc);
      CAPTURE(what);
      detail::Plan plan = detail::makePlan(detail::normalize(desc), impl.planLimits(), impl.tuning);
      REQUIRE(plan.dispatches.size() == 1);
      REQUIRE(detail::isLookback(plan.dispatches[0].pipeline.stage));
      // An odd count of FLOAT16 leaves 2 bytes of totalBytes() past the
      // tensor, which run() does not touch.
      const size_t span = desc.output.spanBytes();
      std::vector<uint8_t> input = randomInput(desc, 950 + static_cast<uint64_t>(type));
      input.resize(span);
      std::vector<uint8_t> first(span);
      run(device, desc, input.data(), first.data());
      std::vector<uint8_t> expected = referenceOutput(desc, input, first);
      expected.resize(span);
      CHECK(first == expected);
      for (int round = 0; round < kRuns; ++round) {
        CAPTURE(round);
        std::vector<uint8_t> again(span);
        run(device, desc, input.data(), again.data());
        CHECK(again == first);
        std::vector<uint8_t> inPlace = input;
        run(device, desc, inPlace.data(), inPlace.data());
        CHECK(inPlace == first);
        comparisons += 2;
      }
    }
  }
  MESSAGE("bitwise comparisons: " << comparisons);
}

TEST_CASE("portability: the device runs at the subgroup size the environment asks for") {
  // Set by the portability ctest entries (LP_NATIVE_VECTOR_WIDTH=128 gives 4
  // on lavapipe), so a run that silently ignored the variable cannot pass.
  const char* env = std::getenv("VKSCAN_EXPECT_SUBGROUP_SIZE");
  uint32_t expected = env == nullptr ? 0 : static_cast<uint32_t>(std::strtoul(env, nullptr, 10));
  uint32_t actual = capabilities(testDevice()).subgroupSize;
  MESSAGE("subgroup size " << actual);
  if (expected != 0) CHECK(actual == expected);
}
