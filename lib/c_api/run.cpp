// The C API's synchronous helper on host memory.
#include <vkscan/host.hpp>

#include "c_api/descriptors.hpp"
#include "c_api/errors.hpp"
#include "c_api/handles.hpp"

using namespace vkscan::detail::c_api;

extern "C" {

vkscan_result vkscan_run(vkscan_device device, const vkscan_cumulative_summation_desc* desc,
                         const void* input, void* output) {
  return guard([&] {
    requireNonNull(device, "device");
    vkscan::run(device->device, toCpp(desc), input, output);
  });
}

vkscan_result vkscan_run_scan_indices(vkscan_device device, const vkscan_scan_desc* desc,
                                      const void* input, void* output, void* indices) {
  return guard([&] {
    requireNonNull(device, "device");
    vkscan::run(device->device, toCpp(desc), input, output, indices);
  });
}

vkscan_result vkscan_run_scan_data(vkscan_device device, const vkscan_scan_desc* desc,
                                   const vkscan_run_data* data) {
  return guard([&] {
    requireNonNull(device, "device");
    requireNonNull(data, "data");
    requireStructSize(data->struct_size, sizeof(vkscan_run_data), "data.struct_size");
    vkscan::RunData run;
    run.input = data->input;
    run.output = data->output;
    run.indices = data->indices;
    run.carryIn = data->carry_in;
    run.totals = data->totals;
    vkscan::run(device->device, toCpp(desc), run);
  });
}

vkscan_result vkscan_run_scan(vkscan_device device, const vkscan_scan_desc* desc, const void* input,
                              void* output) {
  return guard([&] {
    requireNonNull(device, "device");
    vkscan::run(device->device, toCpp(desc), input, output);
  });
}

}  // extern "C"
