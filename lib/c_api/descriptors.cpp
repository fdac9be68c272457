#include "c_api/descriptors.hpp"

#include <cstddef>
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
static_assert(VKSCAN_SCAN_OPERATION_SUM == static_cast<int>(ScanOperation::Sum));
static_assert(VKSCAN_SCAN_OPERATION_PRODUCT == static_cast<int>(ScanOperation::Product));
static_assert(VKSCAN_SCAN_OPERATION_MAXIMUM == static_cast<int>(ScanOperation::Maximum));
static_assert(VKSCAN_SCAN_OPERATION_MINIMUM == static_cast<int>(ScanOperation::Minimum));
static_assert(VKSCAN_SCAN_OPERATION_LOG_SUM_EXP == static_cast<int>(ScanOperation::LogSumExp));

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

bool toBool(VkBool32 value, const char* field) {
  if (value != VK_TRUE && value != VK_FALSE) {
    throw InvalidArgument(field, "is " + std::to_string(value) + ", neither VK_TRUE nor VK_FALSE");
  }
  return value == VK_TRUE;
}

// The fields every descriptor of the family shares, in the same order.
template <class CDesc, class CppDesc>
void readCommon(const CDesc* desc, CppDesc& result) {
  requireNonNull(desc, "desc");
  requireStructSize(desc->struct_size, sizeof(CDesc), "struct_size");
  result.input = toCpp(desc->input, "input");
  result.output = toCpp(desc->output, "output");
  result.axis = desc->axis;
  result.axisDirection = static_cast<AxisDirection>(static_cast<uint32_t>(desc->axis_direction));
}

}  // namespace

CumulativeSummationDesc toCpp(const vkscan_cumulative_summation_desc* desc) {
  CumulativeSummationDesc result;
  readCommon(desc, result);
  result.hasExclusiveSum = toBool(desc->has_exclusive_sum, "has_exclusive_sum");
  return result;
}

ScanDesc toCpp(const vkscan_scan_desc* desc) {
  ScanDesc result;
  requireNonNull(desc, "desc");
  // The version before carry_in and totals ends at them.
  bool withCarries = desc->struct_size != offsetof(vkscan_scan_desc, carry_in);
  if (withCarries) requireStructSize(desc->struct_size, sizeof(vkscan_scan_desc), "struct_size");
  result.input = toCpp(desc->input, "input");
  result.output = toCpp(desc->output, "output");
  result.axis = desc->axis;
  result.axisDirection = static_cast<AxisDirection>(static_cast<uint32_t>(desc->axis_direction));
  result.operation = static_cast<ScanOperation>(static_cast<uint32_t>(desc->operation));
  result.exclusive = toBool(desc->exclusive, "exclusive");
  if (desc->indices != nullptr) result.indices = toCpp(desc->indices, "indices");
  if (withCarries && desc->carry_in != nullptr) result.carryIn = toCpp(desc->carry_in, "carryIn");
  if (withCarries && desc->totals != nullptr) result.totals = toCpp(desc->totals, "totals");
  return result;
}

CumulativeProductDesc toCpp(const vkscan_cumulative_product_desc* desc) {
  CumulativeProductDesc result;
  readCommon(desc, result);
  result.hasExclusiveProduct = toBool(desc->has_exclusive_product, "has_exclusive_product");
  return result;
}

size_t operatorCacheCapacity(size_t capacity) noexcept {
  if (capacity == 0) return ExternalDevice{}.operatorCacheCapacity;
  return capacity == VKSCAN_NO_OPERATOR_CACHE ? 0 : capacity;
}

}  // namespace vkscan::detail::c_api
