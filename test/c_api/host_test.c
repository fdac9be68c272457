/* The C API's headless side, from C11: the version, result names, the
 * device list, devices of vkscan's own, vkscan_run() against a reference
 * computed here, and every error a caller can provoke through them. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "check.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define VKSCAN_TEST_SANITIZED 1
#elif defined(__has_feature)
#define VKSCAN_TEST_SANITIZED (__has_feature(address_sanitizer) || __has_feature(thread_sanitizer))
#else
#define VKSCAN_TEST_SANITIZED 0
#endif

static vkscan_tensor_desc packed(vkscan_data_type type, uint32_t rank, const uint32_t* sizes) {
  vkscan_tensor_desc tensor = {sizeof(vkscan_tensor_desc), type, rank, sizes, NULL};
  return tensor;
}

static vkscan_cumulative_summation_desc scan_desc(const vkscan_tensor_desc* input,
                                                  const vkscan_tensor_desc* output, uint32_t axis) {
  vkscan_cumulative_summation_desc desc = {
      sizeof(vkscan_cumulative_summation_desc), input,   output, axis,
      VKSCAN_AXIS_DIRECTION_INCREASING,         VK_FALSE};
  return desc;
}

static vkscan_device create_device(const vkscan_device_options* options) {
  vkscan_device device = NULL;
  CHECK_OK(vkscan_device_create(options, &device));
  return device;
}

/* out[i] along `axis` of a packed [outer, length, inner] tensor, wrapping
 * modulo 2^32 as vkscan's integers do. */
static void reference_u32(const uint32_t* in, uint32_t* out, uint32_t outer, uint32_t length,
                          uint32_t inner, int exclusive, int decreasing) {
  for (uint32_t o = 0; o < outer; ++o) {
    for (uint32_t n = 0; n < inner; ++n) {
      uint32_t sum = 0;
      for (uint32_t k = 0; k < length; ++k) {
        uint32_t a = decreasing ? length - 1 - k : k;
        size_t at = ((size_t)o * length + a) * inner + n;
        if (exclusive) out[at] = sum;
        sum += in[at];
        if (!exclusive) out[at] = sum;
      }
    }
  }
}

static uint32_t next_random(uint32_t* state) {
  *state = *state * 1664525u + 1013904223u;
  return *state;
}

static void version(void) {
  char text[32];
  CHECK(vkscan_version() == VKSCAN_VERSION);
  CHECK(VKSCAN_VERSION ==
        VKSCAN_MAKE_VERSION(VKSCAN_VERSION_MAJOR, VKSCAN_VERSION_MINOR, VKSCAN_VERSION_PATCH));
  snprintf(text, sizeof(text), "%d.%d.%d", VKSCAN_VERSION_MAJOR, VKSCAN_VERSION_MINOR,
           VKSCAN_VERSION_PATCH);
  CHECK(strcmp(text, VKSCAN_VERSION_STRING) == 0);
}

/* VKSCAN_ERROR_UNKNOWN stands for exceptions no current path throws (any
 * std::exception but vkscan's and std::bad_alloc): only its name is checked. */
static void result_names(void) {
  CHECK(strcmp(vkscan_result_name(VKSCAN_SUCCESS), "VKSCAN_SUCCESS") == 0);
  CHECK(strcmp(vkscan_result_name(VKSCAN_INCOMPLETE), "VKSCAN_INCOMPLETE") == 0);
  CHECK(strcmp(vkscan_result_name(VKSCAN_ERROR_INVALID_ARGUMENT),
               "VKSCAN_ERROR_INVALID_ARGUMENT") == 0);
  CHECK(strcmp(vkscan_result_name(VKSCAN_ERROR_UNSUPPORTED), "VKSCAN_ERROR_UNSUPPORTED") == 0);
  CHECK(strcmp(vkscan_result_name(VKSCAN_ERROR_VULKAN), "VKSCAN_ERROR_VULKAN") == 0);
  CHECK(strcmp(vkscan_result_name(VKSCAN_ERROR_OUT_OF_HOST_MEMORY),
               "VKSCAN_ERROR_OUT_OF_HOST_MEMORY") == 0);
  CHECK(strcmp(vkscan_result_name(VKSCAN_ERROR_UNKNOWN), "VKSCAN_ERROR_UNKNOWN") == 0);
  CHECK(strcmp(vkscan_result_name((vkscan_result)42), "vkscan_result(unknown)") == 0);
}

static void enumerate_devices(void) {
  vkscan_physical_device_summary summaries[8];
  uint32_t count = 0;
  uint32_t total = 0;
  memset(summaries, 0, sizeof(summaries));
  for (int i = 0; i < 8; ++i) summaries[i].struct_size = sizeof(vkscan_physical_device_summary);

  CHECK_OK(vkscan_enumerate_devices(&total, NULL));
  CHECK(total >= 1);
  count = 8;
  CHECK_OK(vkscan_enumerate_devices(&count, summaries));
  CHECK(count == total);
  CHECK(summaries[0].index == 0);
  CHECK(summaries[0].name[0] != '\0');
  CHECK(summaries[0].usable == VK_TRUE);
  CHECK(summaries[0].api_version >= VK_API_VERSION_1_2);

  /* Room for none of them: Vulkan's idiom says more exist. */
  count = 0;
  CHECK_RESULT(vkscan_enumerate_devices(&count, summaries), VKSCAN_INCOMPLETE, "");
  CHECK(count == 0);

  summaries[0].struct_size = 4;
  count = 8;
  CHECK_RESULT(vkscan_enumerate_devices(&count, summaries), VKSCAN_ERROR_INVALID_ARGUMENT,
               "summaries[0].struct_size: ");
  CHECK(count == 8);
  CHECK_RESULT(vkscan_enumerate_devices(NULL, NULL), VKSCAN_ERROR_INVALID_ARGUMENT, "count: ");
}

static void run_numbers(void) {
  vkscan_device device = create_device(NULL);
  if (device == NULL) return;

  { /* DML's reference example: [1,1,3,4] along axis 3, exact in FLOAT32. */
    const uint32_t sizes[] = {1, 1, 3, 4};
    const float input[] = {2, 1, 3, 5, 3, 8, 7, 3, 9, 6, 2, 4};
    const float expected[] = {2, 3, 6, 11, 3, 11, 18, 21, 9, 15, 17, 21};
    float output[12] = {0};
    vkscan_tensor_desc tensor = packed(VKSCAN_DATA_TYPE_FLOAT32, 4, sizes);
    vkscan_cumulative_summation_desc desc = scan_desc(&tensor, &tensor, 3);
    CHECK_OK(vkscan_run(device, &desc, input, output));
    CHECK(memcmp(output, expected, sizeof(expected)) == 0);
    CHECK(strcmp(vkscan_last_error_message(), "") == 0);
  }
  { /* Random UINT32 that wraps, exclusive and decreasing along the middle
     * axis of [3, 1000, 5], against the reference above. */
    enum { kOuter = 3, kLength = 1000, kInner = 5, kCount = kOuter * kLength * kInner };
    const uint32_t sizes[] = {kOuter, kLength, kInner};
    static uint32_t input[kCount], output[kCount], expected[kCount];
    uint32_t state = 12345;
    for (size_t i = 0; i < kCount; ++i) input[i] = next_random(&state);
    reference_u32(input, expected, kOuter, kLength, kInner, 1, 1);
    vkscan_tensor_desc tensor = packed(VKSCAN_DATA_TYPE_UINT32, 3, sizes);
    vkscan_cumulative_summation_desc desc = scan_desc(&tensor, &tensor, 1);
    desc.axis_direction = VKSCAN_AXIS_DIRECTION_DECREASING;
    desc.has_exclusive_sum = VK_TRUE;
    CHECK_OK(vkscan_run(device, &desc, input, output));
    CHECK(memcmp(output, expected, sizeof(expected)) == 0);

    /* In place: output is the input pointer. */
    reference_u32(input, expected, kOuter, kLength, kInner, 0, 0);
    desc.axis_direction = VKSCAN_AXIS_DIRECTION_INCREASING;
    desc.has_exclusive_sum = VK_FALSE;
    CHECK_OK(vkscan_run(device, &desc, input, input));
    CHECK(memcmp(input, expected, sizeof(expected)) == 0);
  }
  { /* The same example in BFLOAT16 (bits: the top half of the FP32), and
     * a line whose FP32 sums 257 and 259 round to even: 256 and 260. */
    const uint32_t sizes[] = {1, 1, 3, 4};
    const uint16_t input[] = {0x4000, 0x3F80, 0x4040, 0x40A0, 0x4040, 0x4100,
                              0x40E0, 0x4040, 0x4110, 0x40C0, 0x4000, 0x4080};
    const uint16_t expected[] = {0x4000, 0x4040, 0x40C0, 0x4130, 0x4040, 0x4130,
                                 0x4190, 0x41A8, 0x4110, 0x4170, 0x4188, 0x41A8};
    uint16_t output[12] = {0};
    vkscan_tensor_desc tensor = packed(VKSCAN_DATA_TYPE_BFLOAT16, 4, sizes);
    vkscan_cumulative_summation_desc desc = scan_desc(&tensor, &tensor, 3);
    CHECK_OK(vkscan_run(device, &desc, input, output));
    CHECK(memcmp(output, expected, sizeof(expected)) == 0);

    const uint32_t line[] = {4};
    const uint16_t ties[] = {0x4380, 0x3F80, 0x3F80, 0x3F80};
    const uint16_t rounded[] = {0x4380, 0x4380, 0x4381, 0x4382};
    tensor = packed(VKSCAN_DATA_TYPE_BFLOAT16, 1, line);
    desc = scan_desc(&tensor, &tensor, 0);
    CHECK_OK(vkscan_run(device, &desc, ties, output));
    CHECK(memcmp(output, rounded, sizeof(rounded)) == 0);
  }
  { /* An empty tensor is valid and touches neither pointer. */
    const uint32_t sizes[] = {0, 4};
    vkscan_tensor_desc tensor = packed(VKSCAN_DATA_TYPE_INT64, 2, sizes);
    vkscan_cumulative_summation_desc desc = scan_desc(&tensor, &tensor, 1);
    CHECK_OK(vkscan_run(device, &desc, NULL, NULL));
  }
  vkscan_device_destroy(device);
}

static vkscan_scan_desc scan_of(vkscan_scan_operation operation, const vkscan_tensor_desc* tensor,
                                uint32_t axis) {
  vkscan_scan_desc desc = {sizeof(vkscan_scan_desc),         operation, tensor, tensor, axis,
                           VKSCAN_AXIS_DIRECTION_INCREASING, VK_FALSE,  NULL,   NULL,   NULL};
  return desc;
}

/* The other operations through vkscan_run_scan(), against results written
 * out by hand. */
static void run_scans(void) {
  vkscan_device device = create_device(NULL);
  if (device == NULL) return;

  { /* ONNX CumProd's example, every mode: exact in FLOAT32. */
    const uint32_t sizes[] = {5};
    const float input[] = {1, 2, 3, 4, 5};
    const float expected[4][5] = {
        {1, 2, 6, 24, 120}, {1, 1, 2, 6, 24}, {120, 120, 60, 20, 5}, {120, 60, 20, 5, 1}};
    vkscan_tensor_desc tensor = packed(VKSCAN_DATA_TYPE_FLOAT32, 1, sizes);
    for (int mode = 0; mode < 4; ++mode) {
      float output[5] = {0};
      vkscan_scan_desc desc = scan_of(VKSCAN_SCAN_OPERATION_PRODUCT, &tensor, 0);
      desc.exclusive = (mode & 1) ? VK_TRUE : VK_FALSE;
      desc.axis_direction =
          (mode & 2) ? VKSCAN_AXIS_DIRECTION_DECREASING : VKSCAN_AXIS_DIRECTION_INCREASING;
      CHECK_OK(vkscan_run_scan(device, &desc, input, output));
      CHECK(memcmp(output, expected[mode], sizeof(output)) == 0);
    }
  }
  { /* INT32 products wrap modulo 2^32, along axis 0 of [3, 2]. */
    const uint32_t sizes[] = {3, 2};
    const int32_t input[] = {65536, INT32_MAX, 65536, 2, 3, -1};
    const int32_t expected[] = {65536, INT32_MAX, 0, -2, 0, 2};
    int32_t output[6] = {0};
    vkscan_tensor_desc tensor = packed(VKSCAN_DATA_TYPE_INT32, 2, sizes);
    vkscan_scan_desc desc = scan_of(VKSCAN_SCAN_OPERATION_PRODUCT, &tensor, 0);
    CHECK_OK(vkscan_run_scan(device, &desc, input, output));
    CHECK(memcmp(output, expected, sizeof(expected)) == 0);
  }
  { /* FLOAT32 maximum: a tie goes to the later element (-0.0, +0.0 show
     * it) and a NaN always wins, the latest one propagating. */
    const uint32_t sizes[] = {8};
    const uint32_t nan = 0x7FC00000u, negative_nan = 0xFFC00000u;
    /* -0.0, +0.0, -1, -0.0, NaN, 7, -NaN, 9 */
    const uint32_t input[] = {0x80000000u, 0,           0xBF800000u,  0x80000000u,
                              nan,         0x40E00000u, negative_nan, 0x41100000u};
    const uint32_t expected[] = {0x80000000u,  0,           0, 0x80000000u, nan, nan,
                                 negative_nan, negative_nan};
    /* Exclusive from the end: -inf first, then 9 until the NaNs. */
    const uint32_t exclusive_reverse[] = {nan,          nan,          nan,         nan,
                                          negative_nan, negative_nan, 0x41100000u, 0xFF800000u};
    uint32_t output[8] = {0};
    vkscan_tensor_desc tensor = packed(VKSCAN_DATA_TYPE_FLOAT32, 1, sizes);
    vkscan_scan_desc desc = scan_of(VKSCAN_SCAN_OPERATION_MAXIMUM, &tensor, 0);
    CHECK_OK(vkscan_run_scan(device, &desc, input, output));
    CHECK(memcmp(output, expected, sizeof(expected)) == 0);
    desc.exclusive = VK_TRUE;
    desc.axis_direction = VKSCAN_AXIS_DIRECTION_DECREASING;
    CHECK_OK(vkscan_run_scan(device, &desc, input, output));
    CHECK(memcmp(output, exclusive_reverse, sizeof(exclusive_reverse)) == 0);
  }
  { /* INT64 minimum compares signed; exclusive starts from INT64_MAX. */
    const uint32_t sizes[] = {4};
    const int64_t input[] = {-5, 3, INT64_MIN, 7};
    const int64_t expected[] = {INT64_MAX, -5, -5, INT64_MIN};
    int64_t output[4] = {0};
    vkscan_tensor_desc tensor = packed(VKSCAN_DATA_TYPE_INT64, 1, sizes);
    vkscan_scan_desc desc = scan_of(VKSCAN_SCAN_OPERATION_MINIMUM, &tensor, 0);
    desc.exclusive = VK_TRUE;
    CHECK_OK(vkscan_run_scan(device, &desc, input, output));
    CHECK(memcmp(output, expected, sizeof(expected)) == 0);
  }
  { /* INT32 maximum with PyTorch's indices: ties to the later element. */
    const uint32_t sizes[] = {6};
    const int32_t input[] = {2, 1, 2, -5, 7, 7};
    const int32_t expected[] = {2, 2, 2, 2, 7, 7};
    const int64_t expected_indices[] = {0, 0, 2, 2, 4, 5};
    int32_t output[6] = {0};
    int64_t indices[6] = {0};
    vkscan_tensor_desc tensor = packed(VKSCAN_DATA_TYPE_INT32, 1, sizes);
    vkscan_tensor_desc index_tensor = packed(VKSCAN_DATA_TYPE_INT64, 1, sizes);
    vkscan_scan_desc desc = scan_of(VKSCAN_SCAN_OPERATION_MAXIMUM, &tensor, 0);
    desc.indices = &index_tensor;
    CHECK_OK(vkscan_run_scan_indices(device, &desc, input, output, indices));
    CHECK(memcmp(output, expected, sizeof(expected)) == 0);
    CHECK(memcmp(indices, expected_indices, sizeof(expected_indices)) == 0);
    desc.exclusive = VK_TRUE;
    CHECK_RESULT(vkscan_run_scan_indices(device, &desc, input, output, indices),
                 VKSCAN_ERROR_INVALID_ARGUMENT, "exclusive: ");
  }
  { /* A wider output: INT32 sums accumulate in INT64, past INT32_MAX. */
    const uint32_t sizes[] = {3};
    const int32_t input[] = {INT32_MAX, INT32_MAX, -1};
    const int64_t expected[] = {INT32_MAX, 2 * (int64_t)INT32_MAX, 2 * (int64_t)INT32_MAX - 1};
    int64_t output[3] = {0};
    vkscan_tensor_desc in = packed(VKSCAN_DATA_TYPE_INT32, 1, sizes);
    vkscan_tensor_desc out = packed(VKSCAN_DATA_TYPE_INT64, 1, sizes);
    vkscan_scan_desc desc = scan_of(VKSCAN_SCAN_OPERATION_SUM, &in, 0);
    desc.output = &out;
    CHECK_OK(vkscan_run_scan(device, &desc, input, output));
    CHECK(memcmp(output, expected, sizeof(expected)) == 0);
  }
  { /* FLOAT32 log-sum-exp by its exact rules: -inf is the identity, equal
     * operands give x + ln 2 rounded (2.6931472 = 0x402C5C86), a gap past
     * the cutoff gives the larger operand, +inf wins and a NaN gives the
     * positive quiet NaN. */
    const uint32_t sizes[] = {7};
    const uint32_t inf = 0x7F800000u, negative_inf = 0xFF800000u, two = 0x40000000u;
    const uint32_t two_ln2 = 0x402C5C86u, nan = 0x7FC00000u;
    /* -inf, 2, 2, -1000, +inf, -NaN, 1 */
    const uint32_t input[] = {negative_inf, two, two, 0xC47A0000u, inf, 0xFFC00000u, 0x3F800000u};
    const uint32_t expected[] = {negative_inf, two, two_ln2, two_ln2, inf, nan, nan};
    const uint32_t exclusive[] = {negative_inf, negative_inf, two, two_ln2, two_ln2, inf, nan};
    uint32_t output[7] = {0};
    vkscan_tensor_desc tensor = packed(VKSCAN_DATA_TYPE_FLOAT32, 1, sizes);
    vkscan_scan_desc desc = scan_of(VKSCAN_SCAN_OPERATION_LOG_SUM_EXP, &tensor, 0);
    CHECK_OK(vkscan_run_scan(device, &desc, input, output));
    CHECK(memcmp(output, expected, sizeof(expected)) == 0);
    desc.exclusive = VK_TRUE;
    CHECK_OK(vkscan_run_scan(device, &desc, input, output));
    CHECK(memcmp(output, exclusive, sizeof(exclusive)) == 0);
  }
  { /* SUM through the family's struct is vkscan_run()'s sum. */
    const uint32_t sizes[] = {4};
    const float input[] = {1, 2, 3, 4};
    const float expected[] = {0, 1, 3, 6};
    float output[4] = {0};
    vkscan_tensor_desc tensor = packed(VKSCAN_DATA_TYPE_FLOAT32, 1, sizes);
    vkscan_scan_desc desc = scan_of(VKSCAN_SCAN_OPERATION_SUM, &tensor, 0);
    desc.exclusive = VK_TRUE;
    CHECK_OK(vkscan_run_scan(device, &desc, input, output));
    CHECK(memcmp(output, expected, sizeof(expected)) == 0);
  }
  vkscan_device_destroy(device);
}

/* What the family's structs alone can get wrong; the rest is shared with
 * the summation's (invalid_arguments). */
/* Carry-in and totals through vkscan_run_scan_data(), and a record of
 * every binding through vkscan_operator_record_bindings(). */
static void run_carries(void) {
  vkscan_device device = create_device(NULL);
  if (device == NULL) return;

  { /* Two INT32 lines, each with its carry: the carry enters at the root. */
    const uint32_t sizes[] = {2, 4};
    const uint32_t line_sizes[] = {2, 1};
    const int32_t input[] = {1, 2, 3, 4, 5, 6, 7, 8};
    const int32_t carries[] = {10, -1};
    const int32_t expected[] = {11, 13, 16, 20, 4, 10, 17, 25};
    const int32_t expected_totals[] = {10, 26};
    int32_t output[8] = {0};
    int32_t totals[2] = {0};
    vkscan_tensor_desc tensor = packed(VKSCAN_DATA_TYPE_INT32, 2, sizes);
    vkscan_tensor_desc lines = packed(VKSCAN_DATA_TYPE_INT32, 2, line_sizes);
    vkscan_scan_desc desc = scan_of(VKSCAN_SCAN_OPERATION_SUM, &tensor, 1);
    desc.carry_in = &lines;
    desc.totals = &lines;
    vkscan_run_data data = {sizeof(vkscan_run_data), input, output, NULL, carries, totals};
    CHECK_OK(vkscan_run_scan_data(device, &desc, &data));
    CHECK(memcmp(output, expected, sizeof(expected)) == 0);
    CHECK(memcmp(totals, expected_totals, sizeof(expected_totals)) == 0);
    /* An exclusive scan starts with the carry. */
    desc.exclusive = VK_TRUE;
    CHECK_OK(vkscan_run_scan_data(device, &desc, &data));
    CHECK(output[0] == 10 && output[1] == 11 && output[4] == -1 && output[7] == 17);
    /* A carry-in of the wrong type, and a missing pointer. */
    vkscan_tensor_desc floats = packed(VKSCAN_DATA_TYPE_FLOAT32, 2, line_sizes);
    desc.carry_in = &floats;
    CHECK_RESULT(vkscan_run_scan_data(device, &desc, &data), VKSCAN_ERROR_INVALID_ARGUMENT,
                 "carry_in.data_type: ");
    desc.carry_in = &lines;
    data.totals = NULL;
    CHECK_RESULT(vkscan_run_scan_data(device, &desc, &data), VKSCAN_ERROR_INVALID_ARGUMENT,
                 "totals: ");
    data.struct_size = 0;
    CHECK_RESULT(vkscan_run_scan_data(device, &desc, &data), VKSCAN_ERROR_INVALID_ARGUMENT,
                 "data.struct_size: ");
    /* The descriptor of the version before carry_in and totals: none. */
    desc.struct_size = (uint32_t)offsetof(vkscan_scan_desc, carry_in);
    desc.exclusive = VK_FALSE;
    CHECK_OK(vkscan_run_scan(device, &desc, input, output));
    CHECK(output[0] == 1 && output[3] == 10 && output[7] == 26);
  }
  { /* The record entry point checks its struct and the bindings first. */
    const uint32_t sizes[] = {4};
    const uint32_t line_sizes[] = {1};
    vkscan_tensor_desc tensor = packed(VKSCAN_DATA_TYPE_FLOAT32, 1, sizes);
    vkscan_tensor_desc lines = packed(VKSCAN_DATA_TYPE_FLOAT32, 1, line_sizes);
    vkscan_scan_desc desc = scan_of(VKSCAN_SCAN_OPERATION_SUM, &tensor, 0);
    desc.totals = &lines;
    vkscan_operator op = NULL;
    CHECK_OK(vkscan_operator_create_scan(device, &desc, &op));
    vkscan_operator_bindings bindings;
    memset(&bindings, 0, sizeof(bindings));
    VkCommandBuffer command_buffer = (VkCommandBuffer)(uintptr_t)1;
    CHECK_RESULT(vkscan_operator_record_bindings(op, command_buffer, &bindings),
                 VKSCAN_ERROR_INVALID_ARGUMENT, "bindings.struct_size: ");
    CHECK_RESULT(vkscan_operator_record_bindings(op, command_buffer, NULL),
                 VKSCAN_ERROR_INVALID_ARGUMENT, "bindings: ");
    bindings.struct_size = sizeof(bindings);
    CHECK_RESULT(vkscan_operator_record_bindings(op, command_buffer, &bindings),
                 VKSCAN_ERROR_INVALID_ARGUMENT, "bindings.input.buffer: ");
    vkscan_operator_destroy(op);
  }
  vkscan_device_destroy(device);
}

static void scan_invalid_arguments(void) {
  const uint32_t sizes[] = {2, 3};
  const float input[6] = {0};
  float output[6] = {0};
  vkscan_device device = create_device(NULL);
  vkscan_operator op = NULL;
  vkscan_tensor_desc tensor = packed(VKSCAN_DATA_TYPE_FLOAT32, 2, sizes);
  vkscan_scan_desc desc = scan_of(VKSCAN_SCAN_OPERATION_MAXIMUM, &tensor, 1);
  vkscan_cumulative_product_desc product = {
      sizeof(vkscan_cumulative_product_desc), &tensor, &tensor, 1,
      VKSCAN_AXIS_DIRECTION_INCREASING,       VK_FALSE};
  if (device == NULL) return;

  desc.operation = (vkscan_scan_operation)9;
  CHECK_RESULT(vkscan_operator_create_scan(device, &desc, &op), VKSCAN_ERROR_INVALID_ARGUMENT,
               "operation: unknown value 9");
  CHECK_RESULT(vkscan_run_scan(device, &desc, input, output), VKSCAN_ERROR_INVALID_ARGUMENT,
               "operation: unknown value 9");
  { /* Log-sum-exp takes float types only. */
    vkscan_tensor_desc integers = packed(VKSCAN_DATA_TYPE_INT32, 2, sizes);
    desc = scan_of(VKSCAN_SCAN_OPERATION_LOG_SUM_EXP, &integers, 1);
    CHECK_RESULT(vkscan_operator_create_scan(device, &desc, &op), VKSCAN_ERROR_INVALID_ARGUMENT,
                 "input.data_type: INT32 is not a float type");
    CHECK_RESULT(vkscan_run_scan(device, &desc, input, output), VKSCAN_ERROR_INVALID_ARGUMENT,
                 "input.data_type: INT32 is not a float type");
  }
  desc = scan_of(VKSCAN_SCAN_OPERATION_MAXIMUM, &tensor, 1);
  desc.exclusive = 2;
  CHECK_RESULT(vkscan_operator_create_scan(device, &desc, &op), VKSCAN_ERROR_INVALID_ARGUMENT,
               "exclusive: is 2, neither VK_TRUE nor VK_FALSE");
  desc = scan_of(VKSCAN_SCAN_OPERATION_MAXIMUM, &tensor, 2);
  CHECK_RESULT(vkscan_operator_create_scan(device, &desc, &op), VKSCAN_ERROR_INVALID_ARGUMENT,
               "axis: ");
  { /* An output narrower than the input. */
    vkscan_tensor_desc narrow = packed(VKSCAN_DATA_TYPE_FLOAT16, 2, sizes);
    desc = scan_of(VKSCAN_SCAN_OPERATION_SUM, &tensor, 1);
    desc.output = &narrow;
    CHECK_RESULT(vkscan_operator_create_scan(device, &desc, &op), VKSCAN_ERROR_INVALID_ARGUMENT,
                 "output.data_type: FLOAT16 differs from the input's FLOAT32");
  }
  desc = scan_of(VKSCAN_SCAN_OPERATION_MAXIMUM, &tensor, 1);
  desc.struct_size = sizeof(desc) - 4;
  CHECK_RESULT(vkscan_operator_create_scan(device, &desc, &op), VKSCAN_ERROR_INVALID_ARGUMENT,
               "struct_size: ");
  CHECK_RESULT(vkscan_operator_create_scan(device, NULL, &op), VKSCAN_ERROR_INVALID_ARGUMENT,
               "desc: ");
  CHECK_RESULT(vkscan_run_scan(NULL, &desc, input, output), VKSCAN_ERROR_INVALID_ARGUMENT,
               "device: ");
  desc = scan_of(VKSCAN_SCAN_OPERATION_MAXIMUM, &tensor, 1);
  CHECK_RESULT(vkscan_run_scan(device, &desc, NULL, output), VKSCAN_ERROR_INVALID_ARGUMENT,
               "input: ");
  product.has_exclusive_product = 3;
  CHECK_RESULT(vkscan_operator_create_cumulative_product(device, &product, &op),
               VKSCAN_ERROR_INVALID_ARGUMENT, "has_exclusive_product: ");
  product.has_exclusive_product = VK_TRUE;
  product.output = NULL;
  CHECK_RESULT(vkscan_operator_create_cumulative_product(device, &product, &op),
               VKSCAN_ERROR_INVALID_ARGUMENT, "output: is a null pointer");
  CHECK_RESULT(vkscan_operator_create_cumulative_product(device, &product, NULL),
               VKSCAN_ERROR_INVALID_ARGUMENT, "op: ");
  CHECK(op == NULL);

  product.output = &tensor;
  CHECK_OK(vkscan_operator_create_cumulative_product(device, &product, &op));
  CHECK(op != NULL);
  vkscan_operator_destroy(op);
  vkscan_device_destroy(device);
}

static void invalid_arguments(void) {
  const uint32_t sizes[] = {2, 3};
  const uint32_t other_sizes[] = {2, 4};
  const uint32_t nine[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  const float input[6] = {0};
  float output[6] = {0};
  vkscan_device device = create_device(NULL);
  vkscan_operator op = NULL;
  vkscan_tensor_desc good = packed(VKSCAN_DATA_TYPE_FLOAT32, 2, sizes);
  vkscan_tensor_desc bad = good;
  vkscan_cumulative_summation_desc desc = scan_desc(&good, &good, 1);
  if (device == NULL) return;

#define CHECK_REFUSED(prefix)                                                                      \
  CHECK_RESULT(vkscan_operator_create(device, &desc, &op), VKSCAN_ERROR_INVALID_ARGUMENT, prefix); \
  CHECK(op == NULL)

  CHECK_RESULT(vkscan_operator_create(device, NULL, &op), VKSCAN_ERROR_INVALID_ARGUMENT, "desc: ");
  CHECK_RESULT(vkscan_operator_create(NULL, &desc, &op), VKSCAN_ERROR_INVALID_ARGUMENT, "device: ");
  CHECK_RESULT(vkscan_operator_create(device, &desc, NULL), VKSCAN_ERROR_INVALID_ARGUMENT, "op: ");
  desc.struct_size = sizeof(desc) - 4;
  CHECK_REFUSED("struct_size: ");
  desc = scan_desc(NULL, &good, 1);
  CHECK_REFUSED("input: is a null pointer");
  desc = scan_desc(&good, &bad, 1);
  bad.struct_size = sizeof(bad) + 8;
  CHECK_REFUSED("output.struct_size: ");
  bad = packed(VKSCAN_DATA_TYPE_FLOAT32, 9, nine);
  CHECK_REFUSED("output.dimension_count: ");
  bad = packed(VKSCAN_DATA_TYPE_FLOAT32, 0, sizes);
  CHECK_REFUSED("output.dimension_count: ");
  bad = packed(VKSCAN_DATA_TYPE_FLOAT32, 2, NULL);
  CHECK_REFUSED("output.sizes: is a null pointer");
  /* From here the C++ validation speaks, in this header's field names. */
  bad = packed((vkscan_data_type)99, 2, sizes);
  CHECK_REFUSED("output.data_type: unknown value 99");
  bad = packed(VKSCAN_DATA_TYPE_INT32, 2, sizes);
  CHECK_REFUSED("output.data_type: ");
  bad = packed(VKSCAN_DATA_TYPE_FLOAT32, 2, other_sizes);
  CHECK_REFUSED("output.sizes[1]: ");
  desc = scan_desc(&good, &good, 2);
  CHECK_REFUSED("axis: ");
  desc = scan_desc(&good, &good, 1);
  desc.axis_direction = (vkscan_axis_direction)7;
  CHECK_REFUSED("axis_direction: ");
  desc = scan_desc(&good, &good, 1);
  desc.has_exclusive_sum = 2;
  CHECK_REFUSED("has_exclusive_sum: ");
#undef CHECK_REFUSED

  desc = scan_desc(&good, &good, 1);
  CHECK_RESULT(vkscan_run(device, &desc, NULL, output), VKSCAN_ERROR_INVALID_ARGUMENT, "input: ");
  CHECK_RESULT(vkscan_run(device, &desc, input, NULL), VKSCAN_ERROR_INVALID_ARGUMENT, "output: ");
  CHECK_RESULT(vkscan_run(NULL, &desc, input, output), VKSCAN_ERROR_INVALID_ARGUMENT, "device: ");

  CHECK_OK(vkscan_operator_create(device, &desc, &op));
  {
    vkscan_operator_properties properties = {0, 0, 0};
    CHECK_RESULT(vkscan_operator_get_properties(op, &properties), VKSCAN_ERROR_INVALID_ARGUMENT,
                 "properties.struct_size: ");
    CHECK_RESULT(vkscan_operator_get_properties(op, NULL), VKSCAN_ERROR_INVALID_ARGUMENT,
                 "properties: ");
    CHECK_RESULT(vkscan_operator_get_properties(NULL, &properties), VKSCAN_ERROR_INVALID_ARGUMENT,
                 "op: ");
    properties.struct_size = sizeof(properties);
    CHECK_OK(vkscan_operator_get_properties(op, &properties));
    CHECK(properties.dispatch_count >= 1);
  }
  vkscan_operator_destroy(op);
  vkscan_operator_destroy(NULL);
  vkscan_device_destroy(device);
  vkscan_device_destroy(NULL);
  CHECK(vkscan_device_supports(NULL, VKSCAN_DATA_TYPE_FLOAT32) == VK_FALSE);

  {
    vkscan_device_options options;
    memset(&options, 0, sizeof(options));
    device = NULL;
    options.struct_size = 8;
    CHECK_RESULT(vkscan_device_create(&options, &device), VKSCAN_ERROR_INVALID_ARGUMENT,
                 "options.struct_size: ");
    options.struct_size = sizeof(options);
    options.use_device_index = VK_TRUE;
    options.device_index = 1000;
    CHECK_RESULT(vkscan_device_create(&options, &device), VKSCAN_ERROR_INVALID_ARGUMENT,
                 "options.device_index: ");
    options.device_index = 0x80000000u;
    CHECK_RESULT(vkscan_device_create(&options, &device), VKSCAN_ERROR_INVALID_ARGUMENT,
                 "options.device_index: ");
    options.use_device_index = VK_FALSE;
    options.device_name = "no device is called this";
    CHECK_RESULT(vkscan_device_create(&options, &device), VKSCAN_ERROR_INVALID_ARGUMENT,
                 "options.device_name: ");
    options.device_name = NULL;
    options.pipeline_cache_data_size = 16;
    CHECK_RESULT(vkscan_device_create(&options, &device), VKSCAN_ERROR_INVALID_ARGUMENT,
                 "options.pipeline_cache_data: ");
    CHECK(device == NULL);
    CHECK_RESULT(vkscan_device_create(NULL, NULL), VKSCAN_ERROR_INVALID_ARGUMENT, "device: ");
  }
}

/* A device of vkscan's own without shaderInt64 and shaderFloat64 (NULL,
 * a failed check, when none can be made). */
static vkscan_device device_without_int64_and_float64(void) {
  vkscan_device_options options;
  memset(&options, 0, sizeof(options));
  options.struct_size = sizeof(options);
  options.disable_float64 = VK_TRUE;
  options.disable_int64 = VK_TRUE;
  return create_device(&options);
}

/* vkscan_device_get_capabilities(): the device's, as the C++ API reports
 * them; features a device was created without read as absent. */
static void capabilities(void) {
  vkscan_device device = device_without_int64_and_float64();
  if (device == NULL) return;
  vkscan_device_capabilities caps;
  memset(&caps, 0x5a, sizeof(caps));
  caps.struct_size = 8;
  CHECK_RESULT(vkscan_device_get_capabilities(device, &caps), VKSCAN_ERROR_INVALID_ARGUMENT,
               "capabilities.struct_size: ");
  CHECK_RESULT(vkscan_device_get_capabilities(NULL, &caps), VKSCAN_ERROR_INVALID_ARGUMENT,
               "device: ");
  CHECK_RESULT(vkscan_device_get_capabilities(device, NULL), VKSCAN_ERROR_INVALID_ARGUMENT,
               "capabilities: ");
  caps.struct_size = sizeof(caps);
  CHECK_OK(vkscan_device_get_capabilities(device, &caps));
  CHECK(caps.struct_size == sizeof(caps));
  /* NUL-terminated within the array, and the name enumerate_devices() gives. */
  CHECK(memchr(caps.device_name, 0, sizeof(caps.device_name)) != NULL);
  CHECK(memchr(caps.driver_name, 0, sizeof(caps.driver_name)) != NULL);
  CHECK(memchr(caps.driver_info, 0, sizeof(caps.driver_info)) != NULL);
  vkscan_physical_device_summary summaries[16];
  memset(summaries, 0, sizeof(summaries));
  for (int i = 0; i < 16; ++i) summaries[i].struct_size = sizeof(summaries[i]);
  uint32_t count = 16;
  vkscan_result listed = vkscan_enumerate_devices(&count, summaries);
  CHECK(listed == VKSCAN_SUCCESS || listed == VKSCAN_INCOMPLETE);
  int named = 0;
  for (uint32_t i = 0; i < count; ++i) {
    named |= strcmp(summaries[i].name, caps.device_name) == 0 &&
             summaries[i].type == caps.device_type && summaries[i].api_version == caps.api_version;
  }
  CHECK(named);
  CHECK(caps.api_version >= VK_API_VERSION_1_2);
  CHECK(caps.subgroup_size >= 1 && (caps.subgroup_size & (caps.subgroup_size - 1)) == 0);
  CHECK((caps.subgroup_operations & VK_SUBGROUP_FEATURE_BASIC_BIT) != 0);
  CHECK(caps.shader_int64 == VK_FALSE);
  CHECK(caps.shader_float64 == VK_FALSE);
  CHECK(caps.buffer_device_address == VK_TRUE); /* vkscan requires it */
  CHECK(caps.compute_full_subgroups == VK_FALSE || caps.subgroup_size_control == VK_TRUE);
  /* Lavapipe offers VK_EXT_subgroup_size_control, which vkscan's own devices enable. */
  if (caps.driver_id == VK_DRIVER_ID_MESA_LLVMPIPE) {
    CHECK(caps.compute_full_subgroups == VK_TRUE);
    CHECK(caps.device_type == VK_PHYSICAL_DEVICE_TYPE_CPU);
  }
  CHECK(caps.max_storage_buffer_range >= 1u << 27);
  CHECK(caps.max_compute_work_group_invocations >= 128);
  CHECK(caps.max_compute_work_group_count[0] >= 65535);
  CHECK(caps.max_push_constants_size >= 128);
  CHECK(caps.min_storage_buffer_offset_alignment >= 1);
  CHECK(caps.timestamp_period >= 0.0f);
  vkscan_device_destroy(device);
}

static void unsupported(void) {
  vkscan_device device = device_without_int64_and_float64();
  if (device == NULL) return;
  vkscan_operator op = NULL;

  CHECK(vkscan_device_supports(device, VKSCAN_DATA_TYPE_FLOAT32) == VK_TRUE);
  CHECK(vkscan_device_supports(device, VKSCAN_DATA_TYPE_FLOAT64) == VK_FALSE);
  CHECK(vkscan_device_supports(device, VKSCAN_DATA_TYPE_BFLOAT16) == VK_TRUE);
  CHECK(vkscan_device_supports(device, (vkscan_data_type)8) == VK_FALSE);
  CHECK(vkscan_device_supports(device, (vkscan_data_type)99) == VK_FALSE);
  {
    const uint32_t sizes[] = {4};
    vkscan_tensor_desc tensor = packed(VKSCAN_DATA_TYPE_FLOAT64, 1, sizes);
    vkscan_cumulative_summation_desc desc = scan_desc(&tensor, &tensor, 0);
    CHECK_RESULT(vkscan_operator_create(device, &desc, &op), VKSCAN_ERROR_UNSUPPORTED, "");
    CHECK(strstr(vkscan_last_error_message(), "FLOAT64") != NULL);
  }
  { /* Without shaderInt64, tensors of more than 2^30 bytes. Only the
     * operator is asked for: nothing is allocated. */
    const uint32_t sizes[] = {1u << 20, 257};
    vkscan_tensor_desc tensor = packed(VKSCAN_DATA_TYPE_FLOAT32, 2, sizes);
    vkscan_cumulative_summation_desc desc = scan_desc(&tensor, &tensor, 1);
    CHECK_RESULT(vkscan_operator_create(device, &desc, &op), VKSCAN_ERROR_UNSUPPORTED, "");
    CHECK(strstr(vkscan_last_error_message(), "input") != NULL);
  }
  CHECK(op == NULL);
  CHECK(vkscan_last_error_vk_result() == VK_SUCCESS);
  vkscan_device_destroy(device);
}

/* A wait bounded at 1 ns cannot see a scan of 2^22 elements finish:
 * VK_TIMEOUT, a Vulkan error that every device reaches honestly. */
static void vulkan_error(void) {
  enum { kCount = 1 << 22 };
  const uint32_t sizes[] = {kCount};
  vkscan_device_options options;
  memset(&options, 0, sizeof(options));
  options.struct_size = sizeof(options);
  options.timeout_ns = 1;
  vkscan_device device = create_device(&options);
  float* input = calloc(kCount, sizeof(float));
  float* output = malloc(kCount * sizeof(float));
  if (device == NULL || input == NULL || output == NULL) {
    CHECK(!"setup failed");
  } else {
    vkscan_tensor_desc tensor = packed(VKSCAN_DATA_TYPE_FLOAT32, 1, sizes);
    vkscan_cumulative_summation_desc desc = scan_desc(&tensor, &tensor, 0);
    memset(output, 0x7f, kCount * sizeof(float));
    CHECK_RESULT(vkscan_run(device, &desc, input, output), VKSCAN_ERROR_VULKAN,
                 "vkWaitForFences failed with VK_TIMEOUT");
    CHECK(vkscan_last_error_vk_result() == VK_TIMEOUT);
    /* The output is untouched on failure. */
    CHECK(((const unsigned char*)output)[0] == 0x7f);
    CHECK(((const unsigned char*)output)[kCount * sizeof(float) - 1] == 0x7f);
    /* A later success clears the thread's error. */
    CHECK(vkscan_device_supports(device, VKSCAN_DATA_TYPE_FLOAT32) == VK_TRUE);
    CHECK_OK(vkscan_enumerate_devices(&(uint32_t){0}, NULL));
    CHECK(vkscan_last_error_vk_result() == VK_SUCCESS);
  }
  vkscan_device_destroy(device); /* waits for the abandoned run */
  free(input);
  free(output);
}

/* std::bad_alloc, provoked honestly: the device options' pipeline cache data
 * (a real buffer) is copied while the address space is capped below what
 * the copy needs. Sanitizers reserve address space of their own and report
 * the failed allocation themselves, so there the case says it is skipped. */
static void out_of_host_memory(void) {
#if VKSCAN_TEST_SANITIZED
  printf("out_of_host_memory: skipped under a sanitizer\n");
#else
  enum { kBytes = 256 << 20 };
  struct rlimit original;
  struct rlimit capped;
  unsigned long pages = 0;
  vkscan_device device = NULL;
  vkscan_device_options options;
  FILE* statm = fopen("/proc/self/statm", "r");
  void* data = malloc(kBytes);
  CHECK(statm != NULL && data != NULL && fscanf(statm, "%lu", &pages) == 1);
  if (statm != NULL) fclose(statm);
  CHECK(getrlimit(RLIMIT_AS, &original) == 0);
  if (check_failures != 0 || data == NULL) {
    free(data);
    return;
  }
  memset(&options, 0, sizeof(options));
  options.struct_size = sizeof(options);
  options.pipeline_cache_data = data;
  options.pipeline_cache_data_size = kBytes;
  capped = original;
  capped.rlim_cur = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + (64u << 20);
  CHECK(setrlimit(RLIMIT_AS, &capped) == 0);
  vkscan_result result = vkscan_device_create(&options, &device);
  CHECK(setrlimit(RLIMIT_AS, &original) == 0);
  CHECK_RESULT(result, VKSCAN_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  CHECK(device == NULL);
  free(data);
#endif
}

int main(int argc, char** argv) {
  static const test_case cases[] = {
      {"version", version},
      {"result_names", result_names},
      {"enumerate_devices", enumerate_devices},
      {"run_numbers", run_numbers},
      {"run_scans", run_scans},
      {"run_carries", run_carries},
      {"invalid_arguments", invalid_arguments},
      {"scan_invalid_arguments", scan_invalid_arguments},
      {"capabilities", capabilities},
      {"unsupported", unsupported},
      {"vulkan_error", vulkan_error},
      {"out_of_host_memory", out_of_host_memory},
  };
  return run_cases(cases, sizeof(cases) / sizeof(cases[0]), argc, argv);
}
