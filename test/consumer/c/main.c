/* A C11 user's program: the installed <vkscan/vkscan.h>, the spec's first
 * example through the shared library, summed and multiplied, and the
 * library's version against the headers'. Built by find_package
 * (CMakeLists.txt) and by pkg-config. */
#include <stdio.h>
#include <string.h>
#include <vkscan/vkscan.h>

int main(void) {
  const uint32_t sizes[] = {1, 1, 3, 4};
  const float input[] = {2, 1, 3, 5, 3, 8, 7, 3, 9, 6, 2, 4};
  const float expected[] = {2, 3, 6, 11, 3, 11, 18, 21, 9, 15, 17, 21};
  const float products[] = {2, 2, 6, 30, 3, 24, 168, 504, 9, 54, 108, 432};
  float output[12] = {0};
  float product_output[12] = {0};
  vkscan_tensor_desc tensor = {sizeof(tensor), VKSCAN_DATA_TYPE_FLOAT32, 4, sizes, NULL};
  vkscan_cumulative_summation_desc desc = {
      sizeof(desc), &tensor, &tensor, 3, VKSCAN_AXIS_DIRECTION_INCREASING, VK_FALSE};
  /* Designated initializers: the fields vkscan appends later start zeroed,
     with no warning. */
  vkscan_scan_desc product = {.struct_size = sizeof(product),
                              .operation = VKSCAN_SCAN_OPERATION_PRODUCT,
                              .input = &tensor,
                              .output = &tensor,
                              .axis = 3,
                              .axis_direction = VKSCAN_AXIS_DIRECTION_INCREASING};
  vkscan_device device = NULL;
  vkscan_result result;

  if (vkscan_version() != VKSCAN_VERSION) {
    fprintf(stderr, "consumer (C): library %u, headers %d\n", vkscan_version(), VKSCAN_VERSION);
    return 1;
  }
  result = vkscan_device_create(NULL, &device);
  if (result == VKSCAN_SUCCESS) result = vkscan_run(device, &desc, input, output);
  if (result == VKSCAN_SUCCESS) result = vkscan_run_scan(device, &product, input, product_output);
  vkscan_device_destroy(device);
  if (result != VKSCAN_SUCCESS) {
    fprintf(stderr, "consumer (C): %s: %s\n", vkscan_result_name(result),
            vkscan_last_error_message());
    return 1;
  }
  if (memcmp(output, expected, sizeof(expected)) != 0 ||
      memcmp(product_output, products, sizeof(products)) != 0) {
    fprintf(stderr, "consumer (C): wrong result\n");
    return 1;
  }
  printf("consumer (C): ok, vkscan %s\n", VKSCAN_VERSION_STRING);
  return 0;
}
