#include "problem.hpp"

#include <array>
#include <functional>
#include <string>

namespace vkscan::detail {
namespace {

std::string join(const std::vector<uint32_t>& values) {
  std::string text = "{";
  for (size_t i = 0; i < values.size(); ++i) text += (i ? "," : "") + std::to_string(values[i]);
  return text + "}";
}

void checkTensor(const TensorDesc& tensor, const std::string& name) {
  if (static_cast<uint32_t>(tensor.dataType) > static_cast<uint32_t>(DataType::BFloat16)) {
    throw InvalidArgument(
        name + ".dataType",
        "unknown value " + std::to_string(static_cast<uint32_t>(tensor.dataType)));
  }
  size_t rank = tensor.sizes.size();
  if (rank < 1 || rank > kMaxDimensions) {
    throw InvalidArgument(name + ".sizes",
                          "has " + std::to_string(rank) + " dimensions; vkscan supports 1 to 8");
  }
  if (!tensor.strides.empty() && tensor.strides.size() != rank) {
    throw InvalidArgument(name + ".strides", "has " + std::to_string(tensor.strides.size()) +
                                                 " entries but sizes has " + std::to_string(rank));
  }
  // The furthest element offset must stay far below 2^63 so that byte
  // offsets and the kernels' signed arithmetic cannot overflow; a double is
  // exact enough to draw that line.
  double last = 0;
  double packed = 1;
  for (size_t d = rank; d-- > 0;) {
    double stride = tensor.strides.empty() ? packed : tensor.strides[d];
    if (tensor.sizes[d] > 0) last += (tensor.sizes[d] - 1.0) * stride;
    packed *= tensor.sizes[d];
  }
  if ((last + 1) * static_cast<double>(dataTypeSize(tensor.dataType)) >= 0x1p60) {
    throw InvalidArgument(name + ".sizes", "tensor " + join(tensor.sizes) +
                                               " spans more bytes than vkscan can address (2^60)");
  }
}

// Adds `item` to the `count` sorted ones, after those it does not precede:
// a stable insertion sort of at most kMaxDimensions items, which neither
// allocates (std::stable_sort does) nor trips GCC 12's -Warray-bounds on a
// short std::array (std::sort does).
template <typename T, typename Less>
void insertSorted(std::array<T, kMaxDimensions>& items, size_t& count, const T& item, Less less) {
  size_t at = count++;
  for (; at > 0 && less(item, items[at - 1]); --at) items[at] = items[at - 1];
  items[at] = item;
}

// A sufficient test: sorted by stride, each dimension must step over the
// whole extent of the smaller ones. It rejects a few exotic interleavings that
// do not overlap; no DML or numpy layout is among them.
void checkDoesNotOverlapItself(const TensorDesc& output, const std::string& name) {
  std::array<std::pair<int64_t, uint64_t>, kMaxDimensions> dims;  // stride, size
  size_t count = 0;
  ElementStrides strides = elementStrides(output);
  for (size_t d = 0; d < output.sizes.size(); ++d) {
    if (output.sizes[d] > 1) {
      insertSorted(dims, count, std::pair(strides[d], uint64_t{output.sizes[d]}), std::less<>());
    }
  }
  int64_t extent = 1;  // elements spanned by the dimensions checked so far
  for (size_t i = 0; i < count; ++i) {
    auto [stride, size] = dims[i];
    if (stride < extent) {
      throw InvalidArgument(name + ".strides",
                            "strides " + join(output.strides) + " for sizes " + join(output.sizes) +
                                " make " + name + " elements overlap (stride " +
                                std::to_string(stride) + " is smaller than the extent " +
                                std::to_string(extent) + " of the faster dimensions)");
    }
    extent = stride * static_cast<int64_t>(size - 1) + extent;
  }
}

}  // namespace

bool sameLayout(const TensorDesc& a, const TensorDesc& b) {
  return a.sizes == b.sizes && elementStrides(a) == elementStrides(b);
}

ElementStrides elementStrides(const TensorDesc& tensor) {
  ElementStrides strides{};
  if (!tensor.strides.empty()) {
    for (size_t d = 0; d < tensor.strides.size(); ++d) strides[d] = tensor.strides[d];
    return strides;
  }
  // Packed: checkTensor() has bounded the extent, so the product fits.
  int64_t packed = 1;
  for (size_t d = tensor.sizes.size(); d-- > 0;) {
    strides[d] = packed;
    packed *= tensor.sizes[d];
  }
  return strides;
}

uint64_t Problem::lineCount() const noexcept {
  uint64_t count = 1;
  for (const LineDim& dim : lines) count *= dim.size;
  return count;
}

DataType accumulationType(DataType type) noexcept {
  return type == DataType::Float16 || type == DataType::BFloat16 ? DataType::Float32 : type;
}

namespace {

void checkIndices(const ScanDesc& desc) {
  const TensorDesc& indices = desc.indices;
  if (desc.operation != ScanOperation::Maximum && desc.operation != ScanOperation::Minimum) {
    throw InvalidArgument("indices", std::string("only MAXIMUM and MINIMUM scans have indices, "
                                                 "not ") +
                                         scanOperationName(desc.operation));
  }
  checkTensor(indices, "indices");
  if (indices.dataType != DataType::Int64) {
    throw InvalidArgument("indices.dataType",
                          std::string(dataTypeName(indices.dataType)) + " is not INT64");
  }
  if (indices.sizes != desc.input.sizes) {
    throw InvalidArgument("indices.sizes", "are " + join(indices.sizes) + ", not the input's " +
                                               join(desc.input.sizes));
  }
  if (elementStrides(indices) != elementStrides(desc.output)) {
    throw InvalidArgument("indices.strides", "are not the output's element strides");
  }
  if (desc.exclusive) {
    throw InvalidArgument("exclusive", "an exclusive scan has no indices (PyTorch's have none)");
  }
  if (desc.input.dataType != desc.output.dataType) {
    throw InvalidArgument("indices", "are not computed with a wider output type");
  }
}

// carryIn and totals: a value per line, in the carry type.
void checkLineTensor(const ScanDesc& desc, const TensorDesc& tensor, const std::string& name) {
  if (!desc.indices.sizes.empty()) {
    throw InvalidArgument(name,
                          "cannot be bound with indices: an index has no carry to continue "
                          "from or total to give");
  }
  checkTensor(tensor, name);
  DataType type = carryType(desc.output.dataType);
  if (tensor.dataType != type) {
    throw InvalidArgument(name + ".dataType", std::string(dataTypeName(tensor.dataType)) +
                                                  " is not the carry type " + dataTypeName(type) +
                                                  " of a " + dataTypeName(desc.output.dataType) +
                                                  " output");
  }
  const std::vector<uint32_t>& sizes = desc.output.sizes;
  if (tensor.sizes.size() != sizes.size()) {
    throw InvalidArgument(name + ".sizes", "has " + std::to_string(tensor.sizes.size()) +
                                               " dimensions but output.sizes has " +
                                               std::to_string(sizes.size()));
  }
  for (size_t d = 0; d < sizes.size(); ++d) {
    uint32_t expected = d == desc.axis ? 1 : sizes[d];
    if (tensor.sizes[d] != expected) {
      throw InvalidArgument(name + ".sizes[" + std::to_string(d) + "]",
                            "is " + std::to_string(tensor.sizes[d]) + " but must be " +
                                std::to_string(expected) +
                                (d == desc.axis ? " (the axis)" : " (output.sizes there)"));
    }
  }
}

}  // namespace

Problem normalize(const ScanDesc& desc) {
  if (static_cast<uint32_t>(desc.operation) > static_cast<uint32_t>(ScanOperation::LogSumExp)) {
    throw InvalidArgument("operation",
                          "unknown value " + std::to_string(static_cast<uint32_t>(desc.operation)));
  }
  checkTensor(desc.input, "input");
  checkTensor(desc.output, "output");
  const TensorDesc& in = desc.input;
  const TensorDesc& out = desc.output;
  if (in.dataType != out.dataType && !outputTypeWidens(in.dataType, out.dataType)) {
    throw InvalidArgument("output.dataType",
                          std::string(dataTypeName(out.dataType)) + " differs from the input's " +
                              dataTypeName(in.dataType) +
                              " and does not widen it (INT32 to INT64, UINT32 to UINT64, FLOAT16 "
                              "and BFLOAT16 to FLOAT32, FLOAT32 to FLOAT64)");
  }
  bool floats = in.dataType == DataType::Float32 || in.dataType == DataType::Float16 ||
                in.dataType == DataType::BFloat16 || in.dataType == DataType::Float64;
  if (desc.operation == ScanOperation::LogSumExp && !floats) {
    throw InvalidArgument("input.dataType", std::string(dataTypeName(in.dataType)) +
                                                " is not a float type, which LOG_SUM_EXP needs");
  }
  if (in.sizes.size() != out.sizes.size()) {
    throw InvalidArgument("output.sizes", "has " + std::to_string(out.sizes.size()) +
                                              " dimensions but input.sizes has " +
                                              std::to_string(in.sizes.size()));
  }
  for (size_t d = 0; d < in.sizes.size(); ++d) {
    if (in.sizes[d] != out.sizes[d]) {
      throw InvalidArgument("output.sizes[" + std::to_string(d) + "]",
                            "is " + std::to_string(out.sizes[d]) + " but input.sizes[" +
                                std::to_string(d) + "] is " + std::to_string(in.sizes[d]));
    }
  }
  if (desc.axis >= in.sizes.size()) {
    throw InvalidArgument("axis", "is " + std::to_string(desc.axis) + " but the tensors have " +
                                      std::to_string(in.sizes.size()) + " dimensions");
  }
  if (desc.axisDirection != AxisDirection::Increasing &&
      desc.axisDirection != AxisDirection::Decreasing) {
    throw InvalidArgument(
        "axisDirection",
        "unknown value " + std::to_string(static_cast<uint32_t>(desc.axisDirection)));
  }
  if (out.elementCount() > 0) checkDoesNotOverlapItself(out, "output");
  bool carryIn = !desc.carryIn.sizes.empty();
  bool totals = !desc.totals.sizes.empty();
  if (carryIn) checkLineTensor(desc, desc.carryIn, "carryIn");
  if (totals) {
    checkLineTensor(desc, desc.totals, "totals");
    if (desc.totals.elementCount() > 0) checkDoesNotOverlapItself(desc.totals, "totals");
  }
  if (!desc.indices.sizes.empty()) {
    checkIndices(desc);
    ScanDesc values = desc;
    values.indices.sizes.clear();
    values.indices.strides.clear();
    Problem problem = normalize(values);
    if (problem.empty) return problem;
    // The latest record in traversal order: the greatest index along an
    // increasing axis, the least along a decreasing one.
    ScanDesc records;
    records.operation = desc.axisDirection == AxisDirection::Increasing ? ScanOperation::Maximum
                                                                        : ScanOperation::Minimum;
    records.input = desc.indices;
    records.output = desc.indices;
    records.axis = desc.axis;
    records.axisDirection = desc.axisDirection;
    problem.indexScan = std::make_shared<Problem>(normalize(records));
    problem.indicesBytes = desc.indices.totalBytes();
    return problem;
  }
  if (in.dataType != out.dataType) {
    // The scan of the output in place, after the widening copy.
    ScanDesc scan = desc;
    scan.input = out;
    Problem problem = normalize(scan);
    if (problem.empty) return problem;
    ScanDesc copy = desc;
    copy.output.dataType = in.dataType;
    copy.carryIn = {};
    copy.totals = {};
    auto widened = std::make_shared<Problem>(normalize(copy));
    widened->signedValues = in.dataType == DataType::Int32;  // sign-extends
    widened->outputBytes = out.totalBytes();
    problem.widenedFrom = std::move(widened);
    return problem;
  }

  Problem problem;
  problem.type = in.dataType;
  problem.operation = desc.operation;
  problem.signedValues =
      (desc.operation == ScanOperation::Maximum || desc.operation == ScanOperation::Minimum) &&
      (in.dataType == DataType::Int32 || in.dataType == DataType::Int64);
  problem.exclusive = desc.exclusive;
  // With a carry-in, out[0] of an exclusive scan is the carry.
  problem.firstIsPositiveZero = desc.exclusive && !carryIn;
  problem.empty = in.elementCount() == 0;
  if (problem.empty) return problem;
  problem.inputBytes = in.totalBytes();
  problem.outputBytes = out.totalBytes();
  problem.carryIn = carryIn;
  problem.totals = totals;
  if (carryIn) problem.carryBytes = desc.carryIn.totalBytes();
  if (totals) problem.totalsBytes = desc.totals.totalBytes();

  ElementStrides inStrides = elementStrides(in);
  ElementStrides outStrides = elementStrides(out);
  ElementStrides carryStrides = carryIn ? elementStrides(desc.carryIn) : ElementStrides{};
  ElementStrides totalsStrides = totals ? elementStrides(desc.totals) : ElementStrides{};
  problem.axisLen = in.sizes[desc.axis];
  problem.inAxisStride = inStrides[desc.axis];
  problem.outAxisStride = outStrides[desc.axis];
  if (desc.axisDirection == AxisDirection::Decreasing) {
    problem.inBase = static_cast<int64_t>(problem.axisLen - 1) * problem.inAxisStride;
    problem.outBase = static_cast<int64_t>(problem.axisLen - 1) * problem.outAxisStride;
    problem.inAxisStride = -problem.inAxisStride;
    problem.outAxisStride = -problem.outAxisStride;
  }

  // Innermost first; dimensions of equal strides keep their order.
  auto innerFirst = [](const LineDim& a, const LineDim& b) {
    return a.inStride != b.inStride ? a.inStride < b.inStride : a.outStride < b.outStride;
  };
  std::array<LineDim, kMaxDimensions> dims;
  size_t count = 0;
  for (size_t d = 0; d < in.sizes.size(); ++d) {
    if (d != desc.axis && in.sizes[d] > 1) {
      insertSorted(
          dims, count,
          LineDim{in.sizes[d], inStrides[d], outStrides[d], carryStrides[d], totalsStrides[d]},
          innerFirst);
    }
  }
  for (size_t i = 0; i < count; ++i) {
    const LineDim& dim = dims[i];
    if (!problem.lines.empty()) {
      LineDim& inner = problem.lines.back();
      int64_t span = static_cast<int64_t>(inner.size);
      if (dim.inStride == inner.inStride * span && dim.outStride == inner.outStride * span &&
          dim.carryStride == inner.carryStride * span &&
          dim.totalsStride == inner.totalsStride * span) {
        inner.size *= dim.size;
        continue;
      }
    }
    problem.lines.push_back(dim);
  }
  return problem;
}

}  // namespace vkscan::detail
