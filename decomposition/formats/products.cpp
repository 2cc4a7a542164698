// Straight-line schemes: products "mK = (A-form)(B-form)" and outputs "cIK = Σ coeff·mK". Shared by
// perminov's text form, flip-cpd and tdisc's slp; outputs index C[i][k], so W_r[k][i] is read from
// the line of c_ik (the conversion from C orientation to trace form happens here).
#include <cctype>
#include <set>

#include "base/error.hpp"
#include "decomposition/formats/expr.hpp"
#include "decomposition/formats/readers.hpp"
#include "decomposition/scheme_limits.hpp"

namespace tdisc::fmt {

namespace {

bool all_digits(std::string_view t) {
  if (t.empty()) return false;
  for (char c : t)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// The 1-based decimal d (no leading zero) as a 0-based index below `limit`; nullopt otherwise.
std::optional<int> one_index(std::string_view d, int limit) {
  if (!all_digits(d) || d[0] == '0') return std::nullopt;
  auto v = parse_count(d, 1 << 20);
  if (!v || *v < 1 || *v > limit) return std::nullopt;
  return static_cast<int>(*v) - 1;
}

// "12" → (0,1); "1_12" → (0,11); flat "5" → 4. Digits run together past 9 ("b110" of a 9×10 B,
// as Perminov's files write them) are read where exactly one split names an entry of the
// rows × cols matrix: (0,9) here. nullopt when malformed or when several splits fit.
std::optional<std::pair<int, int>> two_indices(std::string_view d, int rows, int cols) {
  if (auto u = d.find('_'); u != std::string_view::npos) {
    auto a = d.substr(0, u), b = d.substr(u + 1);
    auto i = parse_count(a, 1 << 20), j = parse_count(b, 1 << 20);
    if (!i || !j) return std::nullopt;
    return std::pair{static_cast<int>(*i) - 1, static_cast<int>(*j) - 1};
  }
  if (!all_digits(d) || d.size() < 2) return std::nullopt;
  if (d.size() == 2) return std::pair{d[0] - '1', d[1] - '1'};
  std::optional<std::pair<int, int>> found;
  for (size_t cut = 1; cut < d.size(); ++cut) {
    auto i = one_index(d.substr(0, cut), rows), j = one_index(d.substr(cut), cols);
    if (!i || !j) continue;
    if (found) return std::nullopt;  // ambiguous
    found = std::pair{*i, *j};
  }
  return found;
}

std::optional<int> flat_index(std::string_view d) {
  auto t = parse_count(d, 1 << 20);
  if (!t) return std::nullopt;
  return static_cast<int>(*t) - 1;
}

// Index of an entry of the n_rows × n_cols matrix named `letter`, row-major; throws ExprError.
int matrix_entry(std::string_view ident, char letter, int rows, int cols, bool flat) {
  std::string_view d = ident.substr(1);
  std::string shape = std::to_string(rows) + "×" + std::to_string(cols);
  if (flat) {
    auto t = flat_index(d);
    if (!t || *t < 0 || *t >= rows * cols)
      throw ExprError{0, std::string(ident) + " is outside " + char(std::toupper(letter)) + " (" + shape +
                             ", flat indices 1.." + std::to_string(rows * cols) + ")"};
    return *t;
  }
  auto ij = two_indices(d, rows, cols);
  if (!ij)
    throw ExprError{0, "cannot read the entry name '" + excerpt(ident) + "' as one entry of " +
                           char(std::toupper(letter)) + " (" + shape + "; write i_j where digits run together)"};
  if (ij->first < 0 || ij->first >= rows || ij->second < 0 || ij->second >= cols)
    throw ExprError{0, std::string(ident) + " is outside " + char(std::toupper(letter)) + " (" + shape + ")"};
  return ij->first * cols + ij->second;
}

[[noreturn]] void rethrow(const std::string& path, int line, const ExprError& e) {
  throw InputError(path, line, e.what + " (column " + std::to_string(e.column + 1) + ")");
}

}  // namespace

ImportedScheme scheme_from_products(const std::string& path, const ProductLines& lines, Format f, bool flat) {
  const int R = static_cast<int>(lines.products.size());
  ImportedScheme im;
  check_scheme_size(path, 0, f, R);
  im.scheme = Scheme::zeros(f, R);
  im.term_lines = lines.product_lines;
  Resolver ab = [&](std::string_view id) -> VarRef {
    if (id.size() >= 2 && id[0] == 'a') return {'a', matrix_entry(id, 'a', f.n, f.m, flat)};
    if (id.size() >= 2 && id[0] == 'b') return {'b', matrix_entry(id, 'b', f.m, f.p, flat)};
    throw ExprError{0, "a product may use only entries of A and B, not '" + std::string(id) + "'"};
  };
  for (int r = 0; r < R; ++r) {
    int line = lines.product_lines[static_cast<size_t>(r)];
    try {
      LinearProduct x = parse_linear_product(lines.products[static_cast<size_t>(r)], ab);
      if (!x.has('a') || !x.has('b')) throw ExprError{0, "a product needs a form in A times a form in B"};
      for (auto& [c, v] : x.take_scaled('a')) im.scheme.u(r, c) = v;
      for (auto& [c, v] : x.forms['b']) im.scheme.v(r, c) = v;
    } catch (const ExprError& e) {
      rethrow(path, line, e);
    }
  }
  Resolver m = [&](std::string_view id) -> VarRef {
    auto k = id.size() >= 2 && id[0] == 'm' ? flat_index(id.substr(1)) : std::nullopt;
    if (!k) throw ExprError{0, "an output may use only products m1..m" + std::to_string(R) + ", not '" + std::string(id) + "'"};
    if (*k < 0 || *k >= R) throw ExprError{0, std::string(id) + " is not defined (products are m1..m" + std::to_string(R) + ")"};
    return {'m', *k};
  };
  std::set<int> seen;
  for (size_t o = 0; o < lines.outputs.size(); ++o) {
    int line = lines.output_lines[o];
    const auto& [name, text] = lines.outputs[o];
    try {
      if (name.empty() || name[0] != 'c') throw ExprError{0, "an output is named c.., not '" + name + "'"};
      int t = matrix_entry(name, 'c', f.n, f.p, flat);  // i·p + k
      if (!seen.insert(t).second) throw ExprError{0, name + " is defined twice"};
      int i = t / f.p, k = t % f.p;
      LinearProduct x = parse_linear_product(text, m);
      if (x.forms.empty() && x.scale.is_zero()) continue;  // "c11 = 0"
      if (!x.has('m') || x.forms.size() != 1) throw ExprError{0, "an output is a sum of products mK"};
      for (auto& [r, v] : x.take_scaled('m')) im.scheme.w(r, f.c_index(k, i)) = v;
    } catch (const ExprError& e) {
      rethrow(path, line, e);
    }
  }
  return im;
}

std::vector<std::map<int, Coeff>> output_forms(const Scheme& s) {
  const Format& f = s.format;
  std::vector<std::map<int, Coeff>> out(static_cast<size_t>(f.n * f.p));
  for (int r = 0; r < s.rank(); ++r)
    for (int k = 0; k < f.p; ++k)
      for (int i = 0; i < f.n; ++i)
        if (const Coeff& c = s.w(r, f.c_index(k, i)); !c.is_zero()) out[static_cast<size_t>(i * f.p + k)][r] = c;
  return out;
}

std::map<int, Coeff> row_form(const CoeffMatrix& m, int r) {
  std::map<int, Coeff> out;
  for (int c = 0; c < m.cols(); ++c)
    if (!m(r, c).is_zero()) out[c] = m(r, c);
  return out;
}

void check_dims(const std::string& path, int line, const Format& found, const std::optional<Format>& stated) {
  if (stated && *stated != found)
    throw InputError(path, line, "wrong dimensions: the file holds " + found.str() + " but the file name or --dims says " +
                                     stated->str());
}

}  // namespace tdisc::fmt
