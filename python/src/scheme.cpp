// tdisc.Scheme: a scheme from or to NumPy arrays (python/src/coefficients.hpp), its files in every
// format the CLI knows (decomposition/formats), its statistics and the exact constructions.
#include <pybind11/stl.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/io.hpp"
#include "decomposition/constructions.hpp"
#include "decomposition/formats/formats.hpp"
#include "decomposition/native.hpp"
#include "generated/tdisc_version.hpp"
#include "python/src/bindings.hpp"
#include "python/src/coefficients.hpp"
#include "verifier/stats.hpp"

namespace tdisc::python {

namespace {

using namespace pybind11::literals;

// size="3x3", "2x3x4", (2, 3, 4).
Format format_of(py::handle size) {
  if (py::isinstance<py::str>(size)) {
    auto f = parse_format(size.cast<std::string>());
    if (!f) throw UsageError("size: \"" + size.cast<std::string>() + "\" is not a format (e.g. 3x3, 2x3x4); every dimension must be ≥ 1");
    return *f;
  }
  auto dims = size.cast<std::vector<int>>();
  if (dims.size() != 3 || dims[0] < 1 || dims[1] < 1 || dims[2] < 1)
    throw UsageError("size: give \"NxMxP\" or (n, m, p) with every dimension ≥ 1");
  return {dims[0], dims[1], dims[2]};
}

// The format the factors' shapes imply: 3-D arrays state it; widths n·m, m·p, p·n determine it too
// (n² = (n·m)(p·n)/(m·p)).
std::optional<Format> implied_format(const Factor& u, const Factor& v, const Factor& w) {
  if (u.dims && v.dims) return Format{u.dims->first, u.dims->second, v.dims->second};
  const long a = u.matrix.cols(), b = v.matrix.cols(), c = w.matrix.cols();
  if ((a * c) % b != 0) return std::nullopt;
  const long n = std::lround(std::sqrt(static_cast<double>(a * c / b)));
  if (n < 1 || a % n != 0 || c % n != 0) return std::nullopt;
  const Format f{static_cast<int>(n), static_cast<int>(a / n), static_cast<int>(c / n)};
  if (f.a_size() != a || f.b_size() != b || f.c_size() != c) return std::nullopt;
  return f;
}

void check_factor(const Factor& f, const char* name, int rows, int cols, long terms) {
  if (f.matrix.rows() != terms)
    throw InputError(std::string(name) + ": " + std::to_string(f.matrix.rows()) + " terms, but U has " + std::to_string(terms));
  if (f.matrix.cols() != static_cast<long>(rows) * cols)
    throw InputError(std::string(name) + ": terms of " + std::to_string(f.matrix.cols()) + " coefficients; this format needs " +
                     std::to_string(rows) + "×" + std::to_string(cols) + " = " + std::to_string(rows * cols));
  if (f.dims && (f.dims->first != rows || f.dims->second != cols))
    throw InputError(std::string(name) + ": terms of " + std::to_string(f.dims->first) + "×" + std::to_string(f.dims->second) +
                     "; this format needs " + std::to_string(rows) + "×" + std::to_string(cols));
}

Ring ring_named(const std::string& text) {
  auto r = parse_ring(text);
  if (!r) throw UsageError("ring: \"" + text + "\" is not a ring (" + ring_list() + ")");
  return *r;
}

void set_ring(Scheme& s, const std::string& text) {
  const Ring r = ring_named(text);
  if (!ring_holds(r, s))
    throw InputError("ring: " + std::string(ring_name(r)) + " cannot hold every coefficient (they need " +
                     std::string(ring_name(coefficient_ring(s))) + ")");
  s.ring = r;
}

Scheme make_scheme(py::handle u, py::handle v, py::handle w, py::handle size, std::optional<std::string> ring,
                   const std::string& source, const std::string& licence, const std::string& name) {
  Factor fu = factor_from_array(u, "U"), fv = factor_from_array(v, "V"), fw = factor_from_array(w, "W");
  std::optional<Format> f = size.is_none() ? implied_format(fu, fv, fw) : format_of(size);
  if (!f)
    throw InputError("cannot tell the format from terms of " + std::to_string(fu.matrix.cols()) + ", " +
                     std::to_string(fv.matrix.cols()) + " and " + std::to_string(fw.matrix.cols()) +
                     " coefficients; give size=\"NxMxP\"");
  const long terms = fu.matrix.rows();
  check_factor(fu, "U", f->n, f->m, terms);
  check_factor(fv, "V", f->m, f->p, terms);
  check_factor(fw, "W", f->p, f->n, terms);
  Scheme s{*f, Ring::Q, std::move(fu.matrix), std::move(fv.matrix), std::move(fw.matrix), {}};
  s.ring = coefficient_ring(s);
  if (ring) set_ring(s, *ring);
  s.provenance.tool = TDISC_TOOL;
  s.provenance.method = "python";
  s.provenance.created = utc_now();
  s.provenance.source = source;
  if (!licence.empty()) s.provenance.extra["licence"] = licence;
  if (!name.empty()) s.provenance.extra["name"] = name;
  return s;
}

py::object provenance_dict(const Scheme& s) {
  return py::module_::import("json").attr("loads")(provenance_json(s.provenance).dump());
}

void set_provenance(Scheme& s, py::handle d) {
  const std::string text = py::module_::import("json").attr("dumps")(d).cast<std::string>();
  s.provenance = provenance_from_json(nlohmann::json::parse(text));
}

Scheme read_scheme(const std::string& path, const std::string& format, const std::string& key, py::handle dims) {
  if (format == "native") return read_native(path);
  ImportOptions opt;
  opt.key = key;
  if (!dims.is_none()) opt.dims = format_of(dims);
  return import_scheme(format, path, opt);
}

void write_scheme(const Scheme& s, const std::string& path, const std::string& format) {
  if (format == "native") return write_native(path, s);
  write_file_atomic(path, export_scheme(format, s));
}

py::dict stats_dict(const Scheme& s) {
  const SchemeStats st = scheme_stats(s);
  return py::dict("rank"_a = st.rank, "nnz_u"_a = st.nnz_u, "nnz_v"_a = st.nnz_v, "nnz_w"_a = st.nnz_w,
                  "additions"_a = st.additions, "stability"_a = st.stability);
}

std::string repr(const Scheme& s) {
  return "<tdisc.Scheme " + s.format.str() + " rank " + std::to_string(s.rank()) + " over " + std::string(ring_name(s.ring)) + ">";
}

}  // namespace

void bind_scheme(py::module_& m) {
  py::class_<Scheme>(m, "Scheme", "A rank-R scheme for ⟨n,m,p⟩ in trace form (DESIGN §1); see docs/python.md.")
      .def(py::init(&make_scheme), "u"_a, "v"_a, "w"_a, py::kw_only(), "size"_a = py::none(), "ring"_a = py::none(),
           "source"_a = "", "licence"_a = "", "name"_a = "",
           "U (R × n·m), V (R × m·p), W (R × p·n; W_r[k][i] at k·n+i), or R × rows × cols each. size: \"NxMxP\" "
           "(default: from the shapes); ring: the ring it is declared over (default: the smallest that holds the coefficients).")
      .def_property_readonly("format", [](const Scheme& s) { return s.format.str(); }, "\"3x3x3\"")
      .def_property_readonly("size", [](const Scheme& s) { return py::make_tuple(s.format.n, s.format.m, s.format.p); }, "(n, m, p)")
      .def_property_readonly("rank", &Scheme::rank)
      .def_property("ring", [](const Scheme& s) { return std::string(ring_name(s.ring)); }, &set_ring,
                    "the ring the scheme is declared over (set it to one that holds every coefficient)")
      .def_property_readonly("u", [](const Scheme& s) { return factor_to_array(s.u, "U", "auto"); }, "U, R × n·m")
      .def_property_readonly("v", [](const Scheme& s) { return factor_to_array(s.v, "V", "auto"); }, "V, R × m·p")
      .def_property_readonly("w", [](const Scheme& s) { return factor_to_array(s.w, "W", "auto"); }, "W, R × p·n")
      .def("to_numpy", [](const Scheme& s, const std::string& dtype) {
             return py::make_tuple(factor_to_array(s.u, "U", dtype), factor_to_array(s.v, "V", dtype), factor_to_array(s.w, "W", dtype));
           }, "dtype"_a = "auto", "(U, V, W) with dtype auto, int64, object, complex128 or str")
      .def_property("provenance", &provenance_dict, &set_provenance, "tool, method, seed, created, parent, source, licence, …")
      .def_property_readonly("sha256", &scheme_sha256)
      .def_property_readonly("hash8", &scheme_hash8)
      .def_property_readonly("file_name", &catalogue_file_name, "the catalogue's name for it: r23-ZT-1a2b3c4d.json")
      .def("stats", &stats_dict, "non-zeros, additions and the stability factor, as tdisc verify prints them")
      .def("to_text", [](const Scheme& s, const std::string& format) {
             return format == "native" ? native_text(s) : export_scheme(format, s);
           }, "format"_a = "native", "the file's text in an export format (tdisc.formats()['write'])")
      .def("to_latex", [](const Scheme& s) { return export_scheme("latex", s); })
      .def("write", &write_scheme, "path"_a, "format"_a = "native", "writes atomically (temporary name, then rename)")
      .def("rotate", &rotate, "⟨n,m,p⟩ → ⟨m,p,n⟩ with (U,V,W) → (V,W,U)")
      .def("transpose", &transpose, "⟨n,m,p⟩ → ⟨p,m,n⟩ with (U,V,W) → (Vᵀ,Uᵀ,Wᵀ)")
      .def("kron", &kronecker, "other"_a, "the Kronecker product ⟨nn',mm',pp';RR'⟩")
      .def("__eq__", [](const Scheme& a, const Scheme& b) {
             return a.format == b.format && a.ring == b.ring && a.rank() == b.rank() && a.u == b.u && a.v == b.v && a.w == b.w;
           })
      .def("__repr__", &repr);
  m.def("read", &read_scheme, "path"_a, "format"_a = "native", "key"_a = "", "dims"_a = py::none(),
        "reads a scheme file in any format tdisc import knows (not verified: see verify)");
  m.def("import_formats", &import_formats);
  m.def("export_formats", &export_formats);
  m.def("list_keys", &list_keys, "format"_a, "path"_a);
}

}  // namespace tdisc::python
