// What the embedded kernels ask of a device, read from their SPIR-V: the
// features vkscan documents as required must be all they declare, and the
// variants for devices without shaderInt64 or 16-bit storage must not
// declare what those devices lack.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "kernel_binaries.hpp"

using namespace vkscan;
using namespace vkscan::detail;

namespace {

// SPIR-V: OpCapability is opcode 17; capability numbers from the spec.
constexpr uint32_t kOpCapability = 17;
constexpr uint32_t kFloat16 = 9;
constexpr uint32_t kFloat64 = 10;
constexpr uint32_t kInt64 = 11;
constexpr uint32_t kInt64Atomics = 12;
constexpr uint32_t kInt16 = 22;
constexpr uint32_t kStorageBuffer16BitAccess = 4433;
constexpr uint32_t kUniformAndStorageBuffer16BitAccess = 4434;
constexpr uint32_t kStoragePushConstant16 = 4435;
constexpr uint32_t kGroupNonUniformArithmetic = 63;
constexpr uint32_t kGroupNonUniformClustered = 67;

std::set<uint32_t> capabilities(const KernelBinary& binary) {
  std::set<uint32_t> found;
  REQUIRE(binary.words > 5);
  REQUIRE(binary.code[0] == 0x07230203u);  // the SPIR-V magic number
  for (size_t i = 5; i < binary.words;) {
    uint32_t count = binary.code[i] >> 16;
    uint32_t opcode = binary.code[i] & 0xffffu;
    REQUIRE(count > 0);
    if (opcode == kOpCapability) found.insert(binary.code[i + 1]);
    i += count;
  }
  return found;
}

const Stage kStages[] = {Stage::RowsReduce,
                         Stage::RowsScan,
                         Stage::ChunkReduce,
                         Stage::ChunkScan,
                         Stage::ChunkReduceInterleaved,
                         Stage::ChunkScanInterleaved};
const DataType kTypes[] = {DataType::Float32, DataType::Float16, DataType::Int32,  DataType::UInt32,
                           DataType::Int64,   DataType::UInt64,  DataType::Float64};

constexpr KernelVariant kNative{false, false};
const KernelVariant kVariants[] = {kNative, {true, false}, {false, true}, {true, true}};

std::string kernelName(Stage stage, DataType type, KernelVariant variant) {
  return std::string(stageName(stage)) + " " + dataTypeName(type) +
         (variant.emulatedInt64 ? " emulated-int64" : "") +
         (variant.packedHalves ? " packed-halves" : "");
}

// Calls check(stage, type, variant, capabilities) for every embedded kernel
// of the variants `select` accepts, with the kernel's name captured.
template <typename Select, typename Check>
void forEachKernel(Select select, Check check) {
  for (KernelVariant variant : kVariants) {
    if (!select(variant)) continue;
    for (Stage stage : kStages) {
      for (DataType type : kTypes) {
        std::string kernel = kernelName(stage, type, variant);
        CAPTURE(kernel);
        check(stage, type, variant, capabilities(kernelBinary(stage, type, variant)));
      }
    }
  }
}

bool anyVariant(KernelVariant) {
  return true;
}

}  // namespace

TEST_CASE("kernels: FLOAT16 needs no shaderFloat16, only FLOAT64 needs shaderFloat64") {
  forEachKernel(anyVariant,
                [](Stage, DataType type, KernelVariant, const std::set<uint32_t>& caps) {
                  CHECK(caps.count(kFloat16) == 0);
                  CHECK(caps.count(kFloat64) == (type == DataType::Float64 ? 1u : 0u));
                });
}

TEST_CASE("kernels: no subgroup arithmetic, whose float order is the vendor's") {
  forEachKernel(anyVariant, [](Stage, DataType, KernelVariant, const std::set<uint32_t>& caps) {
    CHECK(caps.count(kGroupNonUniformArithmetic) == 0);
    CHECK(caps.count(kGroupNonUniformClustered) == 0);
  });
}

// What makes the variants necessary: the native kernels need shaderInt64,
// and the FLOAT16 ones storageBuffer16BitAccess.
TEST_CASE("kernels: native kernels declare Int64, and 16-bit storage for FLOAT16 only") {
  auto native = [](KernelVariant variant) {
    return !variant.emulatedInt64 && !variant.packedHalves;
  };
  forEachKernel(native, [](Stage, DataType type, KernelVariant, const std::set<uint32_t>& caps) {
    CHECK(caps.count(kInt64) == 1);
    CHECK(caps.count(kStorageBuffer16BitAccess) == (type == DataType::Float16 ? 1u : 0u));
  });
}

TEST_CASE("kernels: emulated-int64 kernels declare no 64-bit integer capability") {
  auto emulated = [](KernelVariant variant) { return variant.emulatedInt64; };
  forEachKernel(emulated, [](Stage, DataType, KernelVariant, const std::set<uint32_t>& caps) {
    CHECK(caps.count(kInt64) == 0);
    CHECK(caps.count(kInt64Atomics) == 0);
  });
}

TEST_CASE("kernels: packed-halves kernels declare no 16-bit capability") {
  auto packed = [](KernelVariant variant) { return variant.packedHalves; };
  forEachKernel(packed, [](Stage, DataType, KernelVariant, const std::set<uint32_t>& caps) {
    for (uint32_t sixteenBit : {kStorageBuffer16BitAccess, kUniformAndStorageBuffer16BitAccess,
                                kStoragePushConstant16, kFloat16, kInt16}) {
      CAPTURE(sixteenBit);
      CHECK(caps.count(sixteenBit) == 0);
    }
  });
}

// A fallback that needed some other feature would only move the problem.
TEST_CASE("kernels: every variant declares only capabilities its native kernel declares") {
  forEachKernel(anyVariant,
                [](Stage stage, DataType type, KernelVariant, const std::set<uint32_t>& caps) {
                  std::set<uint32_t> native = capabilities(kernelBinary(stage, type, kNative));
                  for (uint32_t capability : caps) {
                    CAPTURE(capability);
                    CHECK(native.count(capability) == 1);
                  }
                });
}
