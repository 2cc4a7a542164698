// Isotropies of the matmul tensor on term columns [u; v; w], exactly, and the closure of a set of
// generators into a finite group (de Groote 1978; Burichenko 2014 for the groups of known schemes).
#include "decomposition/symmetry.hpp"

#include <map>

#include "base/error.hpp"
#include "decomposition/constructions.hpp"

namespace tdisc {

namespace {

struct TermBlocks {
  CoeffMatrix u, v, w;  // n×m, m×p, p×n for ⟨n,m,p⟩ (shapes follow the current format)
};

CoeffMatrix block_matrix(const CoeffMatrix& x, int offset, int rows, int cols) {
  CoeffMatrix m(rows, cols);  // rows × cols, from the row-major slice of the column x
  for (int a = 0; a < rows; ++a)
    for (int b = 0; b < cols; ++b) m(a, b) = x(offset + a * cols + b, 0);
  return m;
}

void put_block(CoeffMatrix& x, int offset, const CoeffMatrix& m) {
  for (Eigen::Index a = 0; a < m.rows(); ++a)
    for (Eigen::Index b = 0; b < m.cols(); ++b) x(offset + a * m.cols() + b, 0) = m(a, b);
}

CoeffMatrix identity(int d) {
  CoeffMatrix i = CoeffMatrix::Constant(d, d, Coeff(0));
  for (int x = 0; x < d; ++x) i(x, x) = 1;
  return i;
}

CoeffMatrix inverse_or_identity(const CoeffMatrix& m, int d, const char* name) {
  if (m.size() == 0) return identity(d);
  TDISC_REQUIRE(m.rows() == d && m.cols() == d, std::string(name) + " has the wrong shape");
  auto inv = inverse(m);
  TDISC_REQUIRE(inv.has_value(), std::string(name) + " is singular");
  return *inv;
}

// g applied to one term given as blocks of ⟨n,m,p⟩; the format is preserved by construction.
TermBlocks act(const Isotropy& g, const Format& f, TermBlocks t, const CoeffMatrix& pinv,
               const CoeffMatrix& qinv, const CoeffMatrix& sinv) {
  if (g.transposed) t = {t.v.transpose(), t.u.transpose(), t.w.transpose()};
  for (int s = 0; s < g.shift; ++s) t = {t.v, t.w, t.u};
  const CoeffMatrix P = g.P.size() ? g.P : identity(f.n), Q = g.Q.size() ? g.Q : identity(f.m),
                    S = g.S.size() ? g.S : identity(f.p);
  return {exact_product(exact_product(P, t.u), qinv), exact_product(exact_product(Q, t.v), sinv),
          exact_product(exact_product(S, t.w), pinv)};
}

// The scalar λ with y = λ·x on rows [from, to) of two columns of matrices, if there is one
// (x zero: only y zero qualifies, with λ = 1).
std::optional<Coeff> block_ratio(const CoeffMatrix& x, const CoeffMatrix& y, int from, int to) {
  std::optional<Coeff> lambda;
  for (int r = from; r < to; ++r)
    for (Eigen::Index c = 0; c < x.cols(); ++c) {
      if (x(r, c).is_zero()) {
        if (!y(r, c).is_zero()) return std::nullopt;
        continue;
      }
      if (!lambda) lambda = y(r, c) / x(r, c);
      else if (y(r, c) != *lambda * x(r, c)) return std::nullopt;
    }
  return lambda ? lambda : std::optional<Coeff>(Coeff(1));
}

// Whether y = diag(αI, βI, γI)·x on the three row blocks [u; v; w] with αβγ = 1 (x, y: matrices with
// nm + mp + pn rows).
bool scaled_by_unit_triple(const CoeffMatrix& x, const CoeffMatrix& y, Format f) {
  const int bounds[4] = {0, f.a_size(), f.a_size() + f.b_size(), term_length(f)};
  Coeff product = 1;
  for (int b = 0; b < 3; ++b) {
    auto lambda = block_ratio(x, y, bounds[b], bounds[b + 1]);
    if (!lambda || lambda->is_zero()) return false;
    product *= *lambda;
  }
  return product == Coeff(1);
}

// A text key equal for matrices that agree up to a scalar per row block (same_isotropy's test
// refines it): each block divided by its first non-zero entry.
std::string projective_key(const CoeffMatrix& a, Format f) {
  const int bounds[4] = {0, f.a_size(), f.a_size() + f.b_size(), term_length(f)};
  std::string key;
  for (int b = 0; b < 3; ++b) {
    std::optional<Coeff> first;
    for (int r = bounds[b]; r < bounds[b + 1]; ++r)
      for (Eigen::Index c = 0; c < a.cols(); ++c) {
        if (a(r, c).is_zero()) { key += '.'; continue; }
        if (!first) first = a(r, c);
        key += (a(r, c) / *first).str();
        key += ',';
      }
    key += '|';
  }
  return key;
}

}  // namespace

int term_length(Format f) { return f.a_size() + f.b_size() + f.c_size(); }

CoeffMatrix exact_product(const CoeffMatrix& a, const CoeffMatrix& b) {
  TDISC_REQUIRE(a.cols() == b.rows(), "inner dimensions differ");
  CoeffMatrix c = CoeffMatrix::Constant(a.rows(), b.cols(), Coeff(0));
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index k = 0; k < a.cols(); ++k) {
      if (a(i, k).is_zero()) continue;
      for (Eigen::Index j = 0; j < b.cols(); ++j)
        if (!b(k, j).is_zero()) c(i, j) += a(i, k) * b(k, j);
    }
  return c;
}

CoeffMatrix term_action(const Isotropy& g, Format f) {
  TDISC_REQUIRE(g.shift >= 0 && g.shift <= 2, "shift must be 0, 1 or 2");
  TDISC_REQUIRE(g.shift == 0 || (f.n == f.m && f.m == f.p), "the cyclic shift needs a square format");
  TDISC_REQUIRE(!g.transposed || f.n == f.p, "the transpose needs n = p");
  const CoeffMatrix pinv = inverse_or_identity(g.P, f.n, "P"), qinv = inverse_or_identity(g.Q, f.m, "Q"),
                    sinv = inverse_or_identity(g.S, f.p, "S");
  const int len = term_length(f);
  CoeffMatrix a = CoeffMatrix::Constant(len, len, Coeff(0));  // len × len: column j = g·e_j
  for (int j = 0; j < len; ++j) {
    CoeffMatrix e = CoeffMatrix::Constant(len, 1, Coeff(0));
    e(j, 0) = 1;
    TermBlocks t{block_matrix(e, 0, f.n, f.m), block_matrix(e, f.a_size(), f.m, f.p),
                 block_matrix(e, f.a_size() + f.b_size(), f.p, f.n)};
    TermBlocks out = act(g, f, std::move(t), pinv, qinv, sinv);
    CoeffMatrix col(len, 1);
    put_block(col, 0, out.u);
    put_block(col, f.a_size(), out.v);
    put_block(col, f.a_size() + f.b_size(), out.w);
    a.col(j) = col.col(0);
  }
  return a;
}

CoeffMatrix term_column(const Scheme& s, int r) {
  const Format& f = s.format;
  CoeffMatrix x(term_length(f), 1);  // (nm+mp+pn) × 1
  for (int j = 0; j < f.a_size(); ++j) x(j, 0) = s.u(r, j);
  for (int j = 0; j < f.b_size(); ++j) x(f.a_size() + j, 0) = s.v(r, j);
  for (int j = 0; j < f.c_size(); ++j) x(f.a_size() + f.b_size() + j, 0) = s.w(r, j);
  return x;
}

void set_term_column(Scheme& s, int r, const CoeffMatrix& x) {
  const Format& f = s.format;
  TDISC_REQUIRE(x.rows() == term_length(f) && x.cols() == 1, "a term column has nm+mp+pn rows");
  for (int j = 0; j < f.a_size(); ++j) s.u(r, j) = x(j, 0);
  for (int j = 0; j < f.b_size(); ++j) s.v(r, j) = x(f.a_size() + j, 0);
  for (int j = 0; j < f.c_size(); ++j) s.w(r, j) = x(f.a_size() + f.b_size() + j, 0);
}

bool same_tensor(const CoeffMatrix& x, const CoeffMatrix& y, Format f) {
  const int bounds[4] = {0, f.a_size(), f.a_size() + f.b_size(), term_length(f)};
  auto zero = [&](const CoeffMatrix& z) {
    for (int b = 0; b < 3; ++b) {
      bool all = true;
      for (int r = bounds[b]; r < bounds[b + 1] && all; ++r) all = z(r, 0).is_zero();
      if (all) return true;
    }
    return false;
  };
  if (zero(x) || zero(y)) return zero(x) && zero(y);
  return scaled_by_unit_triple(x, y, f);
}

bool same_isotropy(const CoeffMatrix& a, const CoeffMatrix& b, Format f) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return false;
  return scaled_by_unit_triple(a, b, f);
}

IsotropyGroup generate_group(Format f, std::vector<Isotropy> generators, int max_order) {
  IsotropyGroup g;
  g.format = f;
  g.generators = std::move(generators);
  std::vector<CoeffMatrix> gen_actions;
  for (const Isotropy& x : g.generators) gen_actions.push_back(term_action(x, f));
  std::multimap<std::string, int> by_key;
  auto find = [&](const CoeffMatrix& a) {
    auto [lo, hi] = by_key.equal_range(projective_key(a, f));
    for (auto it = lo; it != hi; ++it)
      if (same_isotropy(g.elements[it->second], a, f)) return it->second;
    return -1;
  };
  auto add = [&](CoeffMatrix a, std::vector<int> word) {
    by_key.emplace(projective_key(a, f), static_cast<int>(g.elements.size()));
    g.elements.push_back(std::move(a));
    g.words.push_back(std::move(word));
  };
  add(identity(term_length(f)), {});
  for (size_t e = 0; e < g.elements.size(); ++e)  // breadth first: elements grow while we scan
    for (size_t k = 0; k < gen_actions.size(); ++k) {
      CoeffMatrix c = exact_product(gen_actions[k], g.elements[e]);
      if (find(c) >= 0) continue;
      if (g.order() >= max_order)
        throw InputError("the generators give more than " + std::to_string(max_order) +
                         " distinct isotropies: not a finite group of that size");
      std::vector<int> word{static_cast<int>(k)};
      word.insert(word.end(), g.words[e].begin(), g.words[e].end());
      add(std::move(c), std::move(word));
    }
  return g;
}

CoeffMatrix word_action(const IsotropyGroup& g, const std::vector<int>& word) {
  CoeffMatrix a = identity(term_length(g.format));
  for (auto it = word.rbegin(); it != word.rend(); ++it) {
    TDISC_REQUIRE(*it >= 0 && *it < static_cast<int>(g.generators.size()), "a word names an unknown generator");
    a = exact_product(term_action(g.generators[*it], g.format), a);
  }
  return a;
}

Scheme apply_isotropy(const CoeffMatrix& action, const Scheme& s) {
  s.check_shape();
  TDISC_REQUIRE(action.rows() == term_length(s.format) && action.cols() == action.rows(),
                "the action matrix does not fit the format");
  Scheme out = Scheme::zeros(s.format, s.rank(), s.ring);
  out.provenance = s.provenance;
  for (int r = 0; r < s.rank(); ++r) set_term_column(out, r, exact_product(action, term_column(s, r)));
  return out;
}

}  // namespace tdisc
