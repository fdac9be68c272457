// vkscan: cumulative sums (prefix scans) along one axis of a tensor on any
// Vulkan 1.2+ device, with the semantics of DirectML's
// DML_CUMULATIVE_SUMMATION_OPERATOR_DESC and bit-for-bit reproducible floats.
//
// Overview
//   vkscan::Device            wraps an engine's VkDevice, or creates a headless one
//   Device::createOperator()  validates a CumulativeSummationDesc, returns an Operator
//   Operator::scratchSize()   temporary device memory the operator needs
//   Operator::record()        records the scan into the caller's command buffer
//   Device::run()             synchronous convenience on host memory (tools, tests)
//
// Canonical summation order (why floats are reproducible)
//   Every float result is a function of the input line alone: the same bits on
//   every device, subgroup size, workgroup size, thread count, memory layout,
//   plan and in-place use. Let B = 16 and let the line be the elements along
//   Axis in traversal order (reversed for AxisDirection::Decreasing), n long.
//   - Level-0 values are the line's elements. Level-(k+1) value q is the serial
//     sum ((v[16q] + v[16q+1]) + v[16q+2]) + ... of level-k values 16q .. 16q+15
//     (fewer for the last group of a level).
//   - The carry into level-k node p is X_k(p) = X_{k+1}(p / 16) + L_k(p), where
//     L_k(p) is the serial sum of level-k values 16*(p/16) .. p-1 of its group.
//     At a level with a single node the carry is -0.0.
//   - Inclusive: out[i] = X_1(i / 16) + serial sum of elements 16*(i/16) .. i.
//     Exclusive: out[i] = X_1(i / 16) + serial sum of elements 16*(i/16) .. i-1,
//     except out[0] = +0.0.
//   Empty sums are -0.0, the exact additive identity, so a missing term never
//   changes a bit. Each "+" is one IEEE-754 addition in the accumulation type
//   (FP32 for FLOAT32 and FLOAT16, FP64 for FLOAT64), round-to-nearest-even,
//   never contracted or reassociated (kernels use `precise`). FLOAT16 results
//   are the FP32 result rounded once to nearest-even on store (overflow gives
//   infinity, every NaN the quiet NaN 0x7E00 of its sign). The kernels convert
//   halves with integer code rather than the device's conversions, which
//   Vulkan lets round toward zero or flush half denormals, so FLOAT16 keeps
//   its denormals and gives the same bits on every device.
//   Denormals: the device's default float mode applies (vkscan does not request
//   denorm preservation); lavapipe and many GPUs flush FP32 denormals to zero,
//   so the bit-for-bit guarantee covers inputs and partial sums that are
//   normal numbers, zeros, infinities and NaNs (NaN payloads may differ).
//
// Accuracy bound (FLOAT32)
//   Each output is a sum of at most 1 + 15 * ceil(log16(n)) rounded additions on
//   any path through the tree, so |out[i] - exact[i]| <=
//   (15 * ceil(log16(n)) + 1) * 2^-24 * sum_{j in prefix} |x[j]|  (first order),
//   i.e. 91 * 2^-24 of the absolute running sum for n = 2^24 (a serial loop's
//   bound is n * 2^-24). test/lib/accuracy_test.cpp checks it against a
//   float64 reference on ramps and cancelling data.
//
// Integers (INT32, UINT32, INT64, UINT64) wrap modulo 2^bits; signed types are
// two's complement, so wrapping is the same as for the unsigned type.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

// Symbols of the shared library's interface; everything else is hidden.
#if defined(_WIN32)
#define VKSCAN_API
#else
#define VKSCAN_API __attribute__((visibility("default")))
#endif

namespace vkscan {

// ---------------------------------------------------------------------------
// Tensor description, mirroring DML_BUFFER_TENSOR_DESC
// ---------------------------------------------------------------------------

enum class DataType : uint32_t { Float32, Float16, Int32, UInt32, Int64, UInt64, Float64 };

enum class AxisDirection : uint32_t { Increasing, Decreasing };

inline constexpr uint32_t kMaxDimensions = 8;

// Bytes per element of `type`; 0 for a value outside DataType. Inline:
// createOperator() asks it a few dozen times per call.
constexpr size_t dataTypeSize(DataType type) noexcept {
  switch (type) {
    case DataType::Float16:
      return 2;
    case DataType::Float32:
    case DataType::Int32:
    case DataType::UInt32:
      return 4;
    case DataType::Int64:
    case DataType::UInt64:
    case DataType::Float64:
      return 8;
  }
  return 0;
}

// "FLOAT32", "FLOAT16", "INT32", "UINT32", "INT64", "UINT64", "FLOAT64".
VKSCAN_API const char* dataTypeName(DataType type) noexcept;

// A tensor in a buffer, as DML_BUFFER_TENSOR_DESC.
//   sizes:   1 to 8 dimensions, outermost first. A size of 0 makes an empty
//            tensor, which is valid and records nothing (DML rejects it; ONNX
//            and PyTorch users expect it).
//   strides: empty for the packed (row-major) layout, or one stride per
//            dimension in elements (not bytes). A stride of 0 on the input
//            broadcasts; the output may not overlap itself.
struct VKSCAN_API TensorDesc {
  DataType dataType = DataType::Float32;
  std::vector<uint32_t> sizes;
  std::vector<uint32_t> strides;

  // Number of elements: the product of sizes (0 for an empty tensor).
  uint64_t elementCount() const noexcept;

  // Bytes from the first element to the end of the last:
  // (1 + sum((size[d] - 1) * stride[d])) * elementSize, 0 for an empty tensor.
  // The host memory Device::run() reads or writes. Assumes sizes and strides
  // are consistent (see Device::createOperator for the checks).
  uint64_t spanBytes() const noexcept;

  // DMLCalcBufferTensorSize: spanBytes() rounded up to a multiple of 4, the
  // least size of a buffer binding (Operator::record()).
  uint64_t totalBytes() const noexcept;
};

// The operator, as DML_CUMULATIVE_SUMMATION_OPERATOR_DESC.
// input and output must have the same dataType and sizes (strides may differ).
struct CumulativeSummationDesc {
  TensorDesc input;
  TensorDesc output;
  uint32_t axis = 0;  // < number of dimensions
  AxisDirection axisDirection = AxisDirection::Increasing;
  bool hasExclusiveSum = false;
};

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

// Base of every exception vkscan throws.
class VKSCAN_API Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A descriptor, binding or option that cannot be accepted. field() names it
// in the descriptor's own terms (e.g. "output.sizes[2]", "axis",
// "bindings.output.offset"), reason() says the value and why, and what() is
// "<field>: <reason>" (tools that name the field their own way use reason()).
class VKSCAN_API InvalidArgument : public Error {
 public:
  InvalidArgument(std::string field, std::string reason);
  const std::string& field() const noexcept { return field_; }
  const std::string& reason() const noexcept { return reason_; }

 private:
  std::string field_;
  std::string reason_;
};

// The device cannot do what was asked (a type it lacks, a missing feature).
class VKSCAN_API Unsupported : public Error {
 public:
  using Error::Error;
};

// "VK_ERROR_DEVICE_LOST" and so on; "VkResult(unknown)" for other values.
VKSCAN_API const char* vkResultName(VkResult result) noexcept;

// A Vulkan call failed. result() is its VkResult, call() the function name.
class VKSCAN_API VulkanError : public Error {
 public:
  VulkanError(VkResult result, std::string call, const std::string& context = {});
  VkResult result() const noexcept { return result_; }
  const std::string& call() const noexcept { return call_; }

 private:
  VkResult result_;
  std::string call_;
};

// ---------------------------------------------------------------------------
// Device
// ---------------------------------------------------------------------------

// On a device without shaderInt64 (or with DeviceOptions::disableInt64),
// vkscan's kernels hold offsets in 32 bits: createOperator() refuses an input
// or output tensor whose totalBytes() exceeds this.
inline constexpr uint64_t kMaxTensorBytesWithoutInt64 = uint64_t{1} << 30;

// What the device can do, read once when the Device is made. vkscan needs
// bufferDeviceAddress; the other features only choose kernels:
//   shaderInt64               without it, 64-bit integers are emulated with
//                             32-bit pairs (same results, the 64-bit types
//                             may run slower) and tensors are limited to
//                             kMaxTensorBytesWithoutInt64 bytes
//   storageBuffer16BitAccess  without it, FLOAT16 is loaded and stored as
//                             32-bit words (same results, may run slower)
//   shaderFloat64             needed by FLOAT64 only
//   shaderFloat16             never needed (halves are converted, not added)
struct VKSCAN_API DeviceCapabilities {
  std::string deviceName;
  std::string driverName;
  std::string driverInfo;
  uint32_t vendorID = 0;
  uint32_t deviceID = 0;
  uint32_t apiVersion = 0;
  uint32_t driverVersion = 0;
  VkDriverId driverID{};  // VkPhysicalDeviceDriverProperties
  VkPhysicalDeviceType deviceType = VK_PHYSICAL_DEVICE_TYPE_OTHER;

  uint32_t subgroupSize = 0;
  VkSubgroupFeatureFlags subgroupOperations = 0;
  bool subgroupSizeControl = false;

  // What the physical device reports, less what DeviceOptions disables. A
  // headless Device enables each on its VkDevice except shaderFloat16, which
  // vkscan's kernels never use (they convert halves, never add them).
  bool shaderInt64 = false;
  bool shaderFloat64 = false;
  bool shaderFloat16 = false;
  bool storageBuffer16BitAccess = false;
  bool bufferDeviceAddress = false;
  // VK_KHR_push_descriptor is enabled on the device. The chunk kernels of an
  // operator whose input, output and scratch all fit maxStorageBufferRange
  // (and 2^31 bytes, the reach of their 32-bit offsets) then bind them as
  // storage buffers, which CPU implementations access faster than device
  // addresses; other operators, and every operator on other devices, go
  // through device addresses. Results are the same bits either way. A
  // binding is bound from its offset rounded down to
  // minStorageBufferOffsetAlignment, so a tensor fits if it does with the
  // largest such lead its 16-byte-aligned offset can have: a tensor of
  // exactly maxStorageBufferRange (up to 2^31) fits where that alignment is
  // 16 or less.
  bool pushDescriptor = false;

  uint64_t maxStorageBufferRange = 0;
  // Texels of 16 bytes a BufferBinding::texelView may span.
  uint32_t maxTexelBufferElements = 0;
  uint32_t maxComputeSharedMemorySize = 0;
  uint32_t maxComputeWorkGroupInvocations = 0;
  uint32_t maxComputeWorkGroupCount[3] = {0, 0, 0};
  uint32_t maxPushConstantsSize = 0;
  uint64_t minStorageBufferOffsetAlignment = 0;
  float timestampPeriod = 0.0f;
  bool timestampComputeAndGraphics = false;

  // True when vkscan can scan `type` on this device: every type given
  // bufferDeviceAddress, and FLOAT64 needs shaderFloat64 as well.
  bool supports(DataType type) const noexcept;
};

// A physical device as listed by Device::enumerate().
struct PhysicalDeviceSummary {
  uint32_t index = 0;
  std::string name;
  VkPhysicalDeviceType type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
  uint32_t apiVersion = 0;
  bool usable = false;  // Vulkan 1.2+, a compute queue, bufferDeviceAddress
};

// Options for a headless device made by vkscan.
// How kernels move vectors of 4-byte elements (FLOAT32, INT32, UINT32), and
// with Load64Store32 also of INT64 and UINT64 (then summed as pairs of 32-bit
// words), through memory. Every choice gives the same bits; only the speed
// differs, and only on CPU implementations (lavapipe accesses memory one
// vector component at a time; GPUs load 16 bytes either way).
enum class VectorWords {
  Automatic,      // chosen when the Device is made; see DeviceOptions::vectorWords
  Bits32,         // vectors of 32-bit words
  Bits64,         // 64-bit words and, where aligned, 32-byte units (needs shaderInt64)
  Load64Store32,  // loads as Bits64, stores as Bits32 (needs shaderInt64)
};

// "Automatic", "Bits32", "Bits64" or "Load64Store32"; "UNKNOWN" for a value
// outside the enum.
VKSCAN_API const char* vectorWordsName(VectorWords words) noexcept;

struct DeviceOptions {
  // Physical device to use, as an index into Device::enumerate(). -1 picks
  // the environment variable VKSCAN_DEVICE (an index, or a substring of the
  // name) if set, else the first usable discrete GPU, else the first usable.
  // Other negative values are refused.
  int deviceIndex = -1;
  // If not empty and deviceIndex is -1, the first usable device whose name
  // contains this text (VKSCAN_DEVICE is then not read).
  std::string deviceName;
  // Enable VK_LAYER_KHRONOS_validation (with synchronization validation where
  // the layer offers VK_EXT_validation_features) if it and VK_EXT_debug_utils
  // are installed. Every warning and error it reports is counted
  // (validationMessageCount()) and printed to stderr. A headless Device only:
  // an ExternalDevice runs on the engine's instance, with the engine's layers.
  bool enableValidation = false;
  // Contents of a previous Device::pipelineCacheData(), to warm-start the
  // VkPipelineCache. Data from another device or driver is ignored.
  std::vector<uint8_t> pipelineCacheData;
  // Upper bound for Device::run()'s wait on the GPU, in nanoseconds; a wait
  // that exceeds it throws VulkanError(VK_TIMEOUT). The GPU may still be
  // using that run's buffers, command pool and fence, so they are not
  // destroyed then: the Device keeps them until their fence signals (freed
  // by a later run()) and waits for it when the Device is destroyed.
  uint64_t timeoutNs = 60ull * 1000 * 1000 * 1000;
  // The disable* options pretend the device lacks features, to test how an
  // application copes with such devices, or to tell vkscan that an
  // ExternalDevice was created without a feature its physical device has.
  // A headless device is then created without the feature; an ExternalDevice
  // keeps what the engine enabled. All default to false.
  //
  // shaderInt64: capabilities().shaderInt64 reads false and vkscan uses its
  // int64-free kernels: every type still runs with the same results, but
  // createOperator() refuses tensors over kMaxTensorBytesWithoutInt64 bytes.
  // Where their 32-bit words are faster for 4-byte types, vectorWords
  // (below) gets that speed without the limit.
  bool disableInt64 = false;
  // shaderFloat64: capabilities().shaderFloat64 reads false, supports(FLOAT64)
  // is false and createOperator() throws Unsupported for FLOAT64.
  bool disableFloat64 = false;
  // 16-bit types: capabilities().shaderFloat16 and storageBuffer16BitAccess
  // read false. FLOAT16 still runs, with the same results: its kernels then
  // load and store halves as 32-bit words.
  bool disableFloat16 = false;
  // Pretend the device lacks VK_KHR_push_descriptor: every kernel then uses
  // device addresses (capabilities().pushDescriptor reads false). A headless
  // device is created without the extension. Default false.
  bool disablePushDescriptor = false;
  // Automatic: Bits64, except on a headless Device over a CPU implementation
  // (VK_PHYSICAL_DEVICE_TYPE_CPU) with VK_KHR_push_descriptor: there the
  // Device times a copy in each of the three forms when it is made, once per
  // process and physical device (about 0.2 s on lavapipe, pipelines
  // included), and takes another form than Bits64 only where it copied at
  // least 10 % faster. Measured with lavapipe on an Intel Xeon, FLOAT32 1-D
  // 2^24 ran at 7.8 GB/s with Bits32, 9.2 with Load64Store32 and 6.6 with
  // Bits64; on an AMD EPYC Bits64 was the faster (README). An
  // ExternalDevice never submits work at creation, so there Automatic means
  // Bits64; an engine on a CPU implementation can ask for another form.
  // Without shaderInt64 (absent, or disableInt64) kernels always move 32-bit
  // words, whatever is asked. Device::vectorWords() tells the outcome.
  VectorWords vectorWords = VectorWords::Automatic;
  // Operators createOperator() keeps, by descriptor: asked again for a
  // descriptor equal to a kept one's (same types, sizes, strides, axis,
  // direction and exclusive flag), it returns that operator, skipping
  // validation, planning and pipeline lookups. Past this many, the least
  // recently used is dropped; each holds its plan (1-2 KB). 0 keeps
  // none, so that every call plans afresh (its pipelines still come from
  // the pipeline cache).
  size_t operatorCacheCapacity = 256;
};

// An engine's own Vulkan objects, which it keeps owning. vkscan never
// destroys them; they must outlive the vkscan::Device.
// Requirements: the device was created with Vulkan 1.2+ and the
// bufferDeviceAddress feature enabled (shaderFloat64 too, for FLOAT64).
// Optional: vkscan uses shaderInt64 and storageBuffer16BitAccess whenever the
// physical device reports them, so the engine either enables them or sets
// DeviceOptions::disableInt64 / disableFloat16 for those it left disabled.
// Without shaderInt64 tensors are limited to kMaxTensorBytesWithoutInt64
// bytes and the 64-bit types may run slower; without
// storageBuffer16BitAccess FLOAT16 may run slower. Results are the same bits
// either way. shaderFloat16 is never needed: halves are only converted,
// never added.
struct ExternalDevice {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  // Used only by Device::run(); may be VK_NULL_HANDLE if run() is not used.
  // run() submits to it under a lock of vkscan's own, which the engine does
  // not share: Vulkan requires the engine not to use the queue meanwhile.
  VkQueue queue = VK_NULL_HANDLE;
  // The family of `queue`, which must have compute.
  uint32_t queueFamilyIndex = 0;
  // The loader entry point the engine uses; nullptr uses the system loader.
  PFN_vkGetInstanceProcAddr getInstanceProcAddr = nullptr;
  // An engine-owned cache to create pipelines in. VK_NULL_HANDLE makes vkscan
  // create and own one (see DeviceOptions::pipelineCacheData).
  VkPipelineCache pipelineCache = VK_NULL_HANDLE;
  // The engine enabled VK_KHR_push_descriptor on `device` (optional; see
  // DeviceCapabilities::pushDescriptor). vkscan cannot query which device
  // extensions were enabled, so it uses the extension only when told.
  bool pushDescriptorEnabled = false;
};

// A buffer range bound to an operator. The buffer must have been created with
// VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT
// (the scratch buffer also with VK_BUFFER_USAGE_TRANSFER_DST_BIT: look-back
// dispatches fill a few words of it with vkCmdFillBuffer) and bound to memory
// allocated with VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT.
// offset must be a multiple of 16 bytes (DML_MINIMUM_BUFFER_TENSOR_ALIGNMENT).
// size is the bytes available from offset (VK_WHOLE_SIZE is not accepted:
// vkscan cannot know a buffer's size). Without shaderInt64 only the tensor's
// own span is limited (kMaxTensorBytesWithoutInt64), not the buffer's size
// or the offset: kernels receive full 64-bit addresses either way.
//
// texelView (optional, read for the input binding only): a uniform texel
// buffer view of `buffer` from `offset`, format VK_FORMAT_R32G32B32A32_UINT,
// whose range covers at least the tensor's bytes rounded down to 16 (or
// VK_WHOLE_SIZE); the buffer then also needs
// VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT. The caller owns it and keeps it
// alive until the recorded work completes, like the buffer. On CPU
// implementations of Vulkan, which gather texel fetches but load storage
// buffers one lane at a time, the kernels read the input through it (several
// times faster on lavapipe); elsewhere, in place where the plan takes a
// single pass with look-back, where the tensor spans more than
// maxTexelBufferElements texels, or where the storage binding
// cannot start at `offset` (an offset not a multiple of
// minStorageBufferOffsetAlignment), it is ignored. Results are the same bits
// either way. vkscan cannot query a view, so a view that breaks this
// contract gives wrong results, not an error.
struct BufferBinding {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize offset = 0;
  VkDeviceSize size = 0;
  VkBufferView texelView = VK_NULL_HANDLE;
};

// The host threads a CPU implementation of Vulkan (device type CPU, such as
// lavapipe) is expected to run workgroups on, as vkscan's plans assume them
// (Device::cpuWorkerThreads()): how many lines are walked whole, and how few
// invocations are spread over workgroups of a subgroup, follow from them. A
// wrong guess costs speed, never bits. Both 0 on a GPU, and where the CPUs
// cannot be counted.
struct CpuWorkerThreads {
  // Threads the implementation hands workgroups to: on lavapipe
  // LP_NUM_THREADS (at most 32; 0 starts none and the submitting thread runs
  // the workgroups, which counts as 1), by default one per CPU this process
  // may run on; on other CPU implementations one per such CPU.
  uint32_t workers = 0;
  // How many of the workers run at once: at most the CPUs this process may
  // run on (its affinity mask, such as taskset's or a container's cpuset).
  uint32_t concurrent = 0;
};

class Operator;
namespace detail {
struct DeviceAccess;
}

// A Vulkan device vkscan records work for. Thread-safe: createOperator(),
// run() and the pipeline cache may be used from several threads at once.
// Move-only; copies would share the pipeline cache ambiguously.
class VKSCAN_API Device {
 public:
  // Lists the physical devices the system loader reports.
  // Throws Unsupported when the Vulkan loader (libvulkan.so.1) cannot be
  // loaded, VulkanError when no Vulkan instance can be made (the message says
  // so when no driver is installed).
  static std::vector<PhysicalDeviceSummary> enumerate();

  // Creates a headless instance and device (see DeviceOptions for the choice).
  // Throws Unsupported when the Vulkan loader cannot be loaded or no usable
  // device exists, InvalidArgument for a deviceIndex below -1 or past the
  // devices, a deviceName or VKSCAN_DEVICE (field "VKSCAN_DEVICE") no usable
  // device matches or a vectorWords outside the enum, VulkanError on a failed
  // call (including the vectorWords timing, which may also throw Unsupported
  // as run() does).
  explicit Device(const DeviceOptions& options = {});

  // Wraps an engine's device; see ExternalDevice for what it must provide.
  // Throws InvalidArgument for a null handle, a queueFamilyIndex past the
  // physical device's families or without compute (checked when queue is
  // set), or a vectorWords outside the enum; Unsupported when the physical
  // device reports Vulkan below 1.2, a required feature or push-constant
  // space is missing, or the loader cannot be loaded; VulkanError on a failed
  // call. Nothing is left on the engine's device when it throws.
  Device(const ExternalDevice& external, const DeviceOptions& options = {});

  ~Device();
  Device(Device&&) noexcept;
  Device& operator=(Device&&) noexcept;
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const DeviceCapabilities& capabilities() const noexcept;
  VkDevice handle() const noexcept;
  VkPhysicalDevice physicalDevice() const noexcept;
  VkInstance instance() const noexcept;
  VkQueue queue() const noexcept;
  uint32_t queueFamilyIndex() const noexcept;

  // Validates `desc` and returns an operator whose pipelines come from this
  // device's cache (created on first use of a pipeline key, then shared).
  // For a descriptor equal to one it kept (DeviceOptions::
  // operatorCacheCapacity), it returns that operator again, with no work.
  // Throws InvalidArgument naming the field at fault (rank 0 or > 8, axis out
  // of range, type/rank/sizes mismatch, output strides that overlap, sizes or
  // strides whose extent overflows, "input.sizes" for a problem past the
  // device's workgroup-count limits), Unsupported for a type the device cannot
  // do or, without shaderInt64, for an input or output whose totalBytes()
  // exceeds kMaxTensorBytesWithoutInt64 (the message names "input" or
  // "output"), VulkanError if pipeline creation fails. Nothing is recorded.
  Operator createOperator(const CumulativeSummationDesc& desc) const;

  // Synchronous convenience: allocates device buffers, uploads `input`
  // (spanBytes() of desc.input), records, submits on queue(), waits (bounded
  // by DeviceOptions::timeoutNs) and downloads into `output` (spanBytes() of
  // desc.output; for strided outputs, bytes between the tensor's elements are
  // copied from `output` as given and written back unchanged). Neither
  // pointer is touched for an empty tensor.
  // `output == input` runs the operator in place (one buffer bound twice),
  // which requires identical input and output layouts.
  // Throws as createOperator; InvalidArgument for a null `input` or `output`
  // (field "input" or "output"), in place for output strides that differ
  // from the input's (field "output"), or on an ExternalDevice without a
  // queue (field "external.queue"); Unsupported when no host-visible memory
  // can hold the staging buffers; VulkanError. On any failure `output` is
  // unchanged.
  void run(const CumulativeSummationDesc& desc, const void* input, void* output) const;

  // The VkPipelineCache's data, for DeviceOptions::pipelineCacheData.
  std::vector<uint8_t> pipelineCacheData() const;

  // Messages reported by the validation layer since the device was made.
  uint64_t validationMessageCount() const noexcept;
  // True when DeviceOptions::enableValidation found the layer installed, so
  // that validationMessageCount() counts its messages. False without the
  // option, without the layer, and for an ExternalDevice (whose instance is
  // the engine's). A zero count proves nothing unless this is true.
  bool validationEnabled() const noexcept;

  // Pipelines created so far (each a distinct key), for tests and tools.
  size_t cachedPipelineCount() const noexcept;

  // The vector words this device's kernels use: Bits32, Bits64 or
  // Load64Store32, never Automatic (DeviceOptions::vectorWords).
  VectorWords vectorWords() const noexcept;

  // The worker threads vkscan's plans expect on a CPU device, found when the
  // Device was made (LP_NUM_THREADS is read then); zeros on a GPU.
  CpuWorkerThreads cpuWorkerThreads() const noexcept;

  struct Impl;

 private:
  friend struct detail::DeviceAccess;  // vkscan's own tests and tools
  std::shared_ptr<Impl> impl_;
};

// A validated cumulative summation bound to a device, ready to record.
// Cheap to copy; holds the device's internals alive.
class VKSCAN_API Operator {
 public:
  const CumulativeSummationDesc& desc() const noexcept;

  // Bytes of scratch memory record() needs; 0 when it needs none (then the
  // scratch binding may be empty).
  VkDeviceSize scratchSize() const noexcept;

  // Number of compute dispatches record() emits (0 for an empty tensor).
  uint32_t dispatchCount() const noexcept;

  // Records the scan into `commandBuffer`, which must be in the recording
  // state, outside a render pass, on a queue family with compute.
  //
  // Bindings: input and output as BufferBinding describes, each at least
  // desc().input/output.totalBytes() long; output may be exactly the input
  // binding (same buffer, offset and descriptor: in place) but may not
  // otherwise overlap it. scratch at least scratchSize() bytes, offset a
  // multiple of 16, not overlapping input or output; its contents on entry do
  // not matter and on exit are undefined.
  //
  // Synchronisation contract:
  //   before: the caller makes writes to input (and to scratch by earlier
  //     work) available and visible to VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT
  //     with VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT, and
  //     orders earlier reads of output and scratch before this work.
  //   inside: vkscan inserts the compute->compute barriers between its own
  //     dispatches (scratch and output hazards); before each dispatch of the
  //     single pass with look-back (lines of at most 65536 elements on CPU
  //     devices) it fills a few words of scratch with vkCmdFillBuffer,
  //     between compute->transfer and transfer->compute barriers of its own.
  //     Nothing else.
  //   after: the output is written by VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT with
  //     VK_ACCESS_SHADER_WRITE_BIT; the caller places the barrier its consumer
  //     needs.
  // The command buffer's bound compute pipeline and push constants are
  // changed; with DeviceCapabilities::pushDescriptor, so is compute
  // descriptor set 0 (pushed with vkscan's pipeline layout). No descriptor
  // sets are allocated.
  //
  // Throws InvalidArgument naming the binding at fault (null buffer, size too
  // small, misaligned offset, partial overlap) before anything is recorded.
  void record(VkCommandBuffer commandBuffer, const BufferBinding& input,
              const BufferBinding& output, const BufferBinding& scratch = {}) const;

  struct Impl;

 private:
  friend class Device;
  explicit Operator(std::shared_ptr<const Impl> impl);
  std::shared_ptr<const Impl> impl_;
};

}  // namespace vkscan
