// The format table: which reader and writer serve each format name, and what every import does
// afterwards (ring from the source or the coefficients, provenance with origin and licence).
#include "decomposition/formats/formats.hpp"

#include <algorithm>

#include "base/error.hpp"
#include "base/io.hpp"
#include "decomposition/formats/hints.hpp"
#include "decomposition/formats/readers.hpp"
#include "decomposition/native.hpp"
#include "decomposition/scheme_limits.hpp"
#include "generated/tdisc_version.hpp"

namespace tdisc {

namespace {

using Reader = ImportedScheme (*)(const std::string&, const std::string&, const ImportOptions&);

ImportedScheme read_native_format(const std::string& path, const std::string& text, const ImportOptions&) {
  ImportedScheme im;
  im.scheme = parse_native(text, path);
  im.declared = im.scheme.ring;
  im.term_lines = json_array_element_lines(text, "u");
  im.term_lines.resize(static_cast<size_t>(im.scheme.rank()), 0);
  return im;
}

struct FormatEntry {
  const char* name;
  Reader reader;                         // nullptr: export only
  std::string (*writer)(const Scheme&);  // nullptr: import only
};

const std::vector<FormatEntry>& table() {
  static const std::vector<FormatEntry> t = {
      {"native", read_native_format, native_text},
      {"alphatensor-npz", fmt::read_alphatensor_npz, nullptr},
      {"qcsr-npz", fmt::read_qcsr_npz, nullptr},
      {"cwschemes", fmt::read_cwschemes, nullptr},
      {"alphaevolve-ipynb", fmt::read_alphaevolve_ipynb, nullptr},
      {"exp", fmt::read_exp, fmt::write_exp},
      {"maple", fmt::read_maple, fmt::write_maple},
      {"fmm-mpl", fmt::read_fmm_mpl, fmt::write_fmm_mpl},
      {"perminov-json", fmt::read_perminov_json, fmt::write_perminov_json},
      {"fast-matmul", fmt::read_fast_matmul, fmt::write_fast_matmul},
      {"flip-cpd", fmt::read_flip_cpd, nullptr},
      {"latex", nullptr, fmt::write_latex},
      {"python", nullptr, fmt::write_python},
      {"slp", nullptr, fmt::write_slp},
  };
  return t;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

const FormatEntry& entry(const std::string& name, bool for_import) {
  for (const FormatEntry& e : table())
    if (name == e.name && (for_import ? e.reader != nullptr : e.writer != nullptr)) return e;
  throw UsageError("unknown " + std::string(for_import ? "import" : "export") + " format \"" + name +
                   "\" (known: " + joined(for_import ? import_formats() : export_formats()) + ")");
}

// Origin and licence of the public sources (tests/data/*/ORIGIN.md), recognised by the
// format and the shape of the file name.
std::string origin_of(const std::string& format, const std::string& path) {
  std::string name = fmt::base_name(path);
  auto has = [&](const char* s) { return name.find(s) != std::string::npos; };
  if (format == "alphatensor-npz" && has("factorizations_"))
    return "google-deepmind/alphatensor algorithms/ (data CC-BY-4.0)";
  if (format == "alphaevolve-ipynb" && has("mathematical_results"))
    return "google-deepmind/alphaevolve_results mathematical_results.ipynb (CC-BY-4.0)";
  if (format == "fmm-mpl" && has("_tensor.mpl"))
    return "FMM catalogue (Sedoglavic) Maple file, as mirrored in dronperminov/FastMatrixMultiplication schemes/known/tensor/";
  if ((format == "exp" || format == "maple") && (has("-mod0") || has("-mod2")))
    return "jakobmoosbauer/flips solutions/ (GPL-3), Kauers–Moosbauer flip graphs";
  if ((format == "perminov-json" || format == "maple") && has("_m") && (has("_ZT") || has("_Q") || has("_Z")))
    return "dronperminov/FastMatrixMultiplication schemes/results/";
  if (format == "fast-matmul")
    return "arbenson/fast-matmul codegen/algorithms/ (Sandia BSD-style licence), Benson–Ballard";
  if (format == "flip-cpd" && has("gg-")) return "khoruzhii/flip-cpd data/schemes_paper/ (MIT)";
  if (format == "cwschemes")
    return "AntoineTilloy/explicit-matmul-schemes schemes/ and src/cwschemes/data/objects/ (MIT)";
  if (format == "qcsr-npz" && has("explicit"))
    return "AntoineTilloy/explicit-matmul-schemes seeds/ (MIT)";
  if (format == "qcsr-npz")
    return "khoruzhii/lita schemes/ or scripts/lita*.py output (no licence stated: do not redistribute)";
  return "";
}

void finish_import(ImportedScheme& im, const std::string& format, const std::string& path,
                   const ImportOptions& opt) {
  Scheme& s = im.scheme;
  s.check_shape();
  if (s.rank() == 0) throw InputError(path, 0, "the file holds no terms");
  for (int r = 0; r < s.rank(); ++r)
    for (const CoeffMatrix* m : {&s.u, &s.v, &s.w})
      for (Eigen::Index c = 0; c < m->cols(); ++c)
        if (!coefficient_text_fits((*m)(r, c)))
          throw InputError(path, im.line_of_term(r), "term " + std::to_string(r + 1) + " has a coefficient of more than " +
                                                         std::to_string(kMaxCoefficientChars) + " characters");
  if (format != "native") {
    if (fmt::name_hints(path).mod2 && !im.declared) im.declared = Ring::GF2;
    s.ring = im.declared ? *im.declared : coefficient_ring(s);
    if (!ring_holds(s.ring, s))
      throw InputError(path, 0, "a coefficient cannot be held in " + std::string(ring_name(s.ring)) +
                                    ", the ring the source declares (the coefficients need " +
                                    std::string(ring_name(coefficient_ring(s))) + ")");
    Provenance p;
    p.tool = TDISC_TOOL;
    p.method = "import";
    p.created = utc_now();
    std::string origin = origin_of(format, path);
    p.source = path + (origin.empty() ? "" : " — " + origin);
    p.extra["import_format"] = format;
    if (!opt.key.empty()) p.extra["key"] = opt.key;
    s.provenance = p;
  }
  im.path = path;
}

}  // namespace

std::vector<std::string> import_formats() {
  std::vector<std::string> out;
  for (auto& e : table())
    if (e.reader) out.push_back(e.name);
  return out;
}

std::vector<std::string> export_formats() {
  std::vector<std::string> out;
  for (auto& e : table())
    if (e.writer) out.push_back(e.name);
  return out;
}

ImportedScheme import_from_bytes(const std::string& format, const std::string& path, const std::string& bytes,
                                 const ImportOptions& opt) {
  ImportedScheme im = entry(format, true).reader(path, bytes, opt);
  finish_import(im, format, path, opt);
  return im;
}

ImportedScheme import_located(const std::string& format, const std::string& path, const ImportOptions& opt) {
  entry(format, true);  // an unknown format is a usage error before any file is read
  return import_from_bytes(format, path, read_text_file(path), opt);
}

Scheme import_scheme(const std::string& format, const std::string& path, const ImportOptions& opt) {
  return import_located(format, path, opt).scheme;
}

std::string export_scheme(const std::string& format, const Scheme& s) {
  s.check_shape();
  return entry(format, false).writer(s);
}

std::vector<std::string> list_keys(const std::string& format, const std::string& path) {
  entry(format, true);
  if (format == "alphatensor-npz") return fmt::alphatensor_keys(path, read_text_file(path));
  if (format == "alphaevolve-ipynb") return fmt::alphaevolve_keys(path, read_text_file(path));
  return {};
}

namespace fmt {

void require_real(const Scheme& s, const std::string& format) {
  if (coefficient_ring(s) == Ring::QI)
    throw InputError(format + " cannot hold complex coefficients (this scheme needs QI); use native, "
                              "fmm-mpl, maple, latex, python or slp");
}

void require_single_digits(const Scheme& s, const std::string& format) {
  const Format& f = s.format;
  if (std::max({f.n, f.m, f.p}) > 9)
    throw InputError(format + " writes matrix indices as single digits; " + f.str() + " has a dimension above 9");
}

}  // namespace fmt

}  // namespace tdisc
