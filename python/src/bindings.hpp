// The pieces of the extension module tdisc._tdisc, one file each: exceptions, schemes and their
// arrays, verification, the catalogue, searches. Each binds C++ that lives elsewhere; none adds logic.
#pragma once
#include <pybind11/pybind11.h>

namespace tdisc::python {

namespace py = pybind11;

void bind_errors(py::module_& m);   // errors.cpp: InputError → ValueError, IoError → OSError, …
void bind_scheme(py::module_& m);   // scheme.cpp: Scheme, read, formats
void bind_verify(py::module_& m);   // verify.cpp: verify, classify, Verification
void bind_catalog(py::module_& m);  // catalog.cpp: catalogue_list, catalogue_best, catalogue_add
void bind_search(py::module_& m);   // search.cpp: search, SearchResult

}  // namespace tdisc::python
