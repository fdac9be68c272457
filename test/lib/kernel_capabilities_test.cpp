// What the embedded kernels ask of a device, read from their SPIR-V: the
// features vkscan documents as required must be all they declare.
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
bool isChunk(Stage stage) {
  return stage != Stage::RowsReduce && stage != Stage::RowsScan;
}

const DataType kTypes[] = {DataType::Float32, DataType::Float16, DataType::Int32,  DataType::UInt32,
                           DataType::Int64,   DataType::UInt64,  DataType::Float64};

}  // namespace

TEST_CASE("kernels: FLOAT16 needs no shaderFloat16, only FLOAT64 needs shaderFloat64") {
  for (Stage stage : kStages) {
    for (DataType type : kTypes) {
      for (bool storageBuffers : {false, true}) {
        if (storageBuffers && !isChunk(stage)) continue;
        std::string kernel = std::string(stageName(stage)) + " " + dataTypeName(type) +
                             (storageBuffers ? " ssbo" : "");
        CAPTURE(kernel);
        std::set<uint32_t> caps = capabilities(kernelBinary(stage, type, storageBuffers));
        CHECK(caps.count(kFloat16) == 0);
        CHECK(caps.count(kFloat64) == (type == DataType::Float64 ? 1u : 0u));
      }
    }
  }
}

TEST_CASE("kernels: no subgroup arithmetic, whose float order is the vendor's") {
  for (Stage stage : kStages) {
    for (DataType type : kTypes) {
      for (bool storageBuffers : {false, true}) {
        if (storageBuffers && !isChunk(stage)) continue;
        std::string kernel = std::string(stageName(stage)) + " " + dataTypeName(type) +
                             (storageBuffers ? " ssbo" : "");
        CAPTURE(kernel);
        std::set<uint32_t> caps = capabilities(kernelBinary(stage, type, storageBuffers));
        CHECK(caps.count(kGroupNonUniformArithmetic) == 0);
        CHECK(caps.count(kGroupNonUniformClustered) == 0);
      }
    }
  }
}
