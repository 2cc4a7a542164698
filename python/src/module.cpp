// tdisc._tdisc: the extension module behind the Python package tdisc (python/tdisc/__init__.py).
#include "generated/tdisc_version.hpp"
#include "python/src/bindings.hpp"

PYBIND11_MODULE(_tdisc, m) {
  m.doc() = "tdisc's C++ libraries (decomposition, verifier, search); use the package tdisc, not this module";
  m.attr("TOOL") = TDISC_TOOL;
  tdisc::python::bind_errors(m);
  tdisc::python::bind_scheme(m);
  tdisc::python::bind_verify(m);
  tdisc::python::bind_catalog(m);
  tdisc::python::bind_search(m);
}
