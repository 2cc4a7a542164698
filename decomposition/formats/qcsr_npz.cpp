// Sparse rational schemes in numpy's .npz with format "fmmp.qcsr.v1" (khoruzhii/lita schemes/*.npz
// and the output of its scripts/lita*.py; AntoineTilloy/explicit-matmul-schemes seeds/explicit*.npz):
// for each factor x ∈ {u, v, w} one CSR matrix, R rows, x_indptr (int64, R+1), x_indices (int32,
// row-major entry), x_numerators / x_denominators (int64, denominators positive), and
// metadata_json {"tensor":[n,m,p], "rank":R, "coefficient_field":"Q", …}. U reads A (n×m) and V
// reads B (m×p) row-major; W writes C = AB (n×p) row-major, so entry i·p+k becomes w(r, k·n+i).
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "decomposition/formats/hints.hpp"
#include "decomposition/formats/npy.hpp"
#include "decomposition/formats/readers.hpp"
#include "decomposition/formats/zip.hpp"
#include "decomposition/json_input.hpp"
#include "decomposition/scheme_limits.hpp"

namespace tdisc::fmt {

namespace {

NdArray entry_array(const ZipArchive& zip, const std::string& path, const std::string& name) {
  const ZipEntry* e = zip.find(name + ".npy");
  if (!e) throw InputError(path, 0, "no array \"" + name + "\" in the archive (not an fmmp.qcsr.v1 scheme?)");
  std::string pickle;
  NdArray a = parse_npy(zip.read(*e), path, "entry " + e->name, pickle);
  if (a.kind == 'O') throw InputError(path, 0, "entry " + e->name + ": an object array, expected numbers or text");
  return a;
}

// The metadata's JSON text: a 0-d unicode array (UTF-32), ASCII expected.
std::string metadata_text(const NdArray& a, const std::string& path) {
  if (a.kind != 'U' || a.byte_order == '>') throw InputError(path, 0, "metadata_json: expected a little-endian unicode string");
  std::string out;
  for (size_t at = 0; at + 4 <= a.data.size(); at += 4) {
    uint32_t c = 0;
    for (int k = 3; k >= 0; --k) c = c << 8 | static_cast<unsigned char>(a.data[at + static_cast<size_t>(k)]);
    if (c == 0) break;
    if (c > 127) throw InputError(path, 0, "metadata_json: a non-ASCII character");
    out += static_cast<char>(c);
  }
  return out;
}

Format metadata_format(const nlohmann::json& meta, const std::string& path) {
  if (meta.value("format", std::string()) != "fmmp.qcsr.v1")
    throw InputError(path, 0, "metadata_json: format \"" + meta.value("format", std::string()) + "\", expected fmmp.qcsr.v1");
  const auto& t = meta.contains("tensor") ? meta["tensor"] : nlohmann::json();
  if (!t.is_array() || t.size() != 3 || !t[0].is_number_integer() || !t[1].is_number_integer() || !t[2].is_number_integer())
    throw InputError(path, 0, "metadata_json: \"tensor\" must be [n, m, p]");
  Format f{t[0].get<int>(), t[1].get<int>(), t[2].get<int>()};
  if (f.n < 1 || f.m < 1 || f.p < 1 || f.n > 64 || f.m > 64 || f.p > 64)
    throw InputError(path, 0, "metadata_json: dimensions " + f.str() + " out of range");
  return f;
}

long integer_at(const NdArray& a, long k, const std::string& path, const std::string& what) {
  if (a.kind != 'i' && a.kind != 'u') throw InputError(path, 0, what + ": expected an integer array");
  auto c = a.at_flat(k);
  if (!c || c->re().get_den() != 1 || !c->re().get_num().fits_slong_p())
    throw InputError(path, 0, what + ": entry " + std::to_string(k) + " is missing or too large");
  return c->re().get_num().get_si();
}

// Factor x as an R × width matrix; `column` maps the stored entry index to tdisc's column.
template <class Column>
CoeffMatrix factor(const ZipArchive& zip, const std::string& path, const std::string& x, long R, int width, Column column) {
  NdArray indptr = entry_array(zip, path, x + "_indptr"), indices = entry_array(zip, path, x + "_indices");
  NdArray num = entry_array(zip, path, x + "_numerators"), den = entry_array(zip, path, x + "_denominators");
  if (indptr.count() != R + 1) throw InputError(path, 0, x + "_indptr: expected " + std::to_string(R + 1) + " entries");
  const long nnz = indices.count();
  if (num.count() != nnz || den.count() != nnz)
    throw InputError(path, 0, x + ": indices, numerators and denominators differ in length");
  CoeffMatrix m = CoeffMatrix::Constant(R, width, Coeff(0));
  long prev = integer_at(indptr, 0, path, x + "_indptr");
  if (prev != 0) throw InputError(path, 0, x + "_indptr must start at 0");
  for (long r = 0; r < R; ++r) {
    long end = integer_at(indptr, r + 1, path, x + "_indptr");
    if (end < prev || end > nnz) throw InputError(path, 0, x + "_indptr: row " + std::to_string(r) + " out of order");
    for (long k = prev; k < end; ++k) {
      long at = integer_at(indices, k, path, x + "_indices"), d = integer_at(den, k, path, x + "_denominators");
      if (at < 0 || at >= width) throw InputError(path, 0, x + "_indices: entry " + std::to_string(at) + " outside 0.." + std::to_string(width - 1));
      if (d <= 0) throw InputError(path, 0, x + "_denominators: a denominator is not positive");
      m(r, column(static_cast<int>(at))) += Coeff(mpq_class(mpz_class(integer_at(num, k, path, x + "_numerators")), mpz_class(d)));
    }
    prev = end;
  }
  return m;
}

}  // namespace

ImportedScheme read_qcsr_npz(const std::string& path, const std::string& bytes, const ImportOptions& opt) {
  ZipArchive zip(path, bytes);
  const nlohmann::json meta = parse_json_input(metadata_text(entry_array(zip, path, "metadata_json"), path), path, "metadata_json");
  const Format f = metadata_format(meta, path);
  if (opt.dims) check_dims(path, 0, f, opt.dims);
  NdArray indptr = entry_array(zip, path, "u_indptr");
  const long R = indptr.count() - 1;
  if (R < 1) throw InputError(path, 0, "u_indptr: no terms");
  check_scheme_size(path, 0, f, R);
  if (meta.contains("rank") && meta["rank"].is_number_integer() && meta["rank"].get<long>() != R)
    throw InputError(path, 0, "metadata_json says rank " + std::to_string(meta["rank"].get<long>()) + ", the arrays hold " + std::to_string(R));
  ImportedScheme im;
  im.scheme = Scheme::zeros(f, 0);
  im.scheme.u = factor(zip, path, "u", R, f.a_size(), [](int at) { return at; });
  im.scheme.v = factor(zip, path, "v", R, f.b_size(), [](int at) { return at; });
  im.scheme.w = factor(zip, path, "w", R, f.c_size(), [&f](int at) { return (at % f.p) * f.n + at / f.p; });
  im.term_lines.assign(static_cast<size_t>(R), 0);
  if (meta.contains("construction") && meta["construction"].is_string())
    im.notes.push_back("construction: " + meta["construction"].get<std::string>());
  return im;
}

}  // namespace tdisc::fmt
