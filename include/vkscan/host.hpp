// vkscan's headless helpers, beside the engine-facing core (vkscan.hpp): a
// device of vkscan's own, the list of physical devices, a synchronous run()
// on host memory, the device's capabilities, validation counters and the
// pipeline cache's data. Tools, tests and simple programs use them; an engine
// that owns its device needs none of this.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vkscan.hpp"

namespace vkscan {

// Options for a device vkscan creates itself (createDevice()).
struct DeviceOptions {
  // Physical device to use, as an index into enumerateDevices(). -1 picks
  // the environment variable VKSCAN_DEVICE (an index, or a substring of the
  // name) if set, else the first usable discrete GPU, else the first usable.
  // Other negative values are refused.
  int deviceIndex = -1;
  // If not empty and deviceIndex is -1, the first usable device whose name
  // contains this text (VKSCAN_DEVICE is then not read).
  std::string deviceName;
  // Enable VK_LAYER_KHRONOS_validation, with synchronization validation where
  // the layer offers VK_EXT_validation_features, if it and VK_EXT_debug_utils
  // are installed. Every warning and error it reports is counted
  // (validationMessageCount()) and printed to stderr.
  bool enableValidation = false;
  // Contents of a previous pipelineCacheData(), to warm-start the
  // VkPipelineCache. Data from another device or driver is ignored.
  std::vector<uint8_t> pipelineCacheData;
  // Upper bound for run()'s wait on the device, in nanoseconds; a wait that
  // exceeds it throws VulkanError(VK_TIMEOUT). The device may still be using
  // that run's buffers, command pool and fence, so they are kept until their
  // fence signals (freed by a later run()) and waited for when the Device is
  // destroyed.
  uint64_t timeoutNs = 60ull * 1000 * 1000 * 1000;
  // Create the device without a feature it has, to test how an application
  // copes with devices that lack it. Every type still runs with the same
  // results, except FLOAT64 without shaderFloat64 (Unsupported).
  bool disableInt64 = false;           // shaderInt64 (see ExternalDevice)
  bool disableFloat64 = false;         // shaderFloat64
  bool disableFloat16 = false;         // storageBuffer16BitAccess, shaderFloat16
  bool disablePushDescriptor = false;  // VK_KHR_push_descriptor
  // As ExternalDevice::operatorCacheCapacity.
  size_t operatorCacheCapacity = 256;
};

// A physical device as listed by enumerateDevices().
struct PhysicalDeviceSummary {
  uint32_t index = 0;
  std::string name;
  VkPhysicalDeviceType type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
  uint32_t apiVersion = 0;
  bool usable = false;  // Vulkan 1.2+, a compute queue, bufferDeviceAddress
};

// Lists the physical devices the system loader reports.
// Throws Unsupported when the Vulkan loader (libvulkan.so.1) cannot be
// loaded, VulkanError when no Vulkan instance can be made (the message says
// so when no driver is installed).
VKSCAN_API std::vector<PhysicalDeviceSummary> enumerateDevices();

// Creates an instance and device of vkscan's own, with every feature vkscan
// can use that the physical device has (less the disable* options), and one
// compute queue. Never submits work. Throws Unsupported when the loader
// cannot be loaded or no usable device exists; InvalidArgument for a
// deviceIndex below -1 or past the devices, or a deviceName or VKSCAN_DEVICE
// (field "VKSCAN_DEVICE") no usable device matches, or a VKSCAN_TUNING it
// cannot read (plans.hpp); VulkanError on a failed call.
VKSCAN_API Device createDevice(const DeviceOptions& options = {});

// Synchronous convenience: allocates host-visible device buffers, uploads
// `input` (spanBytes() of desc.input), records, submits on device.queue(),
// waits (bounded by DeviceOptions::timeoutNs; 60 s on a wrapped device) and
// downloads into `output` (spanBytes() of desc.output; for strided outputs,
// bytes between the tensor's elements are copied from `output` as given and
// written back unchanged). Neither pointer is touched for an empty tensor.
// `output == input` runs the operator in place, which requires identical
// input and output layouts.
// Throws as Device::createOperator; InvalidArgument for a null `input` or
// `output` (field "input" or "output"), in place for output strides that
// differ from the input's (field "output"), or on a wrapped device without a
// queue (field "external.queue"); Unsupported when no host-visible memory can
// hold the buffers; VulkanError. On any failure `output` is unchanged.
VKSCAN_API void run(const Device& device, const ScanDesc& desc, const void* input, void* output);
// The same with the indices a maximum or minimum writes (ScanDesc::indices):
// `indices` holds desc.indices.spanBytes(); null where the descriptor has
// none. Not in place.
VKSCAN_API void run(const Device& device, const ScanDesc& desc, const void* input, void* output,
                    void* indices);
// Every tensor's host memory for run(): each points at its tensor's
// spanBytes(), set where the descriptor has the tensor (indices, carryIn,
// totals) and null where it has none. `output == input` runs in place as
// above. carryIn is read; indices and totals are written (for strided ones,
// the bytes between their elements come back as given).
struct RunData {
  const void* input = nullptr;
  void* output = nullptr;
  void* indices = nullptr;
  const void* carryIn = nullptr;
  void* totals = nullptr;
};
// run() with every tensor (the overloads above forward here). Throws as
// they do, and InvalidArgument (field "carryIn" or "totals") for a pointer
// that is null where the descriptor has the tensor or set where it has
// none. On any failure `output`, `indices` and `totals` are unchanged.
VKSCAN_API void run(const Device& device, const ScanDesc& desc, const RunData& data);
// The same for run(device, scanDesc(desc), input, output).
VKSCAN_API void run(const Device& device, const CumulativeSummationDesc& desc, const void* input,
                    void* output);

// The carries of a scan done in chunks along the axis, for lines longer than
// memory or a binding allows (the CLI streams files with it). Scan each line
// as consecutive chunks of exactly `chunkLength` = 16^k elements in
// traversal order (the last chunk may be shorter), each with
// ScanDesc::carryIn bound to carries() and ScanDesc::totals written, and
// pass the totals to push() before the next chunk: the outputs are the bits
// of one scan of the whole lines, because a chunk is a whole subtree of the
// canonical order and its carry is composed from the earlier chunks' totals
// by the same tree, on the host (bit for bit as the kernels combine). The
// first chunk may leave carryIn unbound instead: the same bits, except an
// exclusive sum's first output, +0.0 without a carry (DML) and -0.0 (the
// identity) with one.
class VKSCAN_API ChunkCarries {
 public:
  // `lines` lines of `operation` whose output type is `outputType`. Throws
  // InvalidArgument for an operation outside ScanOperation ("operation") or a
  // chunkLength that is not a power of 16 ("chunkLength").
  ChunkCarries(ScanOperation operation, DataType outputType, uint64_t lines, uint64_t chunkLength);
  ~ChunkCarries();
  ChunkCarries(ChunkCarries&&) noexcept;
  ChunkCarries& operator=(ChunkCarries&&) noexcept;

  DataType type() const noexcept;  // carryType(outputType)
  uint64_t lines() const noexcept;
  // The next chunk's carries, one value of type() per line, packed in line
  // order (the order of ScanDesc::carryIn's elements); the identity before
  // the first push().
  const void* carries() const noexcept;
  uint64_t carryBytes() const noexcept;  // lines() * dataTypeSize(type())
  // The totals (carryBytes() bytes, as ScanDesc::totals wrote them) of the
  // chunk just scanned with carries(), `length` elements long along the axis:
  // chunkLength, or less for the last chunk. Throws InvalidArgument for a
  // null `totals`, a length of 0 or past chunkLength ("length"), and for any
  // chunk after a shorter one.
  void push(const void* totals, uint64_t length);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// What a device can do, as vkscan sees it: the physical device's properties
// and limits, and the optional features vkscan uses (those the device has
// and, on a wrapped device, the engine enabled).
struct DeviceCapabilities {
  std::string deviceName;
  std::string driverName;
  std::string driverInfo;
  uint32_t vendorID = 0;
  uint32_t deviceID = 0;
  uint32_t apiVersion = 0;
  uint32_t driverVersion = 0;
  VkDriverId driverID{};
  VkPhysicalDeviceType deviceType = VK_PHYSICAL_DEVICE_TYPE_OTHER;

  uint32_t subgroupSize = 0;
  VkSubgroupFeatureFlags subgroupOperations = 0;
  bool subgroupSizeControl = false;
  // The sizes a subgroup may run at (VK_EXT_subgroup_size_control or Vulkan
  // 1.3; both 0 where the device reports neither). A device that varies its
  // size may run partial subgroups in pipelines that do not require full ones.
  uint32_t minSubgroupSize = 0;
  uint32_t maxSubgroupSize = 0;
  // computeFullSubgroups is enabled on the device: pipelines of the kernels
  // with subgroup operations require full subgroups where their workgroup
  // width is a multiple of subgroupSize.
  bool computeFullSubgroups = false;

  bool shaderInt64 = false;
  bool shaderFloat64 = false;
  bool shaderFloat16 = false;
  bool storageBuffer16BitAccess = false;
  bool bufferDeviceAddress = false;
  bool pushDescriptor = false;  // VK_KHR_push_descriptor

  uint64_t maxStorageBufferRange = 0;
  uint32_t maxTexelBufferElements = 0;
  uint32_t maxComputeSharedMemorySize = 0;
  uint32_t maxComputeWorkGroupInvocations = 0;
  uint32_t maxComputeWorkGroupCount[3] = {0, 0, 0};
  uint32_t maxPushConstantsSize = 0;
  uint64_t minStorageBufferOffsetAlignment = 0;
  float timestampPeriod = 0.0f;
  bool timestampComputeAndGraphics = false;
};

VKSCAN_API const DeviceCapabilities& capabilities(const Device& device) noexcept;

// How vkscan plans for this device, in words: the device class its tuning
// follows (GPU or CPU implementation), how its kernels move words, on a CPU
// implementation the worker threads its plans expect, and VKSCAN_TUNING
// where it was set (plans.hpp). For logs and
// benchmark reports; the format may change between versions.
VKSCAN_API std::string describe(const Device& device);

// The data of the VkPipelineCache vkscan created (empty for an engine's
// ExternalDevice::pipelineCache, which the engine saves itself), for
// DeviceOptions::pipelineCacheData.
VKSCAN_API std::vector<uint8_t> pipelineCacheData(const Device& device);

// Messages the validation layer reported since the device was made.
VKSCAN_API uint64_t validationMessageCount(const Device& device) noexcept;
// True when DeviceOptions::enableValidation found the layer installed, so
// that validationMessageCount() counts its messages. False without the
// option, without the layer, and for a wrapped device (whose instance is the
// engine's). A zero count proves nothing unless this is true.
VKSCAN_API bool validationEnabled(const Device& device) noexcept;

}  // namespace vkscan
