// The FMM catalogue's Maple files ("*_tensor.mpl"): Tensor:=TriadSet([Triad([Matrix(n,m,[[…]]),
// Matrix(m,p,[[…]]), Matrix(p,n,[[…]])]), …]) — trace form, C = Σ ⟨U,A⟩⟨V,B⟩·Wᵀ.
#include <cctype>
#include <cstring>

#include "base/error.hpp"
#include "base/io.hpp"
#include "base/limits.hpp"
#include "decomposition/formats/hints.hpp"
#include "decomposition/formats/readers.hpp"

namespace tdisc::fmt {

namespace {

struct MapleCursor {
  const std::string& path;
  const std::string& s;
  size_t pos = 0;

  // Lines counted incrementally: the reader asks at every term, and counting from the start each
  // time made reading quadratic in the file.
  mutable size_t counted_to = 0;
  mutable int counted_line = 1;
  int line() const {
    if (pos < counted_to) counted_to = 0, counted_line = 1;
    for (; counted_to < pos && counted_to < s.size(); ++counted_to) counted_line += s[counted_to] == '\n';
    return counted_line;
  }
  [[noreturn]] void fail(const std::string& what) const {
    if (pos >= s.size()) throw InputError(path, line(), "unexpected end of file (truncated?): " + what);
    throw InputError(path, line(), what);
  }
  void skip() {
    while (pos < s.size() && std::isspace(static_cast<unsigned char>(s[pos]))) ++pos;
  }
  bool at(const char* word) {
    skip();
    return s.compare(pos, std::strlen(word), word) == 0;
  }
  void expect(const char* word) {
    if (!at(word)) fail(std::string("expected '") + word + "'");
    pos += std::strlen(word);
  }
  int integer() {
    skip();
    size_t start = pos;
    while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos]))) ++pos;
    if (start == pos) fail("expected a dimension");
    auto d = parse_count(std::string_view(s).substr(start, pos - start), 64);
    if (!d) {
      pos = start;
      fail("a dimension must be 1..64");
    }
    return static_cast<int>(*d);
  }
  Coeff coefficient() {
    skip();
    size_t start = pos;
    while (pos < s.size() && s[pos] != ',' && s[pos] != ']') ++pos;
    auto c = parse_maple_coeff(std::string_view(s).substr(start, pos - start));
    if (!c) {
      pos = start;
      fail("not a coefficient: '" + excerpt(std::string_view(s).substr(start, s.find_first_of(",]", start) - start)) + "'");
    }
    return *c;
  }
  // Matrix(rows, cols, [[…],…]) → rows·cols coefficients, row-major.
  std::vector<Coeff> matrix(int rows, int cols, const char* what) {
    expect("Matrix");
    expect("(");
    int r = integer();
    expect(",");
    int c = integer();
    if (r != rows || c != cols)
      fail(std::string(what) + " is " + std::to_string(r) + "×" + std::to_string(c) + ", expected " +
           std::to_string(rows) + "×" + std::to_string(cols));
    expect(",");
    expect("[");
    std::vector<Coeff> out;
    for (int x = 0; x < rows; ++x) {
      if (x) expect(",");
      expect("[");
      for (int y = 0; y < cols; ++y) {
        if (y) expect(",");
        out.push_back(coefficient());
      }
      expect("]");
    }
    expect("]");
    expect(")");
    return out;
  }
  // Peeks at the dimensions of the next Matrix(…) without consuming it.
  std::pair<int, int> peek_dims() {
    size_t save = pos;
    expect("Matrix");
    expect("(");
    int r = integer();
    expect(",");
    int c = integer();
    pos = save;
    return {r, c};
  }
};

std::string mpl_matrix(const CoeffMatrix& m, int r, int rows, int cols) {
  std::string out = "Matrix(" + std::to_string(rows) + ", " + std::to_string(cols) + ", [";
  for (int x = 0; x < rows; ++x) {
    out += x ? ",[" : "[";
    for (int y = 0; y < cols; ++y) out += (y ? "," : "") + maple_coeff_text(m(r, x * cols + y));
    out += "]";
  }
  return out + "])";
}

std::string symbol_matrix(char name, int rows, int cols) {
  std::string out = std::string(1, name) + ":=Matrix(" + std::to_string(rows) + ", " + std::to_string(cols) + ", [";
  for (int x = 0; x < rows; ++x) {
    out += x ? ",[" : "[";
    for (int y = 0; y < cols; ++y)
      out += (y ? "," : "") + std::string(1, name) + "_" + std::to_string(x + 1) + "_" + std::to_string(y + 1);
    out += "]";
  }
  return out + "]):\n";
}

}  // namespace

ImportedScheme read_fmm_mpl(const std::string& path, const std::string& text, const ImportOptions& opt) {
  MapleCursor c{path, text};
  size_t at = text.find("TriadSet(");
  if (at == std::string::npos) throw InputError(path, 0, "no Tensor:=TriadSet([…]) in this file (not an FMM catalogue .mpl?)");
  c.pos = at + std::strlen("TriadSet(");
  c.expect("[");
  ImportedScheme im;
  std::vector<std::vector<Coeff>> a, b, w;
  Format f;
  while (!c.at("]")) {
    if (!a.empty()) c.expect(",");
    im.term_lines.push_back(c.line());
    c.expect("Triad");
    c.expect("(");
    c.expect("[");
    if (a.empty()) {
      auto [n, m] = c.peek_dims();
      f.n = n, f.m = m;
    }
    a.push_back(c.matrix(f.n, f.m, "the first matrix (A, n×m)"));
    c.expect(",");
    if (b.empty()) f.p = c.peek_dims().second;
    b.push_back(c.matrix(f.m, f.p, "the second matrix (B, m×p)"));
    c.expect(",");
    w.push_back(c.matrix(f.p, f.n, "the third matrix (W, p×n)"));
    c.expect("]");
    c.expect(")");
  }
  c.expect("]");
  c.expect(")");
  if (a.empty()) throw InputError(path, c.line(), "TriadSet is empty");
  check_dims(path, im.term_lines[0], f, chosen_dims(name_hints(path), opt));
  im.scheme = Scheme::zeros(f, static_cast<int>(a.size()));
  for (int r = 0; r < im.scheme.rank(); ++r) {
    for (int x = 0; x < f.a_size(); ++x) im.scheme.u(r, x) = a[r][x];
    for (int x = 0; x < f.b_size(); ++x) im.scheme.v(r, x) = b[r][x];
    for (int x = 0; x < f.c_size(); ++x) im.scheme.w(r, x) = w[r][x];
  }
  return im;
}

std::string write_fmm_mpl(const Scheme& s) {
  const Format& f = s.format;
  std::string out = symbol_matrix('A', f.n, f.m) + symbol_matrix('B', f.m, f.p) + symbol_matrix('C', f.n, f.p);
  out += "Tensor:=TriadSet([";
  for (int r = 0; r < s.rank(); ++r)
    out += std::string(r ? ",\n" : "") + "Triad([" + mpl_matrix(s.u, r, f.n, f.m) + ", " +
           mpl_matrix(s.v, r, f.m, f.p) + ", " + mpl_matrix(s.w, r, f.p, f.n) + "])";
  out += "]):\n";
  // The catalogue's own check: A.B − Σ ⟨U,A⟩⟨V,B⟩·Wᵀ expands to the zero matrix.
  out += "map(expand,A.B-add(LinearAlgebra:-Trace(LinearAlgebra:-Transpose(op([1,i,1,1],Tensor)).A)*"
         "LinearAlgebra:-Trace(LinearAlgebra:-Transpose(op([1,i,1,2],Tensor)).B)*"
         "LinearAlgebra:-Transpose(op([1,i,1,3],Tensor)),i=1.." + std::to_string(s.rank()) + "));\n";
  return out;
}

}  // namespace tdisc::fmt
