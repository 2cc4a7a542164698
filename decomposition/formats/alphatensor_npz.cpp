// AlphaTensor's factorizations_{r,f2}.npz (google-deepmind/alphatensor algorithms/): one entry per
// format "n,m,p"; either a plain array (3, dim, R) (square formats) or a pickled object array of
// three arrays u (nm×R), v (mp×R), w (pn×R). Columns are terms; trace form (W = Cᵀ).
#include <cctype>
#include <map>

#include "base/error.hpp"
#include "decomposition/formats/hints.hpp"
#include "decomposition/formats/npy.hpp"
#include "decomposition/formats/pickle.hpp"
#include "decomposition/formats/readers.hpp"
#include "decomposition/formats/zip.hpp"
#include "decomposition/scheme_limits.hpp"

namespace tdisc::fmt {

namespace {

// "345" → "3,4,5"; "3,4,5", "3x4x5" → "3,4,5".
std::string npz_key(const std::string& key) {
  std::string k;
  for (char c : key) k += (c == 'x' || c == ' ') ? ',' : c;
  bool digits = k.size() == 3;
  for (char c : k) digits = digits && std::isdigit(static_cast<unsigned char>(c));
  if (digits) k = std::string{k[0], ',', k[1], ',', k[2]};
  return k;
}

std::optional<Format> key_format(const std::string& key) { return parse_format(key); }

std::string keys_text(const std::vector<std::string>& keys) {
  std::string out;
  for (auto& k : keys) out += (out.empty() ? "" : " ") + k;
  return out;
}

// One factor (rows × R) from `a`, where element (x, r) sits at index(x, r). Entries repeat (0, ±1,
// ±½), so each distinct value is converted once.
template <class Index>
CoeffMatrix factor(const NdArray& a, int rows, long R, Index index, const std::string& path, const std::string& where) {
  CoeffMatrix m(R, rows);  // R × rows, term-major
  std::map<std::string, Coeff> seen;  // raw bytes → value
  for (long r = 0; r < R; ++r)
    for (int x = 0; x < rows; ++x) {
      long flat = a.flat_index(index(x, r));
      std::string raw = a.data.substr(static_cast<size_t>(flat) * static_cast<size_t>(a.item_size), static_cast<size_t>(a.item_size));
      auto it = seen.find(raw);
      if (it == seen.end()) {
        auto c = a.at_flat(flat);
        if (!c) throw InputError(path, 0, where + ": entry (" + std::to_string(x) + "," + std::to_string(r) +
                                              ") is not an exact small dyadic rational (corrupted float?)");
        it = seen.emplace(raw, *c).first;
      }
      m(r, x) = it->second;
    }
  return m;
}

}  // namespace

std::vector<std::string> alphatensor_keys(const std::string& path, const std::string& bytes) {
  ZipArchive zip(path, bytes);
  std::vector<std::string> keys;
  for (auto& e : zip.entries()) {
    std::string k = e.name;
    if (k.size() > 4 && k.compare(k.size() - 4, 4, ".npy") == 0) k.resize(k.size() - 4);
    keys.push_back(k);
  }
  return keys;
}

ImportedScheme read_alphatensor_npz(const std::string& path, const std::string& bytes, const ImportOptions& opt) {
  ZipArchive zip(path, bytes);
  std::vector<std::string> keys = alphatensor_keys(path, bytes);
  if (keys.empty()) throw InputError(path, 0, "the archive holds no arrays");
  if (opt.key.empty() && keys.size() > 1)
    throw InputError(path, 0, "this archive holds " + std::to_string(keys.size()) + " schemes: choose one with --key (" + keys_text(keys) + ")");
  std::string key = opt.key.empty() ? keys[0] : npz_key(opt.key);
  const ZipEntry* e = zip.find(key + ".npy");
  if (!e) throw InputError(path, 0, "no scheme with key \"" + opt.key + "\"; keys available: " + keys_text(keys));
  std::optional<Format> f = key_format(key);
  if (!f) throw InputError(path, 0, "cannot read the dimensions from the key \"" + key + "\"");
  if (opt.dims) check_dims(path, 0, *f, opt.dims);
  const std::string where = "entry " + e->name;
  std::string pickle;
  NdArray top = parse_npy(zip.read(*e), path, where, pickle);
  ImportedScheme im;
  im.scheme = Scheme::zeros(*f, 0);
  if (top.kind == 'O') {
    NdArray obj = unpickle_array(pickle, path, where);
    if (obj.objects.size() != 3) throw InputError(path, 0, where + ": expected an object array of three arrays u, v, w");
    const int rows[3] = {f->a_size(), f->b_size(), f->c_size()};
    const long R = obj.objects[0].shape.size() == 2 ? obj.objects[0].shape[1] : -1;
    check_scheme_size(path, 0, *f, R);
    CoeffMatrix* out[3] = {&im.scheme.u, &im.scheme.v, &im.scheme.w};
    for (int t = 0; t < 3; ++t) {
      const NdArray& a = obj.objects[static_cast<size_t>(t)];
      if (a.shape.size() != 2 || a.shape[0] != rows[t] || a.shape[1] != R)
        throw InputError(path, 0, where + ": factor " + std::to_string(t + 1) + " has the wrong shape for " + f->str() +
                                      " (expected " + std::to_string(rows[t]) + "×R) — wrong dimensions?");
      *out[t] = factor(a, rows[t], R, [](int x, long r) { return std::vector<long>{x, r}; }, path, where);
    }
  } else {
    const long dim = f->a_size();
    if (top.shape.size() != 3 || top.shape[0] != 3 || top.shape[1] != dim || f->b_size() != dim || f->c_size() != dim)
      throw InputError(path, 0, where + ": a plain array must have shape (3, nm, R) for a square format " + f->str());
    const long R = top.shape[2];
    check_scheme_size(path, 0, *f, R);
    CoeffMatrix* out[3] = {&im.scheme.u, &im.scheme.v, &im.scheme.w};
    for (long t = 0; t < 3; ++t)
      *out[t] = factor(top, static_cast<int>(dim), R, [t](int x, long r) { return std::vector<long>{t, x, r}; }, path, where);
  }
  im.term_lines.assign(static_cast<size_t>(im.scheme.rank()), 0);
  return im;
}

}  // namespace tdisc::fmt
