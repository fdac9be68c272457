// The C API's operators: create, query, record, destroy.
#include "c_api/descriptors.hpp"
#include "c_api/errors.hpp"
#include "c_api/handles.hpp"

using namespace vkscan::detail::c_api;

namespace {

vkscan::BufferBinding toCpp(const vkscan_buffer_binding& binding) {
  return {binding.buffer, binding.offset, binding.size};
}

// An operator from any of the C descriptors (toCpp() checks each).
template <typename Desc>
vkscan_result createOperator(vkscan_device device, const Desc* desc, vkscan_operator* op) {
  return guard([&] {
    requireNonNull(device, "device");
    requireNonNull(op, "op");
    auto cpp = vkscan::detail::c_api::toCpp(desc);
    *op = new vkscan_operator_T{device->device.createOperator(cpp)};
  });
}

}  // namespace

extern "C" {

vkscan_result vkscan_operator_create(vkscan_device device,
                                     const vkscan_cumulative_summation_desc* desc,
                                     vkscan_operator* op) {
  return createOperator(device, desc, op);
}

vkscan_result vkscan_operator_create_scan(vkscan_device device, const vkscan_scan_desc* desc,
                                          vkscan_operator* op) {
  return createOperator(device, desc, op);
}

vkscan_result vkscan_operator_create_cumulative_product(vkscan_device device,
                                                        const vkscan_cumulative_product_desc* desc,
                                                        vkscan_operator* op) {
  return createOperator(device, desc, op);
}

void vkscan_operator_destroy(vkscan_operator op) {
  delete op;
}

vkscan_result vkscan_operator_get_properties(vkscan_operator op,
                                             vkscan_operator_properties* properties) {
  return guard([&] {
    requireNonNull(op, "op");
    requireNonNull(properties, "properties");
    requireStructSize(properties->struct_size, sizeof(vkscan_operator_properties),
                      "properties.struct_size");
    properties->scratch_size = op->op.scratchSize();
    properties->dispatch_count = op->op.dispatchCount();
  });
}

vkscan_result vkscan_operator_record(vkscan_operator op, VkCommandBuffer command_buffer,
                                     const vkscan_buffer_binding* input,
                                     const vkscan_buffer_binding* output,
                                     const vkscan_buffer_binding* scratch) {
  return vkscan_operator_record_indices(op, command_buffer, input, output, nullptr, scratch);
}

vkscan_result vkscan_operator_record_indices(vkscan_operator op, VkCommandBuffer command_buffer,
                                             const vkscan_buffer_binding* input,
                                             const vkscan_buffer_binding* output,
                                             const vkscan_buffer_binding* indices,
                                             const vkscan_buffer_binding* scratch) {
  return guard([&] {
    requireNonNull(op, "op");
    requireNonNull(input, "bindings.input");
    requireNonNull(output, "bindings.output");
    op->op.record(command_buffer, toCpp(*input), toCpp(*output),
                  indices != nullptr ? toCpp(*indices) : vkscan::BufferBinding{},
                  scratch != nullptr ? toCpp(*scratch) : vkscan::BufferBinding{});
  });
}

vkscan_result vkscan_operator_record_bindings(vkscan_operator op, VkCommandBuffer command_buffer,
                                              const vkscan_operator_bindings* bindings) {
  return guard([&] {
    requireNonNull(op, "op");
    requireNonNull(bindings, "bindings");
    requireStructSize(bindings->struct_size, sizeof(vkscan_operator_bindings),
                      "bindings.struct_size");
    vkscan::Bindings all;
    all.input = toCpp(bindings->input);
    all.output = toCpp(bindings->output);
    all.scratch = toCpp(bindings->scratch);
    all.indices = toCpp(bindings->indices);
    all.carryIn = toCpp(bindings->carry_in);
    all.totals = toCpp(bindings->totals);
    op->op.record(command_buffer, all);
  });
}

}  // extern "C"
