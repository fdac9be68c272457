#include "kernel_binaries.hpp"

#include <vkscan_kernels.h>

#include <string>

namespace vkscan::detail {
namespace {

struct KernelEntry {
  Stage stage;
  DataType type;
  KernelVariant variant;
  bool storageBuffers;
  bool texelInput;
  KernelBinary binary;
};

// One entry per embedded blob, written by kernels/CMakeLists.txt.
const KernelEntry kKernels[] = {
#include <vkscan_kernel_table.inc>
};

}  // namespace

bool hasTexelInputKernels(DataType, KernelVariant variant) {
  return !variant.emulatedInt64;
}

KernelBinary kernelBinary(Stage stage, DataType type, KernelVariant variant, bool storageBuffers,
                          bool texelInput) {
  // Only FLOAT16 is built packed: for every other type the plain blob is
  // already free of 16-bit storage. Word stores are built for those and the 64-bit integers (summed
  // as pairs of words). FLOAT64 keeps its build, and so does FLOAT16: once the input came through
  // texel views its 32-bit word stores were the slower (A/B on lavapipe, Intel Xeon host, ratios to
  // the roof over four runs each: 1-D 2^24 0.33-0.35 against 0.38-0.39 with 64-bit stores, [4096,
  // 4095] along axis 0 0.11 against 0.13-0.14; [4096, 4096] within the noise, 0.22-0.33 either
  // way), where the other types' stayed the faster (FLOAT32 1-D 0.75 against 0.53-0.60).
  bool packed = variant.packedHalves && type == DataType::Float16;
  bool wordStores = variant.wordStores && !variant.emulatedInt64 && type != DataType::Float64 &&
                    type != DataType::Float16;
  for (const KernelEntry& entry : kKernels) {
    if (entry.stage == stage && entry.type == type &&
        entry.variant.emulatedInt64 == variant.emulatedInt64 &&
        entry.variant.packedHalves == packed && entry.variant.wordStores == wordStores &&
        entry.storageBuffers == storageBuffers && entry.texelInput == texelInput) {
      return entry.binary;
    }
  }
  throw Error(
      std::string("vkscan was built without the ") + stageName(stage) + " kernel for " +
      dataTypeName(type) + (variant.emulatedInt64 ? " without Int64" : "") +
      (packed ? " with packed halves" : "") + (wordStores ? " with 32-bit word stores" : "") +
      (storageBuffers ? " on storage buffers" : "") + (texelInput ? " reading texels" : ""));
}

}  // namespace vkscan::detail
