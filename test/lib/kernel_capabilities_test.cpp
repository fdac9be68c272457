// What the embedded kernels ask of a device, read from their SPIR-V: the
// features vkscan documents as required must be all they declare, and the
// variants for devices without shaderInt64 or 16-bit storage must not
// declare what those devices lack.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "kernel_binaries.hpp"
#include "spirv_aliasing.hpp"

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
constexpr uint32_t kGroupNonUniform = 61;
constexpr uint32_t kGroupNonUniformArithmetic = 63;
constexpr uint32_t kGroupNonUniformShuffleRelative = 66;
constexpr uint32_t kGroupNonUniformClustered = 67;
constexpr uint32_t kSampledBuffer = 46;

std::set<uint32_t> capabilities(const std::vector<uint32_t>& code) {
  std::set<uint32_t> found;
  REQUIRE(code.size() > 5);
  REQUIRE(code[0] == 0x07230203u);  // the SPIR-V magic number
  for (size_t i = 5; i < code.size();) {
    uint32_t count = code[i] >> 16;
    uint32_t opcode = code[i] & 0xffffu;
    REQUIRE(count > 0);
    REQUIRE(i + count <= code.size());
    if (opcode == kOpCapability) found.insert(code[i + 1]);
    i += count;
  }
  return found;
}

const Stage kStages[] = {Stage::RowsScan,
                         Stage::RowsOnePass,
                         Stage::ColumnsOnePass,
                         Stage::ChunkReduce,
                         Stage::ChunkScan,
                         Stage::ChunkReduceInterleaved,
                         Stage::ChunkScanInterleaved,
                         Stage::ChunkReduceRealigned,
                         Stage::ChunkScanRealigned,
                         Stage::ChunkLookback,
                         Stage::ChunkLookbackRealigned};
const DataType kTypes[] = {DataType::Float32, DataType::Float16, DataType::Int32,
                           DataType::UInt32,  DataType::Int64,   DataType::UInt64,
                           DataType::Float64, DataType::BFloat16};

// FLOAT16 and BFLOAT16: 2-byte floats, moved as bits and summed in FP32.
bool isHalf(DataType type) {
  return type == DataType::Float16 || type == DataType::BFloat16;
}

constexpr KernelVariant kNative{false, false, false};
constexpr KernelVariant kWordStores{false, false, true};
const KernelVariant kVariants[] = {
    kNative, {true, false, false}, {false, true, false}, {true, true, false}, kWordStores};

bool isChunk(Stage stage) {
  return stage != Stage::RowsScan && stage != Stage::RowsOnePass && stage != Stage::ColumnsOnePass;
}

// One kernel build: the chunk stages come on device addresses and on
// storage buffers, the rows stages on device addresses only.
struct Kernel {
  Stage stage;
  DataType type;
  KernelVariant variant;
  bool storageBuffers;

  std::string name() const {
    return std::string(stageName(stage)) + " " + dataTypeName(type) +
           (variant.emulatedInt64 ? " emulated-int64" : "") +
           (variant.packedHalves ? " packed-halves" : "") +
           (variant.wordStores ? " word-stores" : "") + (storageBuffers ? " storage-buffers" : "");
  }
  // The capabilities of this build, or of its `other` variant.
  std::set<uint32_t> capabilitiesOf(KernelVariant other) const {
    return capabilities(kernelBinary(stage, type, other, storageBuffers));
  }
};

// Calls check(kernel, its capabilities) for every embedded kernel of the
// variants `select` accepts, with the kernel's name captured.
template <typename Select, typename Check>
void forEachKernel(Select select, Check check) {
  for (KernelVariant variant : kVariants) {
    if (!select(variant)) continue;
    for (Stage stage : kStages) {
      for (DataType type : kTypes) {
        for (bool storageBuffers : {false, true}) {
          if (storageBuffers && !isChunk(stage)) continue;
          Kernel kernel{stage, type, variant, storageBuffers};
          std::string name = kernel.name();
          CAPTURE(name);
          check(kernel, kernel.capabilitiesOf(variant));
        }
      }
    }
  }
}

bool anyVariant(KernelVariant) {
  return true;
}

}  // namespace

TEST_CASE("kernels: FLOAT16 and BFLOAT16 need no shaderFloat16, only FLOAT64 shaderFloat64") {
  forEachKernel(anyVariant, [](const Kernel& kernel, const std::set<uint32_t>& caps) {
    CHECK(caps.count(kFloat16) == 0);
    CHECK(caps.count(kFloat64) == (kernel.type == DataType::Float64 ? 1u : 0u));
  });
}

TEST_CASE("kernels: no subgroup arithmetic, whose float order is the vendor's") {
  forEachKernel(anyVariant, [](const Kernel&, const std::set<uint32_t>& caps) {
    CHECK(caps.count(kGroupNonUniformArithmetic) == 0);
    CHECK(caps.count(kGroupNonUniformClustered) == 0);
  });
}

// Issue 47: the rows kernels chain lanes with subgroup shuffles; the others,
// which devices without them run, use no subgroup operation.
TEST_CASE("kernels: rows kernels use subgroup shuffles, the others no subgroup operation") {
  forEachKernel(anyVariant, [](const Kernel& kernel, const std::set<uint32_t>& caps) {
    bool rows = kernel.stage == Stage::RowsScan || kernel.stage == Stage::RowsOnePass;
    CHECK(caps.count(kGroupNonUniform) == (rows ? 1u : 0u));
    CHECK(caps.count(kGroupNonUniformShuffleRelative) == (rows ? 1u : 0u));
  });
}

// Before SPIR-V 1.6, and without VK_PIPELINE_SHADER_STAGE_CREATE_ALLOW_VARYING_
// SUBGROUP_SIZE_BIT (vkscan never sets it), gl_SubgroupSize is the device's
// subgroupSize, which the planner stages the rows kernels' segments by; from
// 1.6 on it may vary per pipeline on AMD and Intel.
TEST_CASE("kernels: SPIR-V 1.5 at most, so gl_SubgroupSize is the size plans assume") {
  forEachKernel(anyVariant, [](const Kernel& kernel, const std::set<uint32_t>&) {
    std::vector<uint32_t> code =
        kernelBinary(kernel.stage, kernel.type, kernel.variant, kernel.storageBuffers);
    REQUIRE(code.size() > 1);
    CHECK(code[1] <= 0x00010500u);  // the version word: major << 16 | minor << 8
  });
}

// What makes the variants necessary: the native device-address kernels need
// shaderInt64, and the FLOAT16 and BFLOAT16 ones storageBuffer16BitAccess.
TEST_CASE("kernels: native kernels declare Int64, and 16-bit storage for halves only") {
  auto native = [](KernelVariant variant) {
    return !variant.emulatedInt64 && !variant.packedHalves && !variant.wordStores;
  };
  forEachKernel(native, [](const Kernel& kernel, const std::set<uint32_t>& caps) {
    // Storage-buffer kernels index with 32-bit offsets: only their 64-bit
    // types need Int64.
    if (!kernel.storageBuffers) CHECK(caps.count(kInt64) == 1);
    // Interleaved FLOAT16 and BFLOAT16 kernels access only vectors of
    // halves, as the 32-bit words that hold them, so they may go without.
    bool interleaved = kernel.stage == Stage::ChunkReduceInterleaved ||
                       kernel.stage == Stage::ChunkScanInterleaved;
    if (!isHalf(kernel.type)) {
      CHECK(caps.count(kStorageBuffer16BitAccess) == 0);
    } else if (!interleaved) {
      CHECK(caps.count(kStorageBuffer16BitAccess) == 1);
    }
  });
}

TEST_CASE("kernels: emulated-int64 kernels declare no 64-bit integer capability") {
  auto emulated = [](KernelVariant variant) { return variant.emulatedInt64; };
  forEachKernel(emulated, [](const Kernel&, const std::set<uint32_t>& caps) {
    CHECK(caps.count(kInt64) == 0);
    CHECK(caps.count(kInt64Atomics) == 0);
  });
}

TEST_CASE("kernels: packed-halves kernels declare no 16-bit capability") {
  auto packed = [](KernelVariant variant) { return variant.packedHalves; };
  forEachKernel(packed, [](const Kernel&, const std::set<uint32_t>& caps) {
    for (uint32_t sixteenBit : {kStorageBuffer16BitAccess, kUniformAndStorageBuffer16BitAccess,
                                kStoragePushConstant16, kFloat16, kInt16}) {
      CAPTURE(sixteenBit);
      CHECK(caps.count(sixteenBit) == 0);
    }
  });
}

// A fallback that needed some other feature would only move the problem.
TEST_CASE("kernels: every variant declares only capabilities its native kernel declares") {
  forEachKernel(anyVariant, [](const Kernel& kernel, const std::set<uint32_t>& caps) {
    std::set<uint32_t> native = kernel.capabilitiesOf(kNative);
    for (uint32_t capability : caps) {
      CAPTURE(capability);
      CHECK(native.count(capability) == 1);
    }
  });
}

// VectorWords::Load64Store32 selects a build of its own for the 4-byte types
// and the 64-bit integers, which loads 64-bit words as the native build does
// (so it declares Int64 too) and stores 32-bit words. FLOAT64, FLOAT16 and
// BFLOAT16 (whose 32-bit word stores were the slower), the packed halves and
// the kernels without Int64 keep their builds. A reduce stage's own build may
// compile to the native words: it stores lone totals, no vectors.
TEST_CASE("kernels: word-stores kernels exist for every type but FLOAT64 and the halves") {
  auto wordStores = [](KernelVariant variant) { return variant.wordStores; };
  forEachKernel(wordStores, [](const Kernel& kernel, const std::set<uint32_t>& caps) {
    std::vector<uint32_t> own =
        kernelBinary(kernel.stage, kernel.type, kWordStores, kernel.storageBuffers);
    std::vector<uint32_t> native =
        kernelBinary(kernel.stage, kernel.type, kNative, kernel.storageBuffers);
    bool ownBuild = kernel.type != DataType::Float64 && !isHalf(kernel.type);
    bool reduces = kernel.stage == Stage::ChunkReduce ||
                   kernel.stage == Stage::ChunkReduceInterleaved ||
                   kernel.stage == Stage::ChunkReduceRealigned;
    if (!ownBuild) CHECK(own == native);
    if (ownBuild && !reduces) CHECK(own != native);
    CHECK(caps == kernel.capabilitiesOf(kNative));
  });
  // Packed halves concern FLOAT16 and BFLOAT16 alone; the others ignore them.
  for (DataType type : kTypes) {
    CAPTURE(dataTypeName(type));
    for (KernelVariant without :
         {KernelVariant{true, false, false}, KernelVariant{false, true, false},
          KernelVariant{true, true, false}}) {
      if (!without.emulatedInt64 && !isHalf(type)) continue;
      KernelVariant with = without;
      with.wordStores = true;
      CHECK(kernelBinary(Stage::ChunkScan, type, without, true) ==
            kernelBinary(Stage::ChunkScan, type, with, true));
    }
  }
}

// The storage-buffer stages of every variant that moves 32-byte units have a
// build reading the input through a uniform texel buffer: its own SPIR-V,
// asking only SampledBuffer (which every Vulkan device has) beyond its
// storage build.
TEST_CASE("kernels: texel-input builds exist where units move, and add only SampledBuffer") {
  forEachKernel(anyVariant, [](const Kernel& kernel, const std::set<uint32_t>& caps) {
    if (!kernel.storageBuffers) return;
    bool exists = hasTexelInputKernels(kernel.type, kernel.variant);
    CHECK(exists == !kernel.variant.emulatedInt64);
    CHECK(caps.count(kSampledBuffer) == 0);
    if (!exists) return;
    std::vector<uint32_t> texel =
        kernelBinary(kernel.stage, kernel.type, kernel.variant, true, true);
    CHECK(texel != kernelBinary(kernel.stage, kernel.type, kernel.variant, true));
    std::set<uint32_t> expected = caps;
    expected.insert(kSampledBuffer);
    CHECK(capabilities(texel) == expected);
  });
}

// Two's-complement sums wrap as unsigned ones do, so the signed integers
// have no builds of their own (the differential suites check their bits).
TEST_CASE("kernels: INT32 and INT64 run the UINT32 and UINT64 builds") {
  for (KernelVariant variant : kVariants) {
    for (Stage stage : kStages) {
      for (bool storageBuffers : {false, true}) {
        if (storageBuffers && !isChunk(stage)) continue;
        CAPTURE(stageName(stage));
        CHECK(kernelBinary(stage, DataType::Int32, variant, storageBuffers) ==
              kernelBinary(stage, DataType::UInt32, variant, storageBuffers));
        CHECK(kernelBinary(stage, DataType::Int64, variant, storageBuffers) ==
              kernelBinary(stage, DataType::UInt64, variant, storageBuffers));
      }
    }
  }
}

// BFLOAT16 takes FLOAT16's paths with its own conversions, so every build of
// it must be its own: one shared with FLOAT16 would round as halves do.
TEST_CASE("kernels: BFLOAT16 has builds of its own in every variant, not FLOAT16's") {
  for (KernelVariant variant : kVariants) {
    for (Stage stage : kStages) {
      for (bool storageBuffers : {false, true}) {
        if (storageBuffers && !isChunk(stage)) continue;
        CAPTURE(stageName(stage));
        CHECK(kernelBinary(stage, DataType::BFloat16, variant, storageBuffers) !=
              kernelBinary(stage, DataType::Float16, variant, storageBuffers));
      }
    }
  }
}

// Input, output and aux are one range in place (and on scratch in the carry
// passes), so every storage buffer is declared Aliased; without it NVIDIA's
// compiler stored exclusive outputs in place before reading the element
// they overwrite (docs/bench/h200/README.md).
TEST_CASE("kernels: storage-buffer builds declare every storage buffer Aliased, none read-only") {
  constexpr uint32_t kOpVariable = 59;
  constexpr uint32_t kOpDecorate = 71;
  constexpr uint32_t kStorageBufferClass = 12;
  constexpr uint32_t kAliased = 20;
  constexpr uint32_t kOpMemberDecorate = 72;
  constexpr uint32_t kNonWritable = 24;
  size_t builds = 0;
  for (KernelVariant variant : kVariants) {
    for (Stage stage : kStages) {
      if (!isChunk(stage)) continue;
      for (DataType type : kTypes) {
        for (bool texels : {false, true}) {
          if (texels && !hasTexelInputKernels(type, variant)) continue;
          std::string name = Kernel{stage, type, variant, true}.name() + (texels ? " texels" : "");
          CAPTURE(name);
          std::vector<uint32_t> code = kernelBinary(stage, type, variant, true, texels);
          std::set<uint32_t> buffers;
          std::set<uint32_t> aliased;
          for (size_t i = 5; i < code.size(); i += code[i] >> 16) {
            REQUIRE((code[i] >> 16) > 0);
            uint32_t opcode = code[i] & 0xffffu;
            if (opcode == kOpVariable && code[i + 3] == kStorageBufferClass) {
              buffers.insert(code[i + 2]);
            }
            if (opcode == kOpDecorate && code[i + 2] == kAliased) aliased.insert(code[i + 1]);
            // NonWritable: alone, on an H200 a load could follow an aliased store.
            CHECK_FALSE((opcode == kOpDecorate && code[i + 2] == kNonWritable));
            CHECK_FALSE((opcode == kOpMemberDecorate && code[i + 3] == kNonWritable));
          }
          CHECK_FALSE(buffers.empty());
          for (uint32_t id : buffers) CHECK(aliased.count(id) == 1);
          ++builds;
        }
      }
    }
  }
  CHECK(builds > 100);
}

TEST_CASE(
    "kernels: the Aliased decorations go in once, before the other annotations, NonWritable out") {
  // A module's header, a capability, a binding decoration and a storage
  // buffer variable (ids 5 and 6; types elided: the pass reads none).
  std::vector<uint32_t> module = {
      0x07230203u,      0x00010500u, 0u,  10u, 0u, (2u << 16) | 17u, 1u,  // OpCapability Shader
      (4u << 16) | 71u, 5u,          33u, 0u,                             // OpDecorate %5 Binding 0
      (4u << 16) | 72u, 3u,          0u,  24u,  // OpMemberDecorate %3 0 NonWritable
      (3u << 16) | 71u, 5u,          24u,       // OpDecorate %5 NonWritable
      (4u << 16) | 59u, 4u,          5u,  12u,  // OpVariable %5 StorageBuffer
      (4u << 16) | 59u, 4u,          6u,  7u};  // OpVariable %6 Function
  std::vector<uint32_t> once = module;
  CHECK(declareStorageBuffersAliased(once) == 1);
  // The two NonWritable decorations (7 words) go.
  REQUIRE(once.size() == module.size() + 3 - 7);
  CHECK(std::equal(once.begin() + 10, once.begin() + 14, module.begin() + 7));
  CHECK(std::equal(once.begin() + 14, once.end(), module.begin() + 18));
  CHECK(once[7] == ((3u << 16) | 71u));
  CHECK(once[8] == 5u);
  CHECK(once[9] == 20u);
  std::vector<uint32_t> twice = once;
  CHECK(declareStorageBuffersAliased(twice) == 0);
  CHECK(twice == once);
  std::vector<uint32_t> broken = module;
  broken[7] = 71u;  // a word count of 0
  CHECK_THROWS_AS(declareStorageBuffersAliased(broken), Error);
}

// Many tiles poll the same few look-back words near a line's root: reads are
// atomic loads, which need not take turns at one address as read-modify-writes
// (atomicOr(w, 0), the kernels' reads before) do; publications atomic stores.
TEST_CASE("kernels: the look-back reads with atomic loads, not read-modify-writes") {
  static constexpr uint32_t kOpConstant = 43;
  static constexpr uint32_t kOpAtomicLoad = 227;
  static constexpr uint32_t kOpAtomicStore = 228;
  static constexpr uint32_t kOpAtomicExchange = 229;
  static constexpr uint32_t kOpAtomicOr = 241;
  static constexpr uint32_t kScopeDevice = 1;
  forEachKernel(anyVariant, [](const Kernel& kernel, const std::set<uint32_t>&) {
    std::vector<uint32_t> code =
        kernelBinary(kernel.stage, kernel.type, kernel.variant, kernel.storageBuffers);
    std::map<uint32_t, uint32_t> constants;  // 32-bit constants by id
    size_t loads = 0;
    size_t stores = 0;
    size_t otherScopes = 0;
    size_t exchanges = 0;
    size_t orsOfZero = 0;
    for (size_t i = 5; i < code.size(); i += code[i] >> 16) {
      uint32_t count = code[i] >> 16;
      REQUIRE(count > 0);
      uint32_t opcode = code[i] & 0xffffu;
      if (opcode == kOpConstant && count == 4) constants[code[i + 2]] = code[i + 3];
      if (opcode == kOpAtomicLoad) {
        ++loads;
        if (constants.at(code[i + 4]) != kScopeDevice) ++otherScopes;
      }
      if (opcode == kOpAtomicStore) {
        ++stores;
        if (constants.at(code[i + 2]) != kScopeDevice) ++otherScopes;
      }
      if (opcode == kOpAtomicExchange) ++exchanges;
      // An atomicOr of 0 is a read.
      if (opcode == kOpAtomicOr) {
        auto value = constants.find(code[i + 6]);
        if (value != constants.end() && value->second == 0u) ++orsOfZero;
      }
    }
    CHECK(otherScopes == 0);
    CHECK(exchanges == 0);
    CHECK(orsOfZero == 0);
    bool looksBack = kernel.stage == Stage::RowsOnePass || kernel.stage == Stage::ColumnsOnePass ||
                     kernel.stage == Stage::ChunkLookback ||
                     kernel.stage == Stage::ChunkLookbackRealigned;
    if (looksBack) {
      CHECK(loads > 0);
      CHECK(stores > 0);
    }
  });
}
