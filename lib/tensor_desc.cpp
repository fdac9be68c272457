#include <vkscan/vkscan.hpp>

namespace vkscan {

DataType carryType(DataType outputType) noexcept {
  return outputType == DataType::Float16 || outputType == DataType::BFloat16 ? DataType::Float32
                                                                             : outputType;
}

const char* dataTypeName(DataType type) noexcept {
  switch (type) {
    case DataType::Float32:
      return "FLOAT32";
    case DataType::Float16:
      return "FLOAT16";
    case DataType::Int32:
      return "INT32";
    case DataType::UInt32:
      return "UINT32";
    case DataType::Int64:
      return "INT64";
    case DataType::UInt64:
      return "UINT64";
    case DataType::Float64:
      return "FLOAT64";
    case DataType::BFloat16:
      return "BFLOAT16";
  }
  return "UNKNOWN";
}

uint64_t TensorDesc::elementCount() const noexcept {
  uint64_t count = 1;
  for (uint32_t size : sizes) count *= size;
  return sizes.empty() ? 0 : count;
}

uint64_t TensorDesc::spanBytes() const noexcept {
  if (elementCount() == 0) return 0;
  uint64_t lastIndex = 0;
  uint64_t packedStride = 1;
  for (size_t d = sizes.size(); d-- > 0;) {
    uint64_t stride = strides.empty() ? packedStride : strides[d];
    lastIndex += (uint64_t{sizes[d]} - 1) * stride;
    packedStride *= sizes[d];
  }
  return (lastIndex + 1) * dataTypeSize(dataType);
}

uint64_t TensorDesc::totalBytes() const noexcept {
  return (spanBytes() + 3) & ~uint64_t{3};
}

}  // namespace vkscan
