// The extension module _vkscan; the package vkscan (python/vkscan) wraps it.
#include "bindings.hpp"

PYBIND11_MODULE(_vkscan, m) {
  m.doc() = "vkscan's native layer; use the package vkscan instead.";
  vkscan::python::bindErrors(m);
  vkscan::python::bindDevices(m);
  vkscan::python::bindScan(m);
}
