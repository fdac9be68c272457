/* vkscan's C API: cumulative sums, products, maxima and minima along one
 * axis of a tensor on a Vulkan 1.2+ device, with the semantics of DirectML's
 * DML_CUMULATIVE_SUMMATION_OPERATOR_DESC (and _PRODUCT_), for C programs and
 * for other languages through their foreign-function interfaces (Rust, C#,
 * Zig...).
 *
 * It is the C++ API (<vkscan/vkscan.hpp>, <vkscan/host.hpp>) behind a C11
 * ABI: the same validation, plans, kernels and bits. The C++ header is the
 * reference for the semantics (the canonical summation order, what each
 * field accepts); this header says how the C spelling maps onto it.
 *
 * Overview
 *   vkscan_device_wrap()           wraps an engine's VkDevice (ExternalDevice)
 *   vkscan_device_get_capabilities() what the device can do (capabilities())
 *   vkscan_operator_create()       validates a descriptor, returns an operator
 *                                  (_create_scan(), _create_cumulative_product()
 *                                  for the other operations)
 *   vkscan_operator_get_properties() the scratch bytes the operator needs
 *   vkscan_operator_record()       records into the caller's command buffer
 *   vkscan_operator_destroy(), vkscan_device_destroy()
 * Headless helpers, for tools, tests and simple programs:
 *   vkscan_enumerate_devices()     the physical devices
 *   vkscan_device_create()         a device of vkscan's own (createDevice)
 *   vkscan_run(), vkscan_run_scan() a synchronous scan of host memory
 *   (vkscan_run_scan_indices() and vkscan_operator_record_indices() with
 *   a maximum's or minimum's indices)
 *
 * Errors
 *   Every function that can fail returns a vkscan_result; no C++ exception
 *   crosses this interface. On failure nothing is recorded, no output or
 *   handle is written, and nothing leaks. vkscan_last_error_message() then
 *   says why, naming the field at fault ("input.sizes[2]: ...") in this
 *   header's spelling. A null handle or pointer where one is required is
 *   refused with VKSCAN_ERROR_INVALID_ARGUMENT naming the parameter.
 *
 * Versions
 *   Each struct passed in begins with struct_size, which the caller sets to
 *   sizeof the struct: later versions may append fields, and tell which
 *   version of a struct a caller built with by its size. A size this library
 *   does not know is refused (field "<name>.struct_size"). Fill structs with
 *   designated initializers (or zero them first): appended fields then start
 *   NULL or 0, and -Wmissing-field-initializers stays quiet.
 *
 * Threads
 *   Devices and operators may be used from several threads at once, as in
 *   C++. The last error is kept per thread.
 *
 * Vulkan types
 *   This header includes <vulkan/vulkan_core.h> (no prototypes are needed:
 *   define VK_NO_PROTOTYPES as you like) rather than forward-declaring the
 *   handles: a second definition of VkDevice and the others would clash with
 *   the engine's own include of the Vulkan headers, which every caller of
 *   the recording functions has anyway.
 */
#ifndef VKSCAN_VKSCAN_H_
#define VKSCAN_VKSCAN_H_

#include <stddef.h>
#include <stdint.h>
#include <vkscan/version.h>
#include <vulkan/vulkan_core.h>

#ifndef VKSCAN_API
#if defined(_WIN32)
#define VKSCAN_API
#else
#define VKSCAN_API __attribute__((visibility("default")))
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The VKSCAN_VERSION (<vkscan/version.h>) of the library loaded at run time. */
VKSCAN_API uint32_t vkscan_version(void);

/* ------------------------------------------------------------------------
 * Results and errors
 * ------------------------------------------------------------------------ */

typedef enum vkscan_result {
  VKSCAN_SUCCESS = 0,
  /* vkscan_enumerate_devices() filled the array and more devices exist. */
  VKSCAN_INCOMPLETE = 1,
  /* A descriptor, binding, option or parameter that cannot be accepted
   * (C++ vkscan::InvalidArgument); the message names the field. */
  VKSCAN_ERROR_INVALID_ARGUMENT = -1,
  /* The device cannot do what was asked: a type it lacks, a size past its
   * limits, no Vulkan loader or no usable device (vkscan::Unsupported). */
  VKSCAN_ERROR_UNSUPPORTED = -2,
  /* A Vulkan call failed (vkscan::VulkanError), VK_TIMEOUT from
   * vkscan_run()'s wait included; vkscan_last_error_vk_result() says which. */
  VKSCAN_ERROR_VULKAN = -3,
  /* Host memory ran out (std::bad_alloc). */
  VKSCAN_ERROR_OUT_OF_HOST_MEMORY = -4,
  /* Any other failure inside the library; the message says what. */
  VKSCAN_ERROR_UNKNOWN = -5,
  VKSCAN_RESULT_MAX_ENUM = 0x7FFFFFFF
} vkscan_result;

/* "VKSCAN_SUCCESS", "VKSCAN_ERROR_INVALID_ARGUMENT", ...; "vkscan_result(unknown)"
 * for other values. */
VKSCAN_API const char* vkscan_result_name(vkscan_result result);

/* Why this thread's last failed call failed, "" after a call that succeeded.
 * For VKSCAN_ERROR_INVALID_ARGUMENT, "<field>: <reason>". Never NULL; valid
 * until this thread's next call that returns a vkscan_result. Messages past
 * 1023 bytes are truncated. */
VKSCAN_API const char* vkscan_last_error_message(void);

/* The VkResult of this thread's last VKSCAN_ERROR_VULKAN, VK_SUCCESS after
 * any other result. */
VKSCAN_API VkResult vkscan_last_error_vk_result(void);

/* ------------------------------------------------------------------------
 * Descriptors, as DML_BUFFER_TENSOR_DESC,
 * DML_CUMULATIVE_SUMMATION_OPERATOR_DESC and DML_CUMULATIVE_PRODUCT_OPERATOR_DESC
 * ------------------------------------------------------------------------ */

typedef enum vkscan_data_type {
  VKSCAN_DATA_TYPE_FLOAT32 = 0,
  VKSCAN_DATA_TYPE_FLOAT16 = 1,
  VKSCAN_DATA_TYPE_INT32 = 2,
  VKSCAN_DATA_TYPE_UINT32 = 3,
  VKSCAN_DATA_TYPE_INT64 = 4,
  VKSCAN_DATA_TYPE_UINT64 = 5,
  VKSCAN_DATA_TYPE_FLOAT64 = 6,  /* beyond DML, for ONNX */
  VKSCAN_DATA_TYPE_BFLOAT16 = 7, /* beyond DML, for ONNX: summed in FP32 */
  VKSCAN_DATA_TYPE_MAX_ENUM = 0x7FFFFFFF
} vkscan_data_type;

typedef enum vkscan_axis_direction {
  VKSCAN_AXIS_DIRECTION_INCREASING = 0,
  VKSCAN_AXIS_DIRECTION_DECREASING = 1,
  VKSCAN_AXIS_DIRECTION_MAX_ENUM = 0x7FFFFFFF
} vkscan_axis_direction;

#define VKSCAN_MAX_DIMENSIONS 8

/* A tensor in a buffer, as vkscan::TensorDesc.
 *   dimension_count  1 to VKSCAN_MAX_DIMENSIONS
 *   sizes            dimension_count sizes, outermost first; a size of 0
 *                    makes an empty tensor, which is valid and records nothing
 *   strides          NULL for the packed (row-major) layout, or
 *                    dimension_count strides in elements; 0 on the input
 *                    broadcasts, the output may not overlap itself
 * The arrays are read during the call only. */
typedef struct vkscan_tensor_desc {
  uint32_t struct_size; /* sizeof(vkscan_tensor_desc) */
  vkscan_data_type data_type;
  uint32_t dimension_count;
  const uint32_t* sizes;
  const uint32_t* strides;
} vkscan_tensor_desc;

/* The operator, as vkscan::CumulativeSummationDesc. input and output have the
 * same sizes, and the same data_type or a wider output one
 * (vkscan::outputTypeWidens(): INT32 to INT64, UINT32 to UINT64, FLOAT16 and
 * BFLOAT16 to FLOAT32, FLOAT32 to FLOAT64); axis < dimension_count;
 * has_exclusive_sum is VK_TRUE or VK_FALSE. */
typedef struct vkscan_cumulative_summation_desc {
  uint32_t struct_size; /* sizeof(vkscan_cumulative_summation_desc) */
  const vkscan_tensor_desc* input;
  const vkscan_tensor_desc* output;
  uint32_t axis;
  vkscan_axis_direction axis_direction;
  VkBool32 has_exclusive_sum;
} vkscan_cumulative_summation_desc;

/* The scan family, as vkscan::ScanOperation, whose comment in
 * <vkscan/vkscan.hpp> is the reference: the canonical order with the
 * operation in place of "+" and its identity in place of -0.0. PRODUCT:
 * identity 1, integers wrap. MAXIMUM, MINIMUM: ties go to the later element
 * (-0.0 against +0.0 too) and a NaN always wins (PyTorch's cummax and cummin
 * values; no indices); identity -inf / +inf for floats, the type's least /
 * greatest value for integers. LOG_SUM_EXP: log(exp(a) + exp(b)) from IEEE
 * additions and multiplications alone (the same bits on every device,
 * torch.logcumsumexp within a few ulp), identity -inf, float types only:
 * an integer type is refused (field "input.data_type"). Every other
 * operation takes every type. */
typedef enum vkscan_scan_operation {
  VKSCAN_SCAN_OPERATION_SUM = 0,
  VKSCAN_SCAN_OPERATION_PRODUCT = 1,
  VKSCAN_SCAN_OPERATION_MAXIMUM = 2,
  VKSCAN_SCAN_OPERATION_MINIMUM = 3,
  VKSCAN_SCAN_OPERATION_LOG_SUM_EXP = 4,
  VKSCAN_SCAN_OPERATION_MAX_ENUM = 0x7FFFFFFF
} vkscan_scan_operation;

/* Any scan of the family, as vkscan::ScanDesc; the fields mean what the
 * summation's do. exclusive (VK_TRUE or VK_FALSE) leaves each element out
 * of its own result: the first output is the operation's identity (+0.0
 * for SUM, as DML). An operation outside vkscan_scan_operation is refused
 * (field "operation"). */
typedef struct vkscan_scan_desc {
  uint32_t struct_size; /* sizeof(vkscan_scan_desc) */
  vkscan_scan_operation operation;
  const vkscan_tensor_desc* input;
  const vkscan_tensor_desc* output;
  uint32_t axis;
  vkscan_axis_direction axis_direction;
  VkBool32 exclusive;
  /* MAXIMUM and MINIMUM: NULL, or their INT64 indices (vkscan::ScanDesc::
   * indices: PyTorch's cummax/cummin indices, the output's element strides,
   * not exclusive, not in place). */
  const vkscan_tensor_desc* indices;
  /* NULL, or each line's carry-in (vkscan::ScanDesc::carryIn: data type
   * vkscan's carry type of the output's, FLOAT32 for FLOAT16, BFLOAT16 and
   * FLOAT32, else the output's own; the output's sizes with 1 at axis),
   * which enters the canonical order at the line's root. */
  const vkscan_tensor_desc* carry_in;
  /* NULL, or each line's total without the carry-in (vkscan::ScanDesc::
   * totals; type and sizes as carry_in's). A struct_size of the version
   * before these two fields (offsetof(vkscan_scan_desc, carry_in)) is
   * accepted: both are then NULL. */
  const vkscan_tensor_desc* totals;
} vkscan_scan_desc;

/* As DML_CUMULATIVE_PRODUCT_OPERATOR_DESC (ONNX CumProd, torch.cumprod): a
 * vkscan_scan_desc with operation PRODUCT. has_exclusive_product is VK_TRUE
 * or VK_FALSE; the first exclusive output is 1. */
typedef struct vkscan_cumulative_product_desc {
  uint32_t struct_size; /* sizeof(vkscan_cumulative_product_desc) */
  const vkscan_tensor_desc* input;
  const vkscan_tensor_desc* output;
  uint32_t axis;
  vkscan_axis_direction axis_direction;
  VkBool32 has_exclusive_product;
} vkscan_cumulative_product_desc;

/* ------------------------------------------------------------------------
 * Devices
 * ------------------------------------------------------------------------ */

typedef struct vkscan_device_T* vkscan_device;
typedef struct vkscan_operator_T* vkscan_operator;

/* operator_cache_capacity's value that keeps no operators. */
#define VKSCAN_NO_OPERATOR_CACHE SIZE_MAX

/* An engine's own Vulkan objects, as vkscan::ExternalDevice, whose comments
 * say what each must provide. The engine keeps owning them; they must
 * outlive the vkscan_device and its operators. A zeroed struct (with
 * struct_size set) gives C++'s defaults, except operator_cache_capacity:
 * 0 means the default, 256; VKSCAN_NO_OPERATOR_CACHE keeps none. */
typedef struct vkscan_external_device {
  uint32_t struct_size; /* sizeof(vkscan_external_device) */
  VkInstance instance;
  VkPhysicalDevice physical_device;
  VkDevice device;
  PFN_vkGetInstanceProcAddr get_instance_proc_addr;  /* NULL: the system loader */
  const VkPhysicalDeviceFeatures2* enabled_features; /* NULL: bufferDeviceAddress only */
  uint32_t enabled_extension_count;
  const char* const* enabled_extension_names;
  VkPipelineCache pipeline_cache; /* VK_NULL_HANDLE: vkscan's own */
  VkQueue queue;                  /* used by vkscan_run() only */
  uint32_t queue_family_index;
  size_t operator_cache_capacity;
} vkscan_external_device;

/* Wraps an engine's device into *device. Fails as the C++ Device
 * constructor throws: INVALID_ARGUMENT for a null handle or a queue family
 * without compute, UNSUPPORTED for Vulkan below 1.2, bufferDeviceAddress not
 * enabled or a claimed extension without entry points, VULKAN on a failed
 * call. Leaves nothing on the engine's device when it fails. */
VKSCAN_API vkscan_result vkscan_device_wrap(const vkscan_external_device* external,
                                            vkscan_device* device);

/* Releases the handle. Operators keep what they need of the device, so they
 * may be destroyed after it. A created device's instance and device are
 * destroyed with the last of them. NULL is ignored. */
VKSCAN_API void vkscan_device_destroy(vkscan_device device);

/* VK_TRUE when vkscan_operator_create() can scan `type` on `device`: every
 * type, except FLOAT64 without shaderFloat64. VK_FALSE for a NULL device. */
VKSCAN_API VkBool32 vkscan_device_supports(vkscan_device device, vkscan_data_type type);

/* What a device can do, as vkscan sees it: vkscan::DeviceCapabilities (the
 * C++ header, <vkscan/host.hpp>, says what each field means). Strings are
 * cut to fit, always NUL-terminated. */
typedef struct vkscan_device_capabilities {
  uint32_t struct_size; /* sizeof(vkscan_device_capabilities), set by the caller */
  char device_name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
  char driver_name[VK_MAX_DRIVER_NAME_SIZE];
  char driver_info[VK_MAX_DRIVER_INFO_SIZE];
  uint32_t vendor_id;
  uint32_t device_id;
  uint32_t api_version;
  uint32_t driver_version;
  VkDriverId driver_id;
  VkPhysicalDeviceType device_type;
  uint32_t subgroup_size;
  VkSubgroupFeatureFlags subgroup_operations;
  VkBool32 subgroup_size_control;
  /* Enabled on the device: the subgroup kernels then require full subgroups. */
  VkBool32 compute_full_subgroups;
  VkBool32 shader_int64;
  VkBool32 shader_float64;
  VkBool32 shader_float16;
  VkBool32 storage_buffer_16bit_access;
  VkBool32 buffer_device_address;
  VkBool32 push_descriptor;
  uint64_t max_storage_buffer_range;
  uint32_t max_texel_buffer_elements;
  uint32_t max_compute_shared_memory_size;
  uint32_t max_compute_work_group_invocations;
  uint32_t max_compute_work_group_count[3];
  uint32_t max_push_constants_size;
  uint64_t min_storage_buffer_offset_alignment;
  float timestamp_period;
  VkBool32 timestamp_compute_and_graphics;
} vkscan_device_capabilities;

/* Fills *capabilities (its struct_size set by the caller) with the device's,
 * as vkscan::capabilities(). INVALID_ARGUMENT for a NULL device or
 * capabilities, or a struct_size this library does not know. */
VKSCAN_API vkscan_result vkscan_device_get_capabilities(vkscan_device device,
                                                        vkscan_device_capabilities* capabilities);

/* ------------------------------------------------------------------------
 * Operators
 * ------------------------------------------------------------------------ */

/* Validates `desc` and returns an operator in *op, as
 * vkscan::Device::createOperator(): INVALID_ARGUMENT naming the field at
 * fault, UNSUPPORTED for a type or size the device cannot do, VULKAN if
 * pipeline creation fails. Nothing is recorded. */
VKSCAN_API vkscan_result vkscan_operator_create(vkscan_device device,
                                                const vkscan_cumulative_summation_desc* desc,
                                                vkscan_operator* op);

/* The same for any scan of the family (Device::createOperator(ScanDesc)),
 * and for a cumulative product as DML describes it. */
VKSCAN_API vkscan_result vkscan_operator_create_scan(vkscan_device device,
                                                     const vkscan_scan_desc* desc,
                                                     vkscan_operator* op);
VKSCAN_API vkscan_result vkscan_operator_create_cumulative_product(
    vkscan_device device, const vkscan_cumulative_product_desc* desc, vkscan_operator* op);

/* NULL is ignored. Work recorded with the operator must have completed (or
 * its command buffers be discarded) before the last of its device handle and
 * its operators is destroyed, which releases the pipelines. */
VKSCAN_API void vkscan_operator_destroy(vkscan_operator op);

/* What an operator needs, as DML_BINDING_PROPERTIES. There is no persistent
 * resource: an operator keeps no device memory of its own. */
typedef struct vkscan_operator_properties {
  uint32_t struct_size;      /* sizeof(vkscan_operator_properties), set by the caller */
  VkDeviceSize scratch_size; /* bytes of scratch record() needs; 0: none */
  uint32_t dispatch_count;   /* compute dispatches record() emits; 0 for an empty tensor */
} vkscan_operator_properties;

VKSCAN_API vkscan_result vkscan_operator_get_properties(vkscan_operator op,
                                                        vkscan_operator_properties* properties);

/* A buffer range, as vkscan::BufferBinding: the buffer's usage and memory,
 * the 16-byte offset alignment and the size are as its comment says. */
typedef struct vkscan_buffer_binding {
  VkBuffer buffer;
  VkDeviceSize offset;
  VkDeviceSize size;
} vkscan_buffer_binding;

/* Records the scan into `command_buffer`, as vkscan::Operator::record(),
 * whose comment is the synchronisation contract: before, the caller makes
 * the input's writes visible to COMPUTE_SHADER with SHADER_READ |
 * SHADER_WRITE; after, the output is written by COMPUTE_SHADER with
 * SHADER_WRITE. `scratch` may be NULL when scratch_size is 0.
 * INVALID_ARGUMENT names the binding at fault ("bindings.output.size") before
 * anything is recorded. */
VKSCAN_API vkscan_result vkscan_operator_record(vkscan_operator op, VkCommandBuffer command_buffer,
                                                const vkscan_buffer_binding* input,
                                                const vkscan_buffer_binding* output,
                                                const vkscan_buffer_binding* scratch);

/* The same with the indices' binding of a descriptor with indices (NULL
 * otherwise), written as the output is. */
VKSCAN_API vkscan_result vkscan_operator_record_indices(vkscan_operator op,
                                                        VkCommandBuffer command_buffer,
                                                        const vkscan_buffer_binding* input,
                                                        const vkscan_buffer_binding* output,
                                                        const vkscan_buffer_binding* indices,
                                                        const vkscan_buffer_binding* scratch);

/* Every binding of a record, as vkscan::Bindings: a zeroed binding (null
 * buffer) where the descriptor has no such tensor, or for scratch when
 * scratch_size is 0. */
typedef struct vkscan_operator_bindings {
  uint32_t struct_size; /* sizeof(vkscan_operator_bindings) */
  vkscan_buffer_binding input;
  vkscan_buffer_binding output;
  vkscan_buffer_binding scratch;
  vkscan_buffer_binding indices;
  vkscan_buffer_binding carry_in;
  vkscan_buffer_binding totals;
} vkscan_operator_bindings;

/* vkscan_operator_record() with every binding (vkscan::Operator::record()
 * with vkscan::Bindings): carry_in is read, totals written as the output
 * is. */
VKSCAN_API vkscan_result vkscan_operator_record_bindings(vkscan_operator op,
                                                         VkCommandBuffer command_buffer,
                                                         const vkscan_operator_bindings* bindings);

/* ------------------------------------------------------------------------
 * Headless helpers (<vkscan/host.hpp>)
 * ------------------------------------------------------------------------ */

/* A physical device, as vkscan::PhysicalDeviceSummary. */
typedef struct vkscan_physical_device_summary {
  uint32_t struct_size; /* sizeof(vkscan_physical_device_summary), set by the caller */
  uint32_t index;
  char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
  VkPhysicalDeviceType type;
  uint32_t api_version;
  VkBool32 usable; /* Vulkan 1.2+, a compute queue, bufferDeviceAddress */
} vkscan_physical_device_summary;

/* Lists the physical devices, in Vulkan's two-call idiom: with `summaries`
 * NULL, sets *count to their number; else fills at most *count summaries
 * (each with struct_size set), sets *count to the number filled and returns
 * VKSCAN_INCOMPLETE when there were more. UNSUPPORTED without a Vulkan
 * loader, VULKAN when no instance can be made. */
VKSCAN_API vkscan_result vkscan_enumerate_devices(uint32_t* count,
                                                  vkscan_physical_device_summary* summaries);

/* Options for vkscan_device_create(), as vkscan::DeviceOptions. A zeroed
 * struct (with struct_size set) gives C++'s defaults. */
typedef struct vkscan_device_options {
  uint32_t struct_size; /* sizeof(vkscan_device_options) */
  /* VK_TRUE: use the device at device_index of vkscan_enumerate_devices().
   * VK_FALSE: device_name if not NULL or empty, else VKSCAN_DEVICE from the
   * environment, else the first usable discrete GPU, else the first usable. */
  VkBool32 use_device_index;
  uint32_t device_index;
  const char* device_name;
  /* The Khronos validation layer, as DeviceOptions::enableValidation. */
  VkBool32 enable_validation;
  /* A previous pipeline cache's data (copied during the call); NULL: none. */
  const void* pipeline_cache_data;
  size_t pipeline_cache_data_size;
  /* Bound on vkscan_run()'s wait in nanoseconds; 0: 60 s. */
  uint64_t timeout_ns;
  /* Leave a feature out, as DeviceOptions::disable*. */
  VkBool32 disable_int64;
  VkBool32 disable_float64;
  VkBool32 disable_float16;
  VkBool32 disable_push_descriptor;
  /* 0: the default, 256; VKSCAN_NO_OPERATOR_CACHE keeps none. */
  size_t operator_cache_capacity;
} vkscan_device_options;

/* Creates an instance and device of vkscan's own into *device, as
 * vkscan::createDevice(); `options` NULL gives the defaults. UNSUPPORTED
 * without a loader or a usable device; INVALID_ARGUMENT for a device_index,
 * device_name or VKSCAN_DEVICE no usable device matches. */
VKSCAN_API vkscan_result vkscan_device_create(const vkscan_device_options* options,
                                              vkscan_device* device);

/* Synchronous scan of host memory, as vkscan::run(): uploads the input (its
 * span: from the first element to the end of the last), records, submits on
 * the device's queue, waits (timeout_ns) and downloads into `output`;
 * `output == input` runs in place. Fails as vkscan_operator_create() and
 * run(): INVALID_ARGUMENT for a null input or output of a non-empty tensor,
 * or a wrapped device without a queue ("external.queue"); VULKAN with
 * VK_TIMEOUT when the wait runs out. On failure `output` is unchanged. */
VKSCAN_API vkscan_result vkscan_run(vkscan_device device,
                                    const vkscan_cumulative_summation_desc* desc, const void* input,
                                    void* output);

/* The same for any scan of the family (run(device, ScanDesc, ...)). */
VKSCAN_API vkscan_result vkscan_run_scan(vkscan_device device, const vkscan_scan_desc* desc,
                                         const void* input, void* output);
/* The same with the indices of a descriptor with indices, downloaded into
 * `indices` (its tensor's span); NULL otherwise. Not in place. */
VKSCAN_API vkscan_result vkscan_run_scan_indices(vkscan_device device, const vkscan_scan_desc* desc,
                                                 const void* input, void* output, void* indices);

/* Every tensor's host memory for vkscan_run_scan_data(), as vkscan::RunData:
 * NULL where the descriptor has no such tensor. */
typedef struct vkscan_run_data {
  uint32_t struct_size; /* sizeof(vkscan_run_data) */
  const void* input;
  void* output;
  void* indices;
  const void* carry_in;
  void* totals;
} vkscan_run_data;

/* vkscan_run_scan() with every tensor (vkscan::run() with vkscan::RunData):
 * carry_in uploaded, totals downloaded (their tensors' spans).
 * INVALID_ARGUMENT ("carryIn", "totals") for a pointer that is NULL where
 * the descriptor has the tensor or set where it has none. */
VKSCAN_API vkscan_result vkscan_run_scan_data(vkscan_device device, const vkscan_scan_desc* desc,
                                              const vkscan_run_data* data);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* VKSCAN_VKSCAN_H_ */
