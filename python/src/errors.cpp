// The CLI's errors as Python exceptions, with the CLI's messages (src/cli/guarded.cpp prints the
// same text after "tdisc: "): bad input → ValueError, the file system → OSError, a command line or
// keyword that cannot be obeyed → ValueError, a broken internal contract → RuntimeError.
#include <exception>

#include "base/error.hpp"
#include "python/src/bindings.hpp"

namespace tdisc::python {

void bind_errors(py::module_& m) {
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const IoError& e) {  // before InputError, its base
      PyErr_SetString(PyExc_OSError, e.located().c_str());
    } catch (const InputError& e) {
      PyErr_SetString(PyExc_ValueError, e.located().c_str());
    } catch (const UsageError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const ContractError& e) {
      PyErr_SetString(PyExc_RuntimeError, (std::string("internal error: ") + e.what()).c_str());
    }
  });
}

}  // namespace tdisc::python
