// Library exceptions become Python's own, with the library's message (which
// names the field at fault), so callers catch them as they would numpy's.
#include <vkscan/vkscan.hpp>

#include "bindings.hpp"

namespace vkscan::python {

void bindErrors(pybind11::module_& m) {
  (void)m;
  pybind11::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InvalidArgument& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const Unsupported& e) {
      // note: the package refuses types the device lacks (TypeError) before
      // calling; what reaches here is a size or device the library cannot do.
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const Error& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });
}

}  // namespace vkscan::python
