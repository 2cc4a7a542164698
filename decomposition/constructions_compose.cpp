// Constructions that build schemes from schemes: the classical algorithm, the Kronecker (tensor)
// product, the direct sum along a dimension (join), and restriction to sub-formats (split).
#include <algorithm>
#include <set>

#include "base/error.hpp"
#include "decomposition/constructions.hpp"
#include "decomposition/constructions_detail.hpp"

namespace tdisc {

Scheme classical_scheme(Format f) {
  Scheme s = Scheme::zeros(f, static_cast<int>(f.classical_rank()), Ring::ZT);
  int r = 0;
  for (int i = 0; i < f.n; ++i)
    for (int j = 0; j < f.m; ++j)
      for (int k = 0; k < f.p; ++k, ++r) {
        s.u(r, f.a_index(i, j)) = 1;
        s.v(r, f.b_index(j, k)) = 1;
        s.w(r, f.c_index(k, i)) = 1;
      }
  s.provenance = detail::derived_provenance("classical", {});
  s.provenance.source = "the classical algorithm for " + f.str() + " (one product a_ij·b_jk per term)";
  s.provenance.extra["licence"] = "public domain (mathematics)";
  return s;
}

namespace {

// Writes kron(X, Y) of X (r1×c1, row a of fa) and Y (r2×c2, row b of fb) into row `to` of out:
// entry [x1·r2+x2][y1·c2+y2] = X[x1][y1]·Y[x2][y2], flattened row-major.
void kron_row(CoeffMatrix& out, int to, const CoeffMatrix& fa, int a, int r1, int c1, const CoeffMatrix& fb,
              int b, int r2, int c2) {
  const int width = c1 * c2;
  for (int x1 = 0; x1 < r1; ++x1)
    for (int y1 = 0; y1 < c1; ++y1) {
      const Coeff& s = fa(a, x1 * c1 + y1);
      if (s.is_zero()) continue;
      for (int x2 = 0; x2 < r2; ++x2)
        for (int y2 = 0; y2 < c2; ++y2) {
          const Coeff& t = fb(b, x2 * c2 + y2);
          if (!t.is_zero()) out(to, (x1 * r2 + x2) * width + y1 * c2 + y2) = s * t;
        }
    }
}

}  // namespace

Scheme kronecker(const Scheme& a, const Scheme& b) {
  a.check_shape();
  b.check_shape();
  const Format &f = a.format, &g = b.format;
  Format fg{f.n * g.n, f.m * g.m, f.p * g.p};
  Scheme out = Scheme::zeros(fg, a.rank() * b.rank());
  for (int r = 0; r < a.rank(); ++r)
    for (int q = 0; q < b.rank(); ++q) {
      int t = r * b.rank() + q;
      kron_row(out.u, t, a.u, r, f.n, f.m, b.u, q, g.n, g.m);  // (nn')×(mm')
      kron_row(out.v, t, a.v, r, f.m, f.p, b.v, q, g.m, g.p);  // (mm')×(pp')
      kron_row(out.w, t, a.w, r, f.p, f.n, b.w, q, g.p, g.n);  // (pp')×(nn')
    }
  return detail::finish_derived(std::move(out), "kronecker", {&a, &b});
}

namespace {

// Copies a rows×cols factor (row `from` of src) into a bigger R×(rows2·cols2) factor at row `to`,
// shifted by (row_off, col_off).
void embed(CoeffMatrix& dst, int to, int cols2, const CoeffMatrix& src, int from, int rows, int cols,
           int row_off, int col_off) {
  for (int x = 0; x < rows; ++x)
    for (int y = 0; y < cols; ++y) dst(to, (x + row_off) * cols2 + y + col_off) = src(from, x * cols + y);
}

void embed_scheme(Scheme& out, const Scheme& s, int first_term, Axis axis, int off) {
  const Format &f = s.format, &g = out.format;
  int on = axis == Axis::N ? off : 0, om = axis == Axis::M ? off : 0, op = axis == Axis::P ? off : 0;
  for (int r = 0; r < s.rank(); ++r) {
    int t = first_term + r;
    embed(out.u, t, g.m, s.u, r, f.n, f.m, on, om);  // U: n×m inside N×M
    embed(out.v, t, g.p, s.v, r, f.m, f.p, om, op);  // V: m×p inside M×P
    embed(out.w, t, g.n, s.w, r, f.p, f.n, op, on);  // W: p×n inside P×N
  }
}

const char* axis_name(Axis a) { return a == Axis::N ? "n" : a == Axis::M ? "m" : "p"; }

int& dimension(Format& f, Axis a) { return a == Axis::N ? f.n : a == Axis::M ? f.m : f.p; }
int dimension(const Format& f, Axis a) { return a == Axis::N ? f.n : a == Axis::M ? f.m : f.p; }

}  // namespace

bool joinable(Format a, Format b, Axis axis) {
  if (axis == Axis::N) return a.m == b.m && a.p == b.p;
  if (axis == Axis::M) return a.n == b.n && a.p == b.p;
  return a.n == b.n && a.m == b.m;
}

Scheme join(const Scheme& a, const Scheme& b, Axis axis) {
  a.check_shape();
  b.check_shape();
  const Format &f = a.format, &g = b.format;
  TDISC_REQUIRE(joinable(f, g, axis), f.str() + " and " + g.str() + " cannot be joined along " + axis_name(axis));
  Format fg = f;
  dimension(fg, axis) += dimension(g, axis);
  Scheme out = Scheme::zeros(fg, a.rank() + b.rank());
  const int off = dimension(f, axis);
  embed_scheme(out, a, 0, axis, 0);
  embed_scheme(out, b, a.rank(), axis, off);
  return detail::finish_derived(std::move(out), "join", {&a, &b}, std::string("along ") + axis_name(axis));
}

namespace {

void require_distinct(const std::vector<int>& idx, int bound, const char* what) {
  std::set<int> seen(idx.begin(), idx.end());
  TDISC_REQUIRE(!idx.empty() && seen.size() == idx.size(), std::string(what) + " indices must be distinct and non-empty");
  TDISC_REQUIRE(*seen.begin() >= 0 && *seen.rbegin() < bound, std::string(what) + " index out of range");
}

std::vector<int> range(int from, int to) {
  std::vector<int> v;
  for (int x = from; x < to; ++x) v.push_back(x);
  return v;
}

}  // namespace

Scheme restrict_scheme(const Scheme& s, const std::vector<int>& I, const std::vector<int>& J,
                       const std::vector<int>& K) {
  s.check_shape();
  const Format& f = s.format;
  require_distinct(I, f.n, "row (i)");
  require_distinct(J, f.m, "inner (j)");
  require_distinct(K, f.p, "column (k)");
  const int n = static_cast<int>(I.size()), m = static_cast<int>(J.size()), p = static_cast<int>(K.size());
  Scheme out = Scheme::zeros({n, m, p}, s.rank());
  for (int r = 0; r < s.rank(); ++r) {
    for (int x = 0; x < n; ++x)
      for (int y = 0; y < m; ++y) out.u(r, x * m + y) = s.u(r, f.a_index(I[x], J[y]));
    for (int y = 0; y < m; ++y)
      for (int z = 0; z < p; ++z) out.v(r, y * p + z) = s.v(r, f.b_index(J[y], K[z]));
    for (int z = 0; z < p; ++z)
      for (int x = 0; x < n; ++x) out.w(r, z * n + x) = s.w(r, f.c_index(K[z], I[x]));
  }
  drop_zero_terms(out);
  const std::string what = "to " + out.format.str();
  return detail::finish_derived(std::move(out), "restrict", {&s}, what);
}

Scheme restrict_to(const Scheme& s, Format sub) {
  TDISC_REQUIRE(sub.n <= s.format.n && sub.m <= s.format.m && sub.p <= s.format.p,
                sub.str() + " is not inside " + s.format.str());
  return restrict_scheme(s, range(0, sub.n), range(0, sub.m), range(0, sub.p));
}

std::pair<Scheme, Scheme> split(const Scheme& s, Axis axis, int at) {
  const Format& f = s.format;
  const int d = dimension(f, axis);
  TDISC_REQUIRE(at > 0 && at < d, "split point must lie strictly inside the dimension");
  std::vector<int> I = range(0, f.n), J = range(0, f.m), K = range(0, f.p);
  std::vector<int>& cut = axis == Axis::N ? I : axis == Axis::M ? J : K;
  std::vector<int> low(cut.begin(), cut.begin() + at), high(cut.begin() + at, cut.end());
  cut = low;
  Scheme first = restrict_scheme(s, I, J, K);
  cut = high;
  Scheme second = restrict_scheme(s, I, J, K);
  return {std::move(first), std::move(second)};
}

}  // namespace tdisc
