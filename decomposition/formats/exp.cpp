// The Kauers–Moosbauer ".exp" format (jakobmoosbauer/flips solutions/): one term a line,
// "(a11+a14-2*a33)*(b11+b12)*(c13+c21)", trace form (cKI is the coefficient in C[I][K]).
// Quirks of real files: bare factors, "-(…*…*…)", a trailing "/3", more terms than the name says.
#include <regex>
#include <sstream>

#include "base/error.hpp"
#include "decomposition/formats/expr.hpp"
#include "decomposition/formats/hints.hpp"
#include "decomposition/formats/readers.hpp"
#include "decomposition/scheme_limits.hpp"

namespace tdisc::fmt {

namespace {

struct TermLine {
  std::string text;
  int line;
};

std::vector<TermLine> term_lines(const std::string& text) {
  std::vector<TermLine> out;
  std::istringstream in(text);
  std::string l;
  for (int line = 1; std::getline(in, l); ++line) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    size_t first = l.find_first_not_of(" \t");
    if (first == std::string::npos || l[first] == '#') continue;
    out.push_back({l, line});
  }
  return out;
}

// ⟨n,m,p⟩ from the largest indices used: a_ij (i ≤ n, j ≤ m), b_jk (k ≤ p), c_ki.
Format inferred_dims(const std::string& text) {
  Format f{1, 1, 1};
  std::regex var(R"(([abc])([1-9])([1-9]))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), var); it != std::sregex_iterator(); ++it) {
    char cls = (*it)[1].str()[0];
    int x = (*it)[2].str()[0] - '0', y = (*it)[3].str()[0] - '0';
    if (cls == 'a') f.n = std::max(f.n, x), f.m = std::max(f.m, y);
    if (cls == 'b') f.m = std::max(f.m, x), f.p = std::max(f.p, y);
    if (cls == 'c') f.p = std::max(f.p, x), f.n = std::max(f.n, y);
  }
  return f;
}

VarRef resolve_entry(std::string_view id, const Format& f) {
  auto bad = [&](const std::string& why) { return ExprError{0, why}; };
  if (id.size() != 3 || id[1] < '1' || id[1] > '9' || id[2] < '1' || id[2] > '9')
    throw bad("cannot read the variable '" + std::string(id) + "' (expected a11…, b11…, c11…)");
  int x = id[1] - '1', y = id[2] - '1';
  auto outside = [&](const char* what, int rows, int cols) {
    return bad(std::string(id) + " is outside " + what + " (" + std::to_string(rows) + "×" + std::to_string(cols) +
               ") of ⟨" + std::to_string(f.n) + "," + std::to_string(f.m) + "," + std::to_string(f.p) +
               "⟩ — wrong dimensions (file name or --dims)?");
  };
  switch (id[0]) {
    case 'a':
      if (x >= f.n || y >= f.m) throw outside("A", f.n, f.m);
      return {'a', f.a_index(x, y)};
    case 'b':
      if (x >= f.m || y >= f.p) throw outside("B", f.m, f.p);
      return {'b', f.b_index(x, y)};
    case 'c':  // c_ki: row k of W (p×n), the coefficient in C[i][k]
      if (x >= f.p || y >= f.n) throw outside("W", f.p, f.n);
      return {'c', f.c_index(x, y)};
    default:
      throw bad("unknown variable '" + std::string(id) + "'");
  }
}

}  // namespace

ImportedScheme read_exp(const std::string& path, const std::string& text, const ImportOptions& opt) {
  NameHints hints = name_hints(path);
  ImportedScheme im;
  std::optional<Format> dims = chosen_dims(hints, opt);
  if (!dims) {
    dims = inferred_dims(text);
    im.notes.push_back("no dimensions in the file name: inferred " + dims->str() + " from the indices used");
  }
  const Format f = *dims;
  std::vector<TermLine> lines = term_lines(text);
  if (lines.empty()) throw InputError(path, 1, "no terms: an .exp file has one term a line");
  check_scheme_size(path, lines[0].line, f, static_cast<long>(lines.size()));
  im.scheme = Scheme::zeros(f, static_cast<int>(lines.size()));
  Resolver resolve = [&](std::string_view id) { return resolve_entry(id, f); };
  for (size_t r = 0; r < lines.size(); ++r) {
    const int row = static_cast<int>(r);
    try {
      LinearProduct x = parse_linear_product(lines[r].text, resolve);
      for (char cls : {'a', 'b', 'c'})
        if (!x.has(cls)) throw ExprError{0, std::string("the term has no factor in ") + cls + " (a term is (A-form)*(B-form)*(C-form))"};
      // Whole-term signs and scalings ("-(…)", "…/3") go into the C factor.
      for (auto& [c, v] : x.take_scaled('c')) im.scheme.w(row, c) = v;
      for (auto& [c, v] : x.forms['a']) im.scheme.u(row, c) = v;
      for (auto& [c, v] : x.forms['b']) im.scheme.v(row, c) = v;
    } catch (const ExprError& e) {
      throw InputError(path, lines[r].line, e.what + " (column " + std::to_string(e.column + 1) + ")");
    }
    im.term_lines.push_back(lines[r].line);
  }
  if (hints.rank && *hints.rank != im.scheme.rank())
    im.notes.push_back("the file name says rank " + std::to_string(*hints.rank) + " but the file holds " +
                       std::to_string(im.scheme.rank()) + " terms; rank = " + std::to_string(im.scheme.rank()) +
                       " (the number of terms found)");
  return im;
}

std::string write_exp(const Scheme& s) {
  require_real(s, "exp");
  require_single_digits(s, "exp");
  const Format& f = s.format;
  auto a = [&](int x) { return entry_name('a', x / f.m, x % f.m, false); };
  auto b = [&](int x) { return entry_name('b', x / f.p, x % f.p, false); };
  auto c = [&](int x) { return entry_name('c', x / f.n, x % f.n, false); };  // W[k][i] → c_ki
  std::string out;
  for (int r = 0; r < s.rank(); ++r)
    out += "(" + linear_text(row_form(s.u, r), a, false) + ")*(" + linear_text(row_form(s.v, r), b, false) + ")*(" +
           linear_text(row_form(s.w, r), c, false) + ")\n";
  return out;
}

}  // namespace tdisc::fmt
