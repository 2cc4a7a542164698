// The symmetries of the matmul tensor acting on schemes: cyclic rotation, transpose, and de Groote's
// sandwich action (H. F. de Groote, "On varieties of optimal algorithms…", 1978), all exact.
#include <algorithm>
#include <random>

#include "base/error.hpp"
#include "decomposition/constructions.hpp"
#include "decomposition/constructions_detail.hpp"
#include "decomposition/exact_solve.hpp"
#include "decomposition/symmetry.hpp"

namespace tdisc {

CoeffMatrix term_matrix(const CoeffMatrix& factor, int r, int rows, int cols) {
  TDISC_REQUIRE(factor.cols() == static_cast<Eigen::Index>(rows) * cols, "shape disagrees with the factor width");
  CoeffMatrix m(rows, cols);  // rows × cols, from the row-major flattening
  for (int x = 0; x < rows; ++x)
    for (int y = 0; y < cols; ++y) m(x, y) = factor(r, x * cols + y);
  return m;
}

void set_term_matrix(CoeffMatrix& factor, int r, const CoeffMatrix& m) {
  TDISC_REQUIRE(factor.cols() == m.rows() * m.cols(), "shape disagrees with the factor width");
  for (Eigen::Index x = 0; x < m.rows(); ++x)
    for (Eigen::Index y = 0; y < m.cols(); ++y) factor(r, x * m.cols() + y) = m(x, y);
}

namespace {

// Each term's factor (rows×cols, flattened) transposed: cols×rows, flattened.
CoeffMatrix transposed_terms(const CoeffMatrix& factor, int rows, int cols) {
  CoeffMatrix out(factor.rows(), factor.cols());  // R × (cols·rows)
  for (Eigen::Index r = 0; r < factor.rows(); ++r)
    for (int x = 0; x < rows; ++x)
      for (int y = 0; y < cols; ++y) out(r, y * rows + x) = factor(r, x * cols + y);
  return out;
}

}  // namespace

Scheme rotate(const Scheme& s) {
  s.check_shape();
  Scheme out;
  out.format = {s.format.m, s.format.p, s.format.n};
  out.u = s.v;  // R × (m·p): the new A is m×p
  out.v = s.w;  // R × (p·n)
  out.w = s.u;  // R × (n·m): the new W is n×m, entry [i][j] at i·m+j
  return detail::finish_derived(std::move(out), "rotate", {&s});
}

Scheme transpose(const Scheme& s) {
  s.check_shape();
  const Format& f = s.format;
  Scheme out;
  out.format = {f.p, f.m, f.n};
  out.u = transposed_terms(s.v, f.m, f.p);  // Vᵀ: p×m
  out.v = transposed_terms(s.u, f.n, f.m);  // Uᵀ: m×n
  out.w = transposed_terms(s.w, f.p, f.n);  // Wᵀ: n×p
  return detail::finish_derived(std::move(out), "transpose", {&s});
}

Scheme permute_to(const Scheme& s, Format target) {
  for (int flip = 0; flip < 2; ++flip) {
    Scheme t = flip ? transpose(s) : s;
    for (int turn = 0; turn < 3; ++turn) {
      if (t.format == target) {
        if (flip == 0 && turn == 0) return s;
        t.provenance = detail::derived_provenance("permute", {&s}, "to " + target.str());
        return t;
      }
      t = rotate(t);
    }
  }
  throw ContractError("permute_to: " + target.str() + " is not a permutation of " + s.format.str());
}

std::optional<CoeffMatrix> inverse(const CoeffMatrix& m) {
  TDISC_REQUIRE(m.rows() == m.cols(), "only square matrices have inverses");
  const Eigen::Index d = m.rows();
  CoeffMatrix identity = CoeffMatrix::Constant(d, d, Coeff(0));
  for (Eigen::Index x = 0; x < d; ++x) identity(x, x) = 1;
  ExactSolution sol = solve_exact(m, identity, identity);  // M·X = I; `preferred` unused at full rank
  if (!sol.x || sol.rank < d) return std::nullopt;
  return sol.x;
}

CoeffMatrix random_unimodular(int d, std::uint64_t seed) {
  TDISC_REQUIRE(d >= 1, "dimension must be positive");
  std::mt19937_64 rng(seed);
  CoeffMatrix g = CoeffMatrix::Constant(d, d, Coeff(0));
  for (int x = 0; x < d; ++x) g(x, x) = (rng() & 1) ? 1 : -1;
  if (d == 1) return g;
  std::uniform_int_distribution<int> pick(0, d - 1);
  for (int step = 0; step < 3 * d; ++step) {
    int a = pick(rng), b = pick(rng);
    if (a == b) {
      g.row(a).swap(g.row((a + 1) % d));
      continue;
    }
    Coeff sign = (rng() & 1) ? 1 : -1;
    for (int y = 0; y < d; ++y) g(a, y) += sign * g(b, y);  // row a += ±row b
  }
  return g;
}

Scheme de_groote(const Scheme& s, const CoeffMatrix& P, const CoeffMatrix& Q, const CoeffMatrix& S) {
  s.check_shape();
  const Format& f = s.format;
  TDISC_REQUIRE(P.rows() == f.n && P.cols() == f.n, "P must be n×n");
  TDISC_REQUIRE(Q.rows() == f.m && Q.cols() == f.m, "Q must be m×m");
  TDISC_REQUIRE(S.rows() == f.p && S.cols() == f.p, "S must be p×p");
  auto Pi = inverse(P), Qi = inverse(Q), Si = inverse(S);
  TDISC_REQUIRE(Pi && Qi && Si, "P, Q and S must be invertible");
  Scheme out = Scheme::zeros(f, s.rank(), s.ring);
  for (int r = 0; r < s.rank(); ++r) {
    set_term_matrix(out.u, r, exact_product(exact_product(P, term_matrix(s.u, r, f.n, f.m)), *Qi));  // n×m
    set_term_matrix(out.v, r, exact_product(exact_product(Q, term_matrix(s.v, r, f.m, f.p)), *Si));  // m×p
    set_term_matrix(out.w, r, exact_product(exact_product(S, term_matrix(s.w, r, f.p, f.n)), *Pi));  // p×n
  }
  return detail::finish_derived(std::move(out), "de-groote", {&s});
}

std::optional<Axis> parse_axis(std::string_view s) {
  if (s == "n" || s == "N") return Axis::N;
  if (s == "m" || s == "M") return Axis::M;
  if (s == "p" || s == "P") return Axis::P;
  return std::nullopt;
}

}  // namespace tdisc
