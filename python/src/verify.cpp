// tdisc.verify: the exact verifier (verifier/verify.hpp) with tdisc verify's verdict text, so a
// failure names the first failing Brent equation in the same words.
#include <pybind11/stl.h>

#include "base/error.hpp"
#include "python/src/bindings.hpp"
#include "verifier/verify.hpp"

namespace tdisc::python {

namespace {

using namespace pybind11::literals;

// What tdisc verify says of one scheme (src/cli/cmd_verify.cpp): the verdict line and its parts.
struct Verification {
  bool valid = false;
  std::optional<std::string> ring;  // the ring checked (with "auto": the smallest it is valid over)
  std::string verdict;              // "valid over ZT", "INVALID over Z: Brent equation …", "valid mod 2 only"
  std::string why_not;
  std::optional<BrentFailure> failure;
  long equations = 0;
};

Verification over_ring(const Scheme& s, Ring over) {
  const Verdict v = verify(s, over);
  const std::string name(ring_name(over));
  return {v.valid, name, v.valid ? "valid over " + name : "INVALID over " + name + ": " + v.why_not, v.why_not, v.failure,
          v.equations};
}

Verification any_ring(const Scheme& s) {
  const RingReport rr = classify(s);
  Verification out;
  out.valid = rr.best().has_value();
  if (out.valid) out.ring = std::string(ring_name(*rr.best()));
  out.verdict = rr.describe();
  const long a = s.format.a_size(), b = s.format.b_size(), c = s.format.c_size();
  out.equations = a * b * c;
  return out;
}

// ring: None → the ring the scheme declares (tdisc verify's default), "auto" → every ring at once.
Verification verify_scheme(const Scheme& s, const std::optional<std::string>& ring) {
  if (ring && *ring == "auto") return any_ring(s);
  if (!ring) return over_ring(s, s.ring);
  auto r = parse_ring(*ring);
  if (!r) throw UsageError("ring: \"" + *ring + "\" is not a ring (" + ring_list() + ", or auto)");
  return over_ring(s, *r);
}

}  // namespace

void bind_verify(py::module_& m) {
  py::class_<BrentFailure>(m, "BrentFailure", "the first Brent equation that does not hold")
      .def_property_readonly("equation", [](const BrentFailure& f) {
        return py::make_tuple(py::make_tuple(f.i, f.j), py::make_tuple(f.j2, f.k), py::make_tuple(f.k2, f.i2));
      }, "((i, j), (j', k), (k', i')): the coefficient of a_ij ⊗ b_j'k ⊗ c_k'i', 0-based")
      .def_readonly("expected", &BrentFailure::expected)
      .def_readonly("got", &BrentFailure::got)
      .def_readonly("terms", &BrentFailure::terms, "0-based terms that contribute to it")
      .def_readonly("failing_equations", &BrentFailure::failing_equations)
      .def("__str__", &BrentFailure::describe)
      .def("__repr__", [](const BrentFailure& f) { return "<tdisc.BrentFailure " + f.describe() + ">"; });
  py::class_<Verification>(m, "Verification", "tdisc verify's verdict on one scheme; true when valid")
      .def_readonly("valid", &Verification::valid)
      .def_readonly("ring", &Verification::ring)
      .def_readonly("verdict", &Verification::verdict, "the words of tdisc verify")
      .def_readonly("why_not", &Verification::why_not)
      .def_readonly("failure", &Verification::failure)
      .def_readonly("equations", &Verification::equations)
      .def("__bool__", [](const Verification& v) { return v.valid; })
      .def("__str__", [](const Verification& v) { return v.verdict; })
      .def("__repr__", [](const Verification& v) { return "<tdisc.Verification " + v.verdict + ">"; });
  m.def("verify", &verify_scheme, "scheme"_a, "ring"_a = py::none(), py::call_guard<py::gil_scoped_release>(),
        "proves or refutes the scheme over ring (default: its declared ring; \"auto\": the smallest it is valid over)");
}

}  // namespace tdisc::python
