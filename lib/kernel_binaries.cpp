#include "kernel_binaries.hpp"

#include <vkscan_kernel_groups.h>
#include <zstd.h>

#include <string>

#include "spirv_aliasing.hpp"

namespace vkscan::detail {
namespace {

// The groups vkscan_kernel_table.inc names, and their type.
using namespace kernels;

// KernelVariant as the flags kernels/CMakeLists.txt names (FLAGS).
enum : unsigned { kEmulatedInt64 = 1u, kPackedHalves = 2u, kWordStores = 4u };

struct KernelEntry {
  Stage stage;
  DataType type;
  unsigned variant;
  bool storageBuffers;
  bool texelInput;
  const KernelGroup* group;
  uint32_t member;
};

// One entry per build, written by cmake/vkscanKernels.cmake.
const KernelEntry kKernels[] = {
#include <vkscan_kernel_table.inc>
};

// Signed integers run the unsigned builds: two's-complement sums wrap alike.
DataType builtType(DataType type) {
  switch (type) {
    case DataType::Int32:
      return DataType::UInt32;
    case DataType::Int64:
      return DataType::UInt64;
    default:
      return type;
  }
}

std::vector<uint32_t> decompress(const KernelGroup& group, uint32_t member,
                                 const std::string& kernel) {
  auto fail = [&](const std::string& why) {
    return Error("vkscan's embedded " + kernel + " kernel (group " + group.name +
                 ") does not decompress: " + why);
  };
  size_t totalWords = 0;
  size_t offsetWords = 0;
  for (size_t i = 0; i < group.memberCount; ++i) {
    if (i == member) offsetWords = totalWords;
    totalWords += group.memberWords[i];
  }
  unsigned long long contentBytes =
      ZSTD_getFrameContentSize(group.compressed, group.compressedBytes);
  if (contentBytes != totalWords * sizeof(uint32_t)) {
    throw fail(contentBytes == ZSTD_CONTENTSIZE_ERROR     ? "not a zstd frame"
               : contentBytes == ZSTD_CONTENTSIZE_UNKNOWN ? "no content size"
                                                          : "unexpected content size");
  }
  // The whole frame, then the member: a frame decompresses from its start.
  std::vector<uint32_t> words(totalWords);
  size_t written = ZSTD_decompress(words.data(), totalWords * sizeof(uint32_t), group.compressed,
                                   group.compressedBytes);
  if (ZSTD_isError(written)) throw fail(ZSTD_getErrorName(written));
  if (written != totalWords * sizeof(uint32_t)) throw fail("short content");
  return std::vector<uint32_t>(
      words.begin() + static_cast<std::ptrdiff_t>(offsetWords),
      words.begin() + static_cast<std::ptrdiff_t>(offsetWords + group.memberWords[member]));
}

}  // namespace

bool hasTexelInputKernels(DataType, KernelVariant variant) {
  return !variant.emulatedInt64;
}

std::vector<uint32_t> kernelBinary(Stage stage, DataType type, KernelVariant variant,
                                   bool storageBuffers, bool texelInput) {
  // Only the 2-byte floats are built packed: for every other type the plain
  // build is already free of 16-bit storage. Word stores are built for the
  // 4-byte types and the 64-bit integers (summed as pairs of words); FLOAT64
  // keeps its build, and so do the 2-byte floats, whose 32-bit word stores
  // were the slower once FLOAT16's input came through texel views.
  DataType built = builtType(type);
  bool halves = dataTypeSize(type) == 2;
  bool packed = variant.packedHalves && halves;
  bool wordStores =
      variant.wordStores && !variant.emulatedInt64 && type != DataType::Float64 && !halves;
  unsigned flags = (variant.emulatedInt64 ? kEmulatedInt64 : 0u) | (packed ? kPackedHalves : 0u) |
                   (wordStores ? kWordStores : 0u);
  std::string name =
      std::string(stageName(stage)) + " " + dataTypeName(type) +
      (variant.emulatedInt64 ? " without Int64" : "") + (packed ? " with packed halves" : "") +
      (wordStores ? " with 32-bit word stores" : "") +
      (storageBuffers ? " on storage buffers" : "") + (texelInput ? " reading texels" : "");
  for (const KernelEntry& entry : kKernels) {
    if (entry.stage == stage && entry.type == built && entry.variant == flags &&
        entry.storageBuffers == storageBuffers && entry.texelInput == texelInput) {
      std::vector<uint32_t> words = decompress(*entry.group, entry.member, name);
      if (storageBuffers) declareStorageBuffersAliased(words);
      return words;
    }
  }
  throw Error("vkscan was built without the " + name + " kernel");
}

}  // namespace vkscan::detail
