// tdisc.catalog: the catalogue of src/catalog/catalogue.hpp — list, best, add (verified first,
// narrowed to the smallest ring, as tdisc catalog add), and the best-known ranks.
#include <pybind11/stl.h>

#include <filesystem>

#include "base/error.hpp"
#include "decomposition/native.hpp"
#include "python/src/bindings.hpp"
#include "src/catalog/best_known.hpp"
#include "src/catalog/catalogue.hpp"
#include "verifier/narrow.hpp"
#include "verifier/verify.hpp"

namespace tdisc::python {

namespace {

using namespace pybind11::literals;

CatalogueQuery query_of(const std::optional<std::string>& size, const std::optional<std::string>& ring, bool exact) {
  CatalogueQuery q;
  if (size) {
    q.format = parse_format(*size);
    if (!q.format) throw UsageError("size: \"" + *size + "\" is not a format like 4x4 or 2x3x4");
  }
  if (ring) {
    q.ring = parse_ring(*ring);
    if (!q.ring) throw UsageError("ring: \"" + *ring + "\" is not a ring (" + ring_list() + ")");
  }
  q.permutations = !exact;
  return q;
}

std::vector<CatalogueEntry> list(const std::string& dir, const std::optional<std::string>& size,
                                 const std::optional<std::string>& ring, bool exact) {
  return select(read_catalogue(dir), query_of(size, ring, exact));
}

std::optional<CatalogueEntry> best_of(const std::string& dir, const std::string& size, const std::optional<std::string>& ring,
                                      bool exact) {
  return best(read_catalogue(dir), query_of(size, ring, exact));
}

// tdisc catalog add's rules (src/cli/cmd_catalog_add.cpp): valid over the declared ring, narrowed,
// with a source and a licence; returns ("added" | "already there" | "dominated", path).
std::pair<std::string, std::string> add(const std::string& dir, Scheme s, bool if_better) {
  const Verdict v = verify(s, s.ring);
  if (!v.valid) throw InputError("not valid over " + std::string(ring_name(s.ring)) + ": " + v.why_not);
  s.ring = narrowed_ring(s);
  if (s.provenance.source.empty()) throw InputError("provenance has no source; give Scheme(…, source=…)");
  if (!s.provenance.extra.count("licence")) throw InputError("provenance has no licence; give Scheme(…, licence=…)");
  std::vector<CatalogueEntry> have;
  if (if_better && std::filesystem::is_directory(dir)) have = read_catalogue(dir);
  const FiledScheme f = file_in_catalogue(dir, s, if_better, have);
  const char* what = f.what == Filed::Added ? "added" : f.what == Filed::AlreadyThere ? "already there" : "dominated";
  return {what, f.path};
}

// {(n, m, p): (rank, source, date)} over one ring, from the per-ring table (rings.tsv).
py::dict best_known_ring(const std::string& path, const std::string& ring) {
  const std::optional<Ring> r = parse_ring(ring);
  if (!r) throw InputError("unknown ring \"" + ring + "\" (GF2, GF3, ZT, Z, Q)");
  py::dict out;
  for (const auto& [key, known] : read_known_table(path))
    if (key.second == *r)
      out[py::make_tuple(key.first.n, key.first.m, key.first.p)] = py::make_tuple(known.rank, known.source, known.date);
  return out;
}

py::dict best_known(const std::string& path) {
  py::dict out;
  for (const auto& [f, rank] : read_best_known(path)) out[py::make_tuple(f.n, f.m, f.p)] = rank;
  return out;
}

}  // namespace

void bind_catalog(py::module_& m) {
  py::class_<CatalogueEntry>(m, "CatalogueEntry", "one catalogued scheme file")
      .def_readonly("path", &CatalogueEntry::path)
      .def_readonly("relative", &CatalogueEntry::relative)
      .def_property_readonly("format", [](const CatalogueEntry& e) { return e.format.str(); })
      .def_property_readonly("size", [](const CatalogueEntry& e) { return py::make_tuple(e.format.n, e.format.m, e.format.p); })
      .def_readonly("rank", &CatalogueEntry::rank)
      .def_property_readonly("ring", [](const CatalogueEntry& e) { return std::string(ring_name(e.ring)); })
      .def_readonly("hash8", &CatalogueEntry::hash8)
      .def_readonly("name", &CatalogueEntry::name)
      .def_readonly("source", &CatalogueEntry::source)
      .def_readonly("licence", &CatalogueEntry::licence)
      .def("read", [](const CatalogueEntry& e) { return read_native(e.path); }, "the scheme itself")
      .def("__repr__", [](const CatalogueEntry& e) {
        return "<tdisc.CatalogueEntry " + e.format.str() + " rank " + std::to_string(e.rank) + " " +
               std::string(ring_name(e.ring)) + " " + e.relative + ">";
      });
  m.def("catalogue_list", &list, "dir"_a, "size"_a = py::none(), "ring"_a = py::none(), "exact"_a = false);
  m.def("catalogue_best", &best_of, "dir"_a, "size"_a, "ring"_a = py::none(), "exact"_a = false);
  m.def("catalogue_add", &add, "dir"_a, "scheme"_a, "if_better"_a = false, py::call_guard<py::gil_scoped_release>());
  m.def("best_known", &best_known, "path"_a);
  m.def("best_known_ring", &best_known_ring, "path"_a, "ring"_a);
}

}  // namespace tdisc::python
