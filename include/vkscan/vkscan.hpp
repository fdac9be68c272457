// vkscan: cumulative sums (prefix scans) along one axis of a tensor on any
// Vulkan 1.2+ device, with the semantics of DirectML's
// DML_CUMULATIVE_SUMMATION_OPERATOR_DESC and bit-for-bit reproducible floats.
//
// The engine-facing core: this header. Headless helpers (a device of
// vkscan's own, run() on host memory, validation) are in <vkscan/host.hpp>;
// an optional hint only CPU implementations of Vulkan use is in
// <vkscan/cpu_hints.hpp>.
//
// Overview
//   vkscan::Device            wraps an engine's VkDevice (ExternalDevice)
//   Device::createOperator()  validates a CumulativeSummationDesc (or a product,
//                             maximum, minimum or log-sum-exp scan: ScanDesc),
//                             returns an Operator
//   Operator::scratchSize()   temporary device memory the operator needs
//   Operator::record()        records the scan into the caller's command buffer
//   Operator::describe()      the plan in words (kernels, workgroups, scratch)
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
//   A carry-in c (ScanDesc::carryIn) enters at the root: the carry at the
//   level with a single node is c instead of -0.0, so X_k(p) = X_{k+1}(p/16)
//   + L_k(p) all the way down from c (not c + the scan: that rounds
//   differently), and an exclusive out[0] is c. As the carries that pass
//   down are exact, a line scanned as consecutive chunks of 16^m elements
//   (the last shorter), each with carry-in X_m(j) made by this tree from
//   the earlier chunks' totals (ScanDesc::totals: the top node's value),
//   gives the bits of the line scanned whole.
//   Empty sums are -0.0, the exact additive identity, so a missing term never
//   changes a bit. Each "+" is one IEEE-754 addition in the accumulation type
//   (FP32 for FLOAT32, FLOAT16 and BFLOAT16, FP64 for FLOAT64),
//   round-to-nearest-even, never contracted or reassociated (kernels use
//   `precise`). FLOAT16 and BFLOAT16 results are the FP32 result rounded once
//   to nearest-even on store (overflow gives infinity, every NaN the quiet NaN
//   of its sign: 0x7E00 for FLOAT16, 0x7FC0 for BFLOAT16). The kernels convert
//   both with integer code rather than the device's conversions, which Vulkan
//   lets round toward zero or flush half denormals, so FLOAT16 keeps its
//   denormals and both give the same bits on every device. A BFLOAT16 input is
//   widened exactly (its bits are the top half of an FP32).
//   Denormals: the device's default float mode applies (vkscan does not request
//   denorm preservation); lavapipe and many GPUs flush FP32 denormals to zero,
//   so the bit-for-bit guarantee covers inputs and partial sums that are
//   normal numbers, zeros, infinities and NaNs (NaN payloads may differ). This
//   covers BFLOAT16 as FLOAT32: its denormals are FP32 denormals.
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

#include <vkscan/version.h>
#include <vulkan/vulkan_core.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

// Symbols of the shared library's interface; everything else is hidden,
// VKSCAN_HIDDEN marking the internal members of exported classes.
#if defined(_WIN32)
#define VKSCAN_API
#define VKSCAN_HIDDEN
#else
#define VKSCAN_API __attribute__((visibility("default")))
#define VKSCAN_HIDDEN __attribute__((visibility("hidden")))
#endif

namespace vkscan {

// The VKSCAN_VERSION (<vkscan/version.h>) of the library loaded at run time,
// which may differ from the headers a program was built with.
VKSCAN_API uint32_t version() noexcept;

// ---------------------------------------------------------------------------
// Tensor description, mirroring DML_BUFFER_TENSOR_DESC
// ---------------------------------------------------------------------------

// BFloat16 is bfloat16 (1 sign, 8 exponent and 7 mantissa bits: the top half
// of a FLOAT32); it comes last so that the earlier values keep theirs.
enum class DataType : uint32_t {
  Float32,
  Float16,
  Int32,
  UInt32,
  Int64,
  UInt64,
  Float64,
  BFloat16
};

enum class AxisDirection : uint32_t { Increasing, Decreasing };

inline constexpr uint32_t kMaxDimensions = 8;

// Bytes per element of `type`; 0 for a value outside DataType.
constexpr size_t dataTypeSize(DataType type) noexcept {
  switch (type) {
    case DataType::Float16:
    case DataType::BFloat16:
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

// "FLOAT32", "FLOAT16", "INT32", "UINT32", "INT64", "UINT64", "FLOAT64",
// "BFLOAT16".
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
  // The host memory vkscan::run() (host.hpp) reads or writes. Assumes sizes and strides
  // are consistent (see Device::createOperator for the checks).
  uint64_t spanBytes() const noexcept;

  // DMLCalcBufferTensorSize: spanBytes() rounded up to a multiple of 4, the
  // least size of a buffer binding (Operator::record()).
  uint64_t totalBytes() const noexcept;
};

// Wider outputs (vkscan's extension; DML requires equal types). An output
// may take a wider type than its input where every value converts exactly:
//   input      output
//   INT32      INT64
//   UINT32     UINT64
//   FLOAT16    FLOAT32
//   BFLOAT16   FLOAT32
//   FLOAT32    FLOAT64
// The scan then accumulates in the output's type, as if the input had been
// converted first (numpy's and PyTorch's dtype=): an INT32 sum that would
// wrap is exact in INT64. Such an operator runs one more pass (the widening
// copy) and cannot run in place. True for these pairs only.
constexpr bool outputTypeWidens(DataType input, DataType output) noexcept {
  switch (input) {
    case DataType::Int32:
      return output == DataType::Int64;
    case DataType::UInt32:
      return output == DataType::UInt64;
    case DataType::Float16:
    case DataType::BFloat16:
      return output == DataType::Float32;
    case DataType::Float32:
      return output == DataType::Float64;
    default:
      return false;
  }
}

// The operator, as DML_CUMULATIVE_SUMMATION_OPERATOR_DESC.
// input and output must have the same sizes (strides may differ) and the
// same dataType, or an output type that widens the input's
// (outputTypeWidens()).
struct CumulativeSummationDesc {
  TensorDesc input;
  TensorDesc output;
  uint32_t axis = 0;  // < number of dimensions
  AxisDirection axisDirection = AxisDirection::Increasing;
  bool hasExclusiveSum = false;
};

// The scan family: what combines two values, in the canonical order above
// with "+" replaced by the operation and -0.0 by its identity.
//   Sum      as described above.
//   Product  identity 1 (exact: x * 1 == x). Integers wrap modulo 2^bits.
//            Floats: the same tree of IEEE multiplications, rounded to
//            nearest-even; FLOAT16 and BFLOAT16 multiply in FP32. k factors
//            take k - 1 roundings in any order: relative error at most
//            (k - 1) * 2^-24 for FLOAT32 (first order), as a serial loop's.
//   Maximum, Minimum  select one operand, so every type is exact in any
//            order. Ties go to the later element in traversal order (-0.0
//            against +0.0 included) and a NaN always wins, so the latest NaN
//            propagates: PyTorch's cummax and cummin. Identity: -infinity
//            (Maximum) or +infinity (Minimum) for floats, the type's least or
//            greatest value for integers (signed types compare signed).
//   LogSumExp  log(exp(a) + exp(b)) (torch.logcumsumexp); float types only
//            (FLOAT16 and BFLOAT16 in FP32, FLOAT64 in FP64), integers are
//            refused ("input.dataType"). Identity -infinity. Built from IEEE
//            additions and multiplications alone in one fixed sequence
//            (docs/design.md), so the same bits on every device, and exactly
//            commutative. A NaN operand gives the positive quiet NaN,
//            +infinity gives +infinity. One step's error: at most 2.5 ulp of
//            the result where the larger operand is >= 0 (measured 2.03
//            FP32, 2.25 FP64), else 1 ulp of the result plus 2 ulp of ln 2
//            (the sum cancels there); a FLOAT32 scan of values in [-30, 30]
//            stays within 4 ulp of max(|exact|, 1) of float64's
//            logcumsumexp (measured 2.9 on lines of 2 to 10^5 elements;
//            test/lib/log_sum_exp_test.cpp, test/python/test_torch.py).
//            Results and partial results that are denormal fall outside the
//            bit-for-bit guarantee, as for sums.
// Exclusive scans start from the identity (out[0] is the identity; for Sum
// it is +0.0, as DML).
enum class ScanOperation : uint32_t { Sum, Product, Maximum, Minimum, LogSumExp };

// "SUM", "PRODUCT", "MAXIMUM", "MINIMUM", "LOG_SUM_EXP"; "UNKNOWN" outside
// ScanOperation.
VKSCAN_API const char* scanOperationName(ScanOperation operation) noexcept;

// As DML_CUMULATIVE_PRODUCT_OPERATOR_DESC (ONNX CumProd, torch.cumprod).
struct CumulativeProductDesc {
  TensorDesc input;
  TensorDesc output;
  uint32_t axis = 0;
  AxisDirection axisDirection = AxisDirection::Increasing;
  bool hasExclusiveProduct = false;
};

// The type of a line's carry-in and total (ScanDesc::carryIn, totals): the
// accumulation type, FLOAT32 for FLOAT16, BFLOAT16 and FLOAT32 outputs,
// FLOAT64 for FLOAT64, the output's own type for integers. `outputType`
// itself for a value outside DataType.
VKSCAN_API DataType carryType(DataType outputType) noexcept;

// Any scan of the family; the fields mean what the summation's do. Every
// operation but LogSumExp takes every DataType (DML has no maximum, minimum
// or log-sum-exp scan: these are vkscan's own).
//   indices: Maximum and Minimum only, optional (empty sizes: none). Each
//     element's index along `axis` of the element its output value was
//     taken from, PyTorch's cummax/cummin indices: with ties to the later
//     element and NaNs winning, the latest maximal element's, or the latest
//     NaN's. dataType INT64, the input's sizes, and the output's element
//     strides (empty where the output's are). Not with `exclusive`, an
//     output type other than the input's, or in place. Costs two more
//     passes: the records (reading input and output) and a scan of the
//     indices in place.
//   carryIn: optional (empty sizes: none). Each line's carry, which enters
//     the canonical order at the line's root (see "Canonical summation
//     order"): a long line scanned in chunks, each with the carry of the
//     chunks before it. dataType carryType(output.dataType), sizes the
//     output's with sizes[axis] = 1, strides empty (packed) or explicit (a
//     stride of 0 broadcasts: it is only read). An exclusive scan's first
//     output is the carry (the +0.0 of sums applies only without a
//     carry-in). An empty tensor records nothing (no totals either).
//   totals: optional (empty sizes: none). Written with each line's total:
//     the tree's reduction of the line (the top node's value, the line's
//     wrapped sum or product, maximum or minimum, log-sum-exp) without the
//     carry-in, in carryType(output.dataType); sizes as carryIn's, strides
//     empty or explicit, not overlapping themselves.
//   GPU plans on a contiguous axis, or on a strided one whose lines are few
//   and long, stay one dispatch: it reads each carry-in and writes each
//   total where it lies (64 bytes of scratch hold their addresses). Other
//   plans copy each of carryIn and totals between its layout and scratch, a
//   pass each (scratch grows by a value a line for each), walk chunks of
//   each line, and totals cost one more reduce of the input where a line is
//   walked whole. Neither is allowed with indices (an index has
//   no carry to continue from). A wider output (outputTypeWidens()) takes
//   them in its own carry type.
struct ScanDesc {
  ScanOperation operation = ScanOperation::Sum;
  TensorDesc input;
  TensorDesc output;
  uint32_t axis = 0;
  AxisDirection axisDirection = AxisDirection::Increasing;
  bool exclusive = false;
  TensorDesc indices{DataType::Int64, {}, {}};
  TensorDesc carryIn{DataType::Float32, {}, {}};
  TensorDesc totals{DataType::Float32, {}, {}};
};

inline ScanDesc scanDesc(const CumulativeSummationDesc& desc) {
  return {ScanOperation::Sum, desc.input,         desc.output,
          desc.axis,          desc.axisDirection, desc.hasExclusiveSum};
}

inline ScanDesc scanDesc(const CumulativeProductDesc& desc) {
  return {ScanOperation::Product,  desc.input, desc.output, desc.axis, desc.axisDirection,
          desc.hasExclusiveProduct};
}

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

// Without shaderInt64, vkscan's kernels hold offsets in 32 bits:
// createOperator() refuses an input or output tensor whose totalBytes()
// exceeds this.
inline constexpr uint64_t kMaxTensorBytesWithoutInt64 = uint64_t{1} << 30;

// An engine's own Vulkan objects, which it keeps owning. vkscan never
// destroys them; they must outlive the vkscan::Device and its operators.
//
// Requirements: Vulkan 1.2+ and the bufferDeviceAddress feature enabled.
// vkscan uses only what the engine says it enabled (enabledFeatures and
// enabledExtensionNames, read once by the Device constructor, which keeps no
// pointer to them):
//   shaderInt64               without it, 64-bit integers are summed as pairs
//                             of 32-bit words (same results) and tensors are
//                             limited to kMaxTensorBytesWithoutInt64 bytes
//   storageBuffer16BitAccess  without it, FLOAT16 and BFLOAT16 are loaded and
//                             stored as 32-bit words (same results)
//   shaderFloat64             needed by FLOAT64 only
//   VK_KHR_push_descriptor    optional; the chunk kernels then bind tensors
//                             that fit maxStorageBufferRange as storage
//                             buffers instead of device addresses (same
//                             results)
//   computeFullSubgroups      optional (VK_EXT_subgroup_size_control or
//                             Vulkan 1.3); the kernels with subgroup
//                             operations then require full subgroups, which
//                             their lane order assumes. Without it, a device
//                             whose subgroup size varies (minSubgroupSize <
//                             maxSubgroupSize: AMD, Intel) gets plans without
//                             those kernels: slower on GPUs, same results
// shaderFloat16 is never needed: halves are converted, never added (and
// bfloat16 needs no extension).
struct ExternalDevice {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  // The loader entry point the engine uses; nullptr uses the system loader.
  PFN_vkGetInstanceProcAddr getInstanceProcAddr = nullptr;
  // The feature chain the engine passed to vkCreateDevice (as
  // VkDeviceCreateInfo::pNext): VkPhysicalDeviceFeatures2 followed by any of
  // VkPhysicalDeviceVulkan11Features / Vulkan12Features / Vulkan13Features,
  // VkPhysicalDevice16BitStorageFeatures,
  // VkPhysicalDeviceBufferDeviceAddressFeatures and
  // VkPhysicalDeviceSubgroupSizeControlFeatures; other structs are skipped.
  // nullptr: only bufferDeviceAddress was enabled. A feature the physical
  // device lacks is not used even if claimed here.
  const VkPhysicalDeviceFeatures2* enabledFeatures = nullptr;
  // The device extensions the engine enabled (VkDeviceCreateInfo::
  // ppEnabledExtensionNames). vkscan may use VK_KHR_push_descriptor; it
  // ignores the others.
  uint32_t enabledExtensionCount = 0;
  const char* const* enabledExtensionNames = nullptr;
  // An engine-owned cache to create pipelines in. VK_NULL_HANDLE makes vkscan
  // create and own one.
  VkPipelineCache pipelineCache = VK_NULL_HANDLE;
  // Used only by vkscan::run() (host.hpp); may be VK_NULL_HANDLE otherwise.
  // run() submits to it under a lock of vkscan's own, which the engine does
  // not share: Vulkan requires the engine not to use the queue meanwhile.
  VkQueue queue = VK_NULL_HANDLE;
  // The family of `queue`, which must have compute.
  uint32_t queueFamilyIndex = 0;
  // Operators createOperator() keeps by descriptor, least recently used out
  // first; asked again for an equal descriptor it returns the kept one with
  // no further work. 0 keeps none.
  size_t operatorCacheCapacity = 256;
};

// A buffer range bound to an operator. The buffer must have been created with
// VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT
// (the scratch buffer also with VK_BUFFER_USAGE_TRANSFER_DST_BIT: some plans
// write a few words of it with vkCmdFillBuffer or vkCmdUpdateBuffer) and bound
// to memory allocated with VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT.
// offset must be a multiple of 16 bytes (DML_MINIMUM_BUFFER_TENSOR_ALIGNMENT).
// size is the bytes available from offset (VK_WHOLE_SIZE is not accepted:
// vkscan cannot know a buffer's size).
struct BufferBinding {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize offset = 0;
  VkDeviceSize size = 0;
};

// Every binding of Operator::record(): input, output and scratch as
// record()'s first overload describes; indices, carryIn and totals where the
// descriptor has them (ScanDesc), null buffers where it has none. Each is at
// least its tensor's totalBytes() long, at an offset that is a multiple of
// 16, and overlaps no other binding's tensor (the output may be exactly the
// input's in place, and carryIn, which is only read, may share memory with
// an input that is not scanned in place). totals is written as the output
// is.
struct Bindings {
  BufferBinding input, output, scratch, indices, carryIn, totals;
};

class Operator;

// A Vulkan device vkscan records work for. Thread-safe: createOperator() and
// the operators may be used from several threads at once. Move-only.
class VKSCAN_API Device {
 public:
  // Wraps an engine's device; see ExternalDevice for what it must provide.
  // Throws InvalidArgument for a null handle, a queueFamilyIndex past the
  // physical device's families or without compute (checked when queue is
  // set), enabledExtensionNames null with a nonzero count, or a VKSCAN_TUNING
  // it cannot read (plans.hpp); Unsupported
  // when the physical device reports Vulkan below 1.2, bufferDeviceAddress
  // is not enabled, push-constant space is missing, a claimed extension's
  // entry points are missing (vkGetDeviceProcAddr returns null), or the
  // loader cannot be loaded; VulkanError on a failed call. Nothing is left on
  // the engine's device when it throws.
  explicit Device(const ExternalDevice& external);

  ~Device();
  Device(Device&&) noexcept;
  Device& operator=(Device&&) noexcept;
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  VkDevice handle() const noexcept;
  VkPhysicalDevice physicalDevice() const noexcept;
  VkInstance instance() const noexcept;
  VkQueue queue() const noexcept;
  uint32_t queueFamilyIndex() const noexcept;

  // True when createOperator() can scan `type` here: every type, except
  // FLOAT64 without shaderFloat64.
  bool supports(DataType type) const noexcept;

  // Validates `desc` and returns an operator whose pipelines come from this
  // device's cache (created on first use of a pipeline, then shared). For a
  // descriptor equal to a kept one (ExternalDevice::operatorCacheCapacity)
  // it returns that operator again, with no work.
  // Throws InvalidArgument naming the field at fault (rank 0 or > 8, axis out
  // of range, type/rank/sizes mismatch, output strides that overlap, sizes or
  // strides whose extent overflows, "input.sizes" for a problem past the
  // device's workgroup-count limits), Unsupported for a type the device cannot
  // do or, without shaderInt64, for an input or output whose totalBytes()
  // exceeds kMaxTensorBytesWithoutInt64 (the message names "input" or
  // "output"), VulkanError if pipeline creation fails. Nothing is recorded.
  Operator createOperator(const ScanDesc& desc) const;
  // The same for createOperator(scanDesc(desc)).
  Operator createOperator(const CumulativeSummationDesc& desc) const;
  Operator createOperator(const CumulativeProductDesc& desc) const;

  // vkscan's internals, opaque outside the library.
  struct Impl;
  struct Access;

 private:
  friend struct Access;
  VKSCAN_HIDDEN explicit Device(std::shared_ptr<Impl> impl) noexcept;
  std::shared_ptr<Impl> impl_;
};

// A validated scan bound to a device, ready to record. Cheap to copy; keeps
// the device's internals alive.
class VKSCAN_API Operator {
 public:
  // The descriptor it was made from (a summation's or product's as its
  // ScanDesc).
  const ScanDesc& desc() const noexcept;

  // Bytes of scratch memory record() needs; 0 when it needs none (then the
  // scratch binding may be empty).
  VkDeviceSize scratchSize() const noexcept;

  // Number of compute dispatches record() emits (0 for an empty tensor).
  uint32_t dispatchCount() const noexcept;

  // The plan in words, for logs and bug reports: one line per dispatch (its
  // kernel, data type, workgroups and workgroup size, the bytes it reads and
  // writes from which binding) and the scratch size. The format may change
  // between versions; do not parse it.
  std::string describe() const;

  // Records the scan into `commandBuffer`, which must be in the recording
  // state, outside a render pass, on a queue family with compute.
  //
  // Bindings: input and output as BufferBinding describes, each at least
  // desc().input/output.totalBytes() long; output may be exactly the input
  // binding (same buffer and offset: in place) but may not otherwise overlap
  // it. scratch at least scratchSize() bytes, offset a multiple of 16, not
  // overlapping input or output; its contents on entry do not matter and on
  // exit are undefined.
  //
  // Synchronisation contract:
  //   before: the caller makes writes to input (and to scratch by earlier
  //     work) available and visible to VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT
  //     with VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT, and
  //     orders earlier reads of output and scratch before this work.
  //   inside: vkscan inserts the compute->compute barriers between its own
  //     dispatches; before a single-pass dispatch with look-back it fills a
  //     few words of scratch with vkCmdFillBuffer, and before a dispatch that
  //     reads carry-ins or writes totals where they lie it writes 64 bytes of
  //     scratch with vkCmdUpdateBuffer, between compute->transfer and
  //     transfer->compute barriers of its own. Nothing else.
  //   after: the output is written by VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT
  //     with VK_ACCESS_SHADER_WRITE_BIT; the caller places the barrier its
  //     consumer needs.
  // The command buffer's bound compute pipeline, push constants and, where
  // the device has VK_KHR_push_descriptor, compute descriptor set 0 are
  // changed. No descriptor sets are allocated.
  //
  // Throws InvalidArgument naming the binding at fault (null buffer, size too
  // small, misaligned offset, partial overlap) before anything is recorded.
  void record(VkCommandBuffer commandBuffer, const BufferBinding& input,
              const BufferBinding& output, const BufferBinding& scratch = {}) const;
  // The same with the indices' binding (ScanDesc::indices), at least
  // desc().indices.totalBytes() long and overlapping no other binding;
  // written as the output is. Required where the descriptor has indices,
  // refused (null buffer expected) where it has none.
  void record(VkCommandBuffer commandBuffer, const BufferBinding& input,
              const BufferBinding& output, const BufferBinding& indices,
              const BufferBinding& scratch) const;
  // Every binding at once (Bindings; the overloads above forward here):
  // carryIn and totals required where the descriptor has them, refused
  // (null buffer expected) where it has none. carryIn is read by compute
  // shaders as the input is, and totals written as the output is (the same
  // synchronisation contract).
  void record(VkCommandBuffer commandBuffer, const Bindings& bindings) const;

  // vkscan's internals, opaque outside the library.
  struct Impl;

 private:
  friend class Device;
  friend struct Device::Access;
  VKSCAN_HIDDEN explicit Operator(std::shared_ptr<const Impl> impl);
  std::shared_ptr<const Impl> impl_;
};

}  // namespace vkscan
