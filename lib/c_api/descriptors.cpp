#include "c_api/descriptors.hpp"

#include <string>

#include "c_api/errors.hpp"

namespace vkscan::detail::c_api {
namespace {

// The C enumerators are the C++ ones' values, so a value passes through
// unchanged and the C++ validation names any unknown one.
static_assert(VKSCAN_DATA_TYPE_FLOAT32 == static_cast<int>(DataType::Float32));
static_assert(VKSCAN_DATA_TYPE_FLOAT16 == static_cast<int>(DataType::Float16));
static_assert(VKSCAN_DATA_TYPE_INT32 == static_cast<int>(DataType::Int32));
static_assert(VKSCAN_DATA_TYPE_UINT32 == static_cast<int>(DataType::UInt32));
static_assert(VKSCAN_DATA_TYPE_INT64 == static_cast<int>(DataType::Int64));
static_assert(VKSCAN_DATA_TYPE_UINT64 == static_cast<int>(DataType::UInt64));
static_assert(VKSCAN_DATA_TYPE_FLOAT64 == static_cast<int>(DataType::Float64));
static_assert(VKSCAN_DATA_TYPE_BFLOAT16 == static_cast<int>(DataType::BFloat16));
static_assert(VKSCAN_AXIS_DIRECTION_INCREASING == static_cast<int>(AxisDirection::Increasing));
static_assert(VKSCAN_AXIS_DIRECTION_DECREASING == static_cast<int>(AxisDirection::Decreasing));
static_assert(VKSCAN_MAX_DIMENSIONS == kMaxDimensions);

TensorDesc toCpp(const vkscan_tensor_desc* tensor, const std::string& name) {
  requireNonNull(tensor, name.c_str());
  requireStructSize(tensor->struct_size, sizeof(vkscan_tensor_desc), name + ".struct_size");
  uint32_t rank = tensor->dimension_count;
  // Checked before the arrays are read: a wild count must not be followed.
  if (rank < 1 || rank > VKSCAN_MAX_DIMENSIONS) {
    throw InvalidArgument(name + ".dimension_count",
                          "is " + std::to_string(rank) + "; vkscan supports 1 to 8");
  }
  requireNonNull(tensor->sizes, (name + ".sizes").c_str());
  TensorDesc desc;
  desc.dataType = static_cast<DataType>(static_cast<uint32_t>(tensor->data_type));
  desc.sizes.assign(tensor->sizes, tensor->sizes + rank);
  if (tensor->strides != nullptr) desc.strides.assign(tensor->strides, tensor->strides + rank);
  return desc;
}

}  // namespace

CumulativeSummationDesc toCpp(const vkscan_cumulative_summation_desc* desc) {
  requireNonNull(desc, "desc");
  requireStructSize(desc->struct_size, sizeof(vkscan_cumulative_summation_desc), "struct_size");
  CumulativeSummationDesc result;
  result.input = toCpp(desc->input, "input");
  result.output = toCpp(desc->output, "output");
  result.axis = desc->axis;
  result.axisDirection = static_cast<AxisDirection>(static_cast<uint32_t>(desc->axis_direction));
  if (desc->has_exclusive_sum != VK_TRUE && desc->has_exclusive_sum != VK_FALSE) {
    throw InvalidArgument("has_exclusive_sum", "is " + std::to_string(desc->has_exclusive_sum) +
                                                   ", neither VK_TRUE nor VK_FALSE");
  }
  result.hasExclusiveSum = desc->has_exclusive_sum == VK_TRUE;
  return result;
}

size_t operatorCacheCapacity(size_t capacity) noexcept {
  if (capacity == 0) return ExternalDevice{}.operatorCacheCapacity;
  return capacity == VKSCAN_NO_OPERATOR_CACHE ? 0 : capacity;
}

}  // namespace vkscan::detail::c_api
