// scan(device, a, out, axis, reverse, exclusive, bfloat16, operation): one
// vkscan::run() from numpy array `a` into numpy array `out`, their strides
// passed as DML element strides, so any layout they can express is scanned
// without a copy. The package (python/vkscan/_scan.py) applies numpy's rules
// first; this layer checks only what run() cannot.
#include <pybind11/numpy.h>

#include <cstdint>
#include <string>
#include <vkscan/host.hpp>

#include "bindings.hpp"

namespace py = pybind11;

namespace vkscan::python {
namespace {

// `bfloat16`: the array holds bfloat16 bits as 2-byte integers or raw bytes
// (numpy has no bfloat16).
DataType dataTypeOf(const py::dtype& dtype, const char* field, bool bfloat16) {
  if (dtype.byteorder() == '>') {
    throw py::type_error(std::string(field) + ": byte order is not native");
  }
  char kind = dtype.kind();
  size_t size = static_cast<size_t>(dtype.itemsize());
  if (bfloat16) {
    if (size == 2 && (kind == 'u' || kind == 'i' || kind == 'V')) return DataType::BFloat16;
    std::string name = py::str(py::handle(dtype));
    throw py::type_error(std::string(field) + ": dtype " + name +
                         " does not hold bfloat16 bits (uint16, int16 or 2-byte void)");
  }
  if (kind == 'f' && size == 2) return DataType::Float16;
  if (kind == 'f' && size == 4) return DataType::Float32;
  if (kind == 'f' && size == 8) return DataType::Float64;
  if (kind == 'i' && size == 4) return DataType::Int32;
  if (kind == 'i' && size == 8) return DataType::Int64;
  if (kind == 'u' && size == 4) return DataType::UInt32;
  if (kind == 'u' && size == 8) return DataType::UInt64;
  std::string name = py::str(py::handle(dtype));
  throw py::type_error(std::string(field) + ": dtype " + name +
                       " is not a vkscan type (float16/32/64, int32/64, uint32/64)");
}

// numpy's byte strides as DML element strides, where they can be.
TensorDesc tensorOf(const py::array& array, DataType type, const std::string& field) {
  TensorDesc t;
  t.dataType = type;
  auto itemsize = static_cast<py::ssize_t>(dataTypeSize(type));
  for (py::ssize_t d = 0; d < array.ndim(); ++d) {
    py::ssize_t size = array.shape(d);
    py::ssize_t stride = array.strides(d);
    std::string at = field + ".shape[" + std::to_string(d) + "]";
    if (size > py::ssize_t{UINT32_MAX}) throw py::value_error(at + ": exceeds 2^32 - 1");
    if (stride < 0 || stride % itemsize != 0 || stride / itemsize > py::ssize_t{UINT32_MAX}) {
      throw py::value_error(field + ".strides[" + std::to_string(d) +
                            "]: " + std::to_string(stride) +
                            " bytes is no element stride vkscan takes (non-negative, a "
                            "multiple of the item size, below 2^32 elements)");
    }
    t.sizes.push_back(static_cast<uint32_t>(size));
    t.strides.push_back(static_cast<uint32_t>(stride / itemsize));
  }
  return t;
}

// "SUM", "PRODUCT", "MAXIMUM", "MINIMUM" or "LOG_SUM_EXP", as
// scanOperationName() spells them.
ScanOperation operationOf(const std::string& name) {
  for (ScanOperation operation :
       {ScanOperation::Sum, ScanOperation::Product, ScanOperation::Maximum, ScanOperation::Minimum,
        ScanOperation::LogSumExp}) {
    if (name == scanOperationName(operation)) return operation;
  }
  throw py::value_error("operation: '" + name +
                        "' is not SUM, PRODUCT, MAXIMUM, MINIMUM or LOG_SUM_EXP");
}

void scan(const Device& device, const py::array& a, py::array& out, int axis, bool reverse,
          bool exclusive, bool bfloat16, const std::string& operation, py::object indices) {
  if (!out.writeable()) throw py::value_error("out: is read-only");
  ScanDesc desc;
  desc.operation = operationOf(operation);
  desc.input = tensorOf(a, dataTypeOf(a.dtype(), "a", bfloat16), "a");
  // A bfloat16 scan may write float32 (a wider output).
  bool outBfloat16 = bfloat16 && out.dtype().kind() != 'f';
  desc.output = tensorOf(out, dataTypeOf(out.dtype(), "out", outBfloat16), "out");
  if (axis < 0) throw py::value_error("axis: " + std::to_string(axis) + " is negative");
  desc.axis = static_cast<uint32_t>(axis);
  desc.axisDirection = reverse ? AxisDirection::Decreasing : AxisDirection::Increasing;
  desc.exclusive = exclusive;
  py::array indexArray;
  if (!indices.is_none()) {
    indexArray = indices.cast<py::array>();
    if (!indexArray.writeable()) throw py::value_error("indices: is read-only");
    if (!indexArray.dtype().is(py::dtype::of<int64_t>())) {
      throw py::type_error("indices: dtype is not int64");
    }
    desc.indices = tensorOf(indexArray, DataType::Int64, "indices");
  }
  // run() takes one pointer for both only in place, with equal layouts.
  py::array source = a;
  if (a.data() == out.data() && desc.input.strides != desc.output.strides) {
    source = a.attr("copy")();
    desc.input = tensorOf(source, desc.input.dataType, "a");
  }
  const void* input = source.data();
  void* output = out.mutable_data();
  // `source` and the caller's references keep both buffers alive meanwhile.
  void* indexData = indices.is_none() ? nullptr : indexArray.mutable_data();
  py::gil_scoped_release release;
  run(device, desc, input, output, indexData);
}

}  // namespace

void bindScan(py::module_& m) {
  m.def("scan", &scan, py::arg("device"), py::arg("a"), py::arg("out"), py::arg("axis"),
        py::arg("reverse"), py::arg("exclusive"), py::arg("bfloat16") = false,
        py::arg("operation") = "SUM", py::arg("indices") = py::none(),
        "One run() from array a into array out (same shape; out of a's dtype or a wider "
        "one, vkscan::outputTypeWidens(); strides passed "
        "as they are); bfloat16: both hold bfloat16 bits as 2-byte data; operation: "
        "SUM, PRODUCT, MAXIMUM, MINIMUM or LOG_SUM_EXP; indices: an int64 array of out's "
        "shape and strides for a MAXIMUM's or MINIMUM's indices. Use vkscan.cumsum and the "
        "others, which "
        "apply numpy's rules.");
}

}  // namespace vkscan::python
