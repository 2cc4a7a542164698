// Maple lists ".m" (flips solutions/, perminov schemes/results/): one term a line,
// {{{A rows}},{{B rows}},{{C rows}}}, trace form (the third matrix is W, p×n), inside one outer {…}.
#include <cctype>

#include "base/error.hpp"
#include "base/io.hpp"
#include "decomposition/formats/hints.hpp"
#include "decomposition/formats/readers.hpp"
#include "decomposition/scheme_limits.hpp"

namespace tdisc::fmt {

namespace {

// A brace tree: either a list of children or a leaf's text, with the line where it starts.
struct Node {
  std::vector<Node> items;
  std::string leaf;
  bool is_list = false;
  int line = 0;
};

struct BraceParser {
  const std::string& path;
  const std::string& s;
  size_t pos = 0;
  int line = 1;

  [[noreturn]] void fail(const std::string& what) const { throw InputError(path, line, what); }
  void skip() {  // white space and Maple '#' comments (tdisc export --no-verify writes one)
    for (;;) {
      while (pos < s.size() && std::isspace(static_cast<unsigned char>(s[pos]))) line += s[pos++] == '\n';
      if (pos >= s.size() || s[pos] != '#') return;
      while (pos < s.size() && s[pos] != '\n') ++pos;
    }
  }
  Node node(int depth = 1) {
    if (depth > kMaxNesting) fail("braces nested deeper than " + std::to_string(kMaxNesting) + " levels");
    skip();
    Node n;
    n.line = line;
    if (pos >= s.size()) fail("unexpected end of file (truncated?)");
    if (s[pos] != '{') {
      size_t start = pos;
      while (pos < s.size() && s[pos] != ',' && s[pos] != '}' && s[pos] != '{') line += s[pos++] == '\n';
      n.leaf = s.substr(start, pos - start);
      return n;
    }
    n.is_list = true;
    ++pos;
    skip();
    if (pos < s.size() && s[pos] == '}') {
      ++pos;
      return n;
    }
    for (;;) {
      n.items.push_back(node(depth + 1));
      skip();
      if (pos >= s.size()) fail("unexpected end of file inside { … } (truncated?)");
      if (s[pos] == '}') {
        ++pos;
        return n;
      }
      if (s[pos] != ',') fail(std::string("expected ',' or '}', found '") + s[pos] + "'");
      ++pos;
    }
  }
};

// A rows × cols matrix from {{…},{…}}; rows, cols fixed by the first term.
std::vector<Coeff> matrix(const std::string& path, const Node& n, int& rows, int& cols, const char* what) {
  if (!n.is_list || n.items.empty()) throw InputError(path, n.line, std::string(what) + " must be a list of rows");
  if (rows == 0) {
    rows = static_cast<int>(n.items.size());
    cols = n.items[0].is_list ? static_cast<int>(n.items[0].items.size()) : 0;
  }
  if (static_cast<int>(n.items.size()) != rows)
    throw InputError(path, n.line, std::string(what) + " has " + std::to_string(n.items.size()) + " rows, expected " +
                                       std::to_string(rows));
  std::vector<Coeff> out;
  for (const Node& row : n.items) {
    if (!row.is_list || static_cast<int>(row.items.size()) != cols)
      throw InputError(path, row.line, std::string(what) + ": every row must have " + std::to_string(cols) + " entries");
    for (const Node& x : row.items) {
      auto c = x.is_list ? std::nullopt : parse_maple_coeff(x.leaf);
      if (!c) throw InputError(path, x.line, std::string(what) + ": not a coefficient: '" + excerpt(x.leaf) + "'");
      out.push_back(*c);
    }
  }
  return out;
}

std::string maple_list_matrix(const CoeffMatrix& m, int r, int rows, int cols) {
  std::string out = "{";
  for (int x = 0; x < rows; ++x) {
    out += x ? ", {" : "{";
    for (int y = 0; y < cols; ++y) out += (y ? ", " : "") + maple_coeff_text(m(r, x * cols + y));
    out += "}";
  }
  return out + "}";
}

}  // namespace

std::string maple_coeff_text(const Coeff& c) {
  if (c.is_real()) return c.str();
  std::string im = c.im() == 1 ? "I" : c.im() == -1 ? "-I" : c.im().get_str() + "*I";
  if (sgn(c.re()) == 0) return im;
  return c.re().get_str() + (sgn(c.im()) > 0 ? "+" : "") + im;
}

std::optional<Coeff> parse_maple_coeff(std::string_view text) {
  std::string t;
  for (char ch : text)
    if (!std::isspace(static_cast<unsigned char>(ch))) t += ch;
  return Coeff::parse(t);
}

ImportedScheme read_maple(const std::string& path, const std::string& text, const ImportOptions& opt) {
  BraceParser p{path, text};
  Node top = p.node();
  p.skip();
  while (p.pos < text.size() && (text[p.pos] == ';' || text[p.pos] == ':')) ++p.pos, p.skip();
  if (p.pos < text.size()) p.fail("unexpected text after the list of terms");
  if (!top.is_list || top.items.empty()) throw InputError(path, top.line, "expected a list of terms {{A},{B},{C}}, …");
  int n = 0, m = 0, m2 = 0, pp = 0, p2 = 0, n2 = 0;
  ImportedScheme im;
  std::vector<std::vector<Coeff>> a, b, c;
  for (const Node& term : top.items) {
    if (!term.is_list || term.items.size() != 3)
      throw InputError(path, term.line, "a term is {{A rows}, {B rows}, {C rows}}: three matrices");
    a.push_back(matrix(path, term.items[0], n, m, "A"));
    b.push_back(matrix(path, term.items[1], m2, pp, "B"));
    c.push_back(matrix(path, term.items[2], p2, n2, "C (p×n)"));
    if (m2 != m || p2 != pp || n2 != n)
      throw InputError(path, term.line, "the matrices disagree: A is " + std::to_string(n) + "×" + std::to_string(m) +
                                            ", B " + std::to_string(m2) + "×" + std::to_string(pp) + ", C " +
                                            std::to_string(p2) + "×" + std::to_string(n2) + " (C is given p×n)");
    im.term_lines.push_back(term.line);
  }
  Format f{n, m, pp};
  check_scheme_size(path, top.line, f, static_cast<long>(a.size()));
  check_dims(path, top.line, f, chosen_dims(name_hints(path), opt));
  im.scheme = Scheme::zeros(f, static_cast<int>(a.size()));
  for (int r = 0; r < im.scheme.rank(); ++r) {
    for (int x = 0; x < f.a_size(); ++x) im.scheme.u(r, x) = a[r][x];
    for (int x = 0; x < f.b_size(); ++x) im.scheme.v(r, x) = b[r][x];
    for (int x = 0; x < f.c_size(); ++x) im.scheme.w(r, x) = c[r][x];
  }
  return im;
}

std::string write_maple(const Scheme& s) {
  const Format& f = s.format;
  std::string out = "{";
  for (int r = 0; r < s.rank(); ++r) {
    out += r ? ",\n " : "";
    out += "{" + maple_list_matrix(s.u, r, f.n, f.m) + ", " + maple_list_matrix(s.v, r, f.m, f.p) + ", " +
           maple_list_matrix(s.w, r, f.p, f.n) + "}";
  }
  return out + "}\n";
}

}  // namespace tdisc::fmt
