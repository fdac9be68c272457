#include "descriptors.hpp"

namespace vkscan::test {

CumulativeSummationDesc packedDesc(DataType type, std::vector<uint32_t> sizes, uint32_t axis,
                                   bool exclusive, AxisDirection direction) {
  CumulativeSummationDesc desc;
  desc.input = {type, std::move(sizes), {}};
  desc.output = desc.input;
  desc.axis = axis;
  desc.hasExclusiveSum = exclusive;
  desc.axisDirection = direction;
  return desc;
}

uint32_t vectorElements(DataType type) {
  return dataTypeSize(type) == 8 ? 2 : 4;
}

void fitElements(TensorDesc& tensor, uint32_t axis, uint64_t budget) {
  std::vector<uint32_t>& sizes = tensor.sizes;
  while (sizes.size() > 1 && tensor.elementCount() > budget) {
    uint32_t largest = axis == 0 ? 1 : 0;
    for (uint32_t d = 0; d < sizes.size(); ++d) {
      if (d != axis && sizes[d] > sizes[largest]) largest = d;
    }
    sizes[largest] = (sizes[largest] + 1) / 2;
  }
}

std::string describe(const CumulativeSummationDesc& desc) {
  auto list = [](const std::vector<uint32_t>& values) {
    std::string text = "{";
    for (size_t i = 0; i < values.size(); ++i) {
      text += (i ? "," : "") + std::to_string(values[i]);
    }
    return text + "}";
  };
  return std::string(dataTypeName(desc.input.dataType)) + " sizes=" + list(desc.input.sizes) +
         " inStrides=" + list(desc.input.strides) + " outStrides=" + list(desc.output.strides) +
         " axis=" + std::to_string(desc.axis) +
         (desc.axisDirection == AxisDirection::Decreasing ? " decreasing" : " increasing") +
         (desc.hasExclusiveSum ? " exclusive" : " inclusive");
}

std::string describe(const ScanDesc& desc) {
  CumulativeSummationDesc geometry{desc.input, desc.output, desc.axis, desc.axisDirection,
                                   desc.exclusive};
  return std::string(scanOperationName(desc.operation)) + " " + describe(geometry);
}

}  // namespace vkscan::test
