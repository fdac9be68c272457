// The parts of the extension module _vkscan, each bound by its own file; the
// pure-Python package vkscan builds numpy's rules on them.
#pragma once

#include <pybind11/pybind11.h>

namespace vkscan::python {

// Library exceptions -> ValueError, TypeError, RuntimeError (errors.cpp).
void bindErrors(pybind11::module_& m);
// Device, devices(), info() (devices.cpp).
void bindDevices(pybind11::module_& m);
// scan(): one run() over two numpy arrays (scan.cpp).
void bindScan(pybind11::module_& m);

}  // namespace vkscan::python
