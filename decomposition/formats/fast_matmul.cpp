// Benson–Ballard fast-matmul algorithm files (arbenson/fast-matmul codegen/algorithms/): three
// blocks of rows separated by '#' lines — U (nm rows), V (mp rows), W (np rows) — one column per
// product. C orientation: W's row i·p+k is C[i][k], converted here to W_r[k][i].
#include <cctype>
#include <cmath>
#include <sstream>

#include "base/error.hpp"
#include "decomposition/formats/hints.hpp"
#include "decomposition/formats/readers.hpp"
#include "decomposition/scheme_limits.hpp"

namespace tdisc::fmt {

namespace {

struct Row {
  std::vector<Coeff> values;
  int line;
};

[[noreturn]] void refuse_approximate(const std::string& path, int line, const std::string& token) {
  throw InputError(path, line,
                   "entry '" + token + "' is symbolic: this is an approximate (border-rank) scheme, "
                   "exact only in the limit x = ε → 0 (Bini et al.); tdisc imports exact schemes only");
}

Coeff entry(const std::string& path, int line, const std::string& token) {
  for (char ch : token)
    if (std::isalpha(static_cast<unsigned char>(ch))) refuse_approximate(path, line, token);
  auto c = Coeff::parse(token);
  if (!c) throw InputError(path, line, "not a coefficient: '" + token + "'");
  return *c;
}

std::vector<std::vector<Row>> blocks(const std::string& path, const std::string& text) {
  std::vector<std::vector<Row>> out(1);
  std::istringstream in(text);
  std::string l;
  for (int line = 1; std::getline(in, l); ++line) {
    size_t first = l.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    if (l[first] == '#') {  // a separator after a block, a comment before any row
      if (!out.back().empty()) out.emplace_back();
      continue;
    }
    std::istringstream tokens(l);
    Row row{{}, line};
    for (std::string t; tokens >> t;) row.values.push_back(entry(path, line, t));
    out.back().push_back(std::move(row));
  }
  if (out.back().empty()) out.pop_back();
  return out;
}

// ⟨n,m,p⟩ from the row counts nm, mp, np: nmp = √(nm·mp·np).
std::optional<Format> dims_from_rows(long a, long b, long c) {
  long prod = a * b * c;
  long root = std::lround(std::sqrt(static_cast<double>(prod)));
  if (root <= 0 || root * root != prod || root % a || root % b || root % c) return std::nullopt;
  return Format{static_cast<int>(root / b), static_cast<int>(root / c), static_cast<int>(root / a)};
}

std::string number(const Coeff& c) {
  // Decimals where exact (fast-matmul's tools read floats), else p/q.
  mpz_class d = c.re().get_den(), two = 2, five = 5;
  while (d % 2 == 0) d /= two;
  while (d % 5 == 0) d /= five;
  if (d != 1) return c.str();
  mpz_class num = c.re().get_num(), den = c.re().get_den(), scale = 1;
  int digits = 0;
  while (scale % den != 0) scale *= 10, ++digits;
  mpz_class scaled = num * (scale / den);
  if (digits == 0) return scaled.get_str();
  std::string s = mpz_class(abs(scaled)).get_str();
  while (static_cast<int>(s.size()) <= digits) s = "0" + s;
  return std::string(sgn(scaled) < 0 ? "-" : "") + s.substr(0, s.size() - digits) + "." + s.substr(s.size() - digits);
}

}  // namespace

ImportedScheme read_fast_matmul(const std::string& path, const std::string& text, const ImportOptions& opt) {
  auto bl = blocks(path, text);
  if (bl.size() != 3)
    throw InputError(path, 0, "expected three blocks of rows (U, V, W) separated by '#' lines, found " +
                                  std::to_string(bl.size()) + " (truncated?)");
  const size_t R = bl[0][0].values.size();
  for (auto& block : bl)
    for (auto& row : block)
      if (row.values.size() != R)
        throw InputError(path, row.line, "row has " + std::to_string(row.values.size()) + " entries, expected " +
                                             std::to_string(R) + " (one per product; truncated?)");
  auto from_rows = dims_from_rows(static_cast<long>(bl[0].size()), static_cast<long>(bl[1].size()), static_cast<long>(bl[2].size()));
  std::optional<Format> stated = chosen_dims(name_hints(path), opt);
  Format f;
  if (stated) f = *stated;
  else if (from_rows) f = *from_rows;
  else throw InputError(path, 0, "cannot tell the dimensions: give --dims n,m,p");
  auto expect_rows = [&](const std::vector<Row>& block, int rows, const char* what) {
    if (static_cast<int>(block.size()) != rows)
      throw InputError(path, block.back().line, std::string(what) + " has " + std::to_string(block.size()) +
                                                    " rows but " + f.str() + " needs " + std::to_string(rows) +
                                                    " — wrong dimensions (file name or --dims) or truncated file");
  };
  expect_rows(bl[0], f.a_size(), "the U block");
  expect_rows(bl[1], f.b_size(), "the V block");
  expect_rows(bl[2], f.n * f.p, "the W block");
  ImportedScheme im;
  check_scheme_size(path, 0, f, static_cast<long>(R));
  im.scheme = Scheme::zeros(f, static_cast<int>(R));
  for (size_t r = 0; r < R; ++r) {
    const int t = static_cast<int>(r);
    for (int x = 0; x < f.a_size(); ++x) im.scheme.u(t, x) = bl[0][x].values[r];
    for (int x = 0; x < f.b_size(); ++x) im.scheme.v(t, x) = bl[1][x].values[r];
    for (int i = 0; i < f.n; ++i)
      for (int k = 0; k < f.p; ++k) im.scheme.w(t, f.c_index(k, i)) = bl[2][i * f.p + k].values[r];
    im.term_lines.push_back(0);  // a product is a column, not a line
  }
  return im;
}

std::string write_fast_matmul(const Scheme& s) {
  require_real(s, "fast-matmul");
  const Format& f = s.format;
  std::string out = "# " + f.str() + " rank " + std::to_string(s.rank()) + " (file name: " + f.digits() + "-" +
                    std::to_string(s.rank()) + "-NNZ, m k n order), written by tdisc\n";
  auto row = [&](auto&& value) {
    for (int r = 0; r < s.rank(); ++r) out += (r ? " " : "") + number(value(r));
    out += "\n";
  };
  for (int x = 0; x < f.a_size(); ++x) row([&](int r) { return s.u(r, x); });
  out += "#\n";
  for (int x = 0; x < f.b_size(); ++x) row([&](int r) { return s.v(r, x); });
  out += "#\n";
  for (int i = 0; i < f.n; ++i)
    for (int k = 0; k < f.p; ++k) row([&](int r) { return s.w(r, f.c_index(k, i)); });
  return out;
}

}  // namespace tdisc::fmt
