// simplify_by_sandwich (sandwich_simplify.hpp): the rank-one factors' column vectors, independent
// choices of them from the seed, the inverse of their matrix as the sandwich, the sparsest result.
#include "decomposition/sandwich_simplify.hpp"

#include <algorithm>
#include <random>

#include "decomposition/constructions.hpp"
#include "decomposition/stabiliser.hpp"
#include "decomposition/stabiliser_detail.hpp"

namespace tdisc {

namespace {

void scale_row(CoeffMatrix& f, int r, const Coeff& a) {
  for (Eigen::Index j = 0; j < f.cols(); ++j) f(r, j) *= a;
}

bool real_row(const CoeffMatrix& f, int r) {
  for (Eigen::Index j = 0; j < f.cols(); ++j)
    if (!f(r, j).is_real()) return false;
  return true;
}

// Row r of f made primitive integral with its first non-zero entry positive; the inverse scale goes
// to row r of w.
void normalise_factor(CoeffMatrix& f, CoeffMatrix& w, int r) {
  Eigen::Index first = 0;
  while (first < f.cols() && f(r, first).is_zero()) ++first;
  if (first == f.cols()) return;
  const Coeff lead = f(r, first);  // first entry 1: a factor whose tensor is real becomes real
  scale_row(f, r, Coeff(1) / lead);
  scale_row(w, r, lead);
  if (!real_row(f, r)) return;
  mpz_class lcm = 1, gcd = 0;
  for (Eigen::Index j = 0; j < f.cols(); ++j) mpz_lcm(lcm.get_mpz_t(), lcm.get_mpz_t(), f(r, j).re().get_den_mpz_t());
  for (Eigen::Index j = 0; j < f.cols(); ++j) {
    const mpz_class num = f(r, j).re().get_num() * (lcm / f(r, j).re().get_den());
    mpz_gcd(gcd.get_mpz_t(), gcd.get_mpz_t(), num.get_mpz_t());
  }
  mpq_class a(lcm, gcd);
  if (f(r, first).re() < 0) a = -a;
  scale_row(f, r, Coeff(a));
  scale_row(w, r, Coeff(1 / a));
}

// The column vector spanning factor r's column space (its first non-zero column), rows × 1, for
// every term whose factor has rank one.
std::vector<CoeffMatrix> rank_one_columns(const CoeffMatrix& factor, int rows, int cols, int rank) {
  std::vector<CoeffMatrix> out;
  for (int r = 0; r < rank; ++r) {
    const CoeffMatrix m = term_matrix(factor, r, rows, cols);
    if (stab::exact_rank(m) != 1) continue;
    for (int c = 0; c < cols; ++c) {
      bool zero = true;
      for (int x = 0; x < rows && zero; ++x) zero = m(x, c).is_zero();
      if (!zero) {
        out.push_back(m.col(c));
        break;
      }
    }
  }
  return out;
}

// d independent columns, the candidates in shuffled order first, standard basis vectors after; the
// inverse of the matrix they make (it sends them to e_1 … e_d).
CoeffMatrix basis_change(std::vector<CoeffMatrix> candidates, int d, std::mt19937_64& rng) {
  std::shuffle(candidates.begin(), candidates.end(), rng);
  for (int k = 0; k < d; ++k) {
    CoeffMatrix e = CoeffMatrix::Zero(d, 1);
    e(k, 0) = 1;
    candidates.push_back(e);
  }
  CoeffMatrix chosen(d, 0);
  for (const CoeffMatrix& x : candidates) {
    if (chosen.cols() == d) break;
    CoeffMatrix wider(d, chosen.cols() + 1);
    wider << chosen, x;
    if (stab::exact_rank(wider) == wider.cols()) chosen = std::move(wider);
  }
  return *inverse(chosen);
}

}  // namespace

void normalise_terms(Scheme& s) {
  for (int r = 0; r < s.rank(); ++r) {
    normalise_factor(s.u, s.w, r);
    normalise_factor(s.v, s.w, r);
  }
}

Sparsity sparsity(const Scheme& s) {
  Sparsity out;
  for (const CoeffMatrix* m : {&s.u, &s.v, &s.w})
    for (Eigen::Index i = 0; i < m->size(); ++i) {
      const Coeff& c = m->data()[i];
      if (c.is_zero()) continue;
      ++out.nonzeros;
      for (const mpq_class* q : {&c.re(), &c.im()})
        out.bits += static_cast<long>(mpz_sizeinbase(q->get_num_mpz_t(), 2) + mpz_sizeinbase(q->get_den_mpz_t(), 2));
    }
  return out;
}

Simplified simplify_by_sandwich(const Scheme& s, std::uint64_t seed, int tries) {
  Simplified best{s, {}, 0};
  normalise_terms(best.scheme);
  if (coefficient_ring(s) == Ring::QI) return best;
  const Format f = s.format;
  const std::array<std::vector<CoeffMatrix>, 3> columns = {rank_one_columns(s.u, f.n, f.m, s.rank()),
                                                            rank_one_columns(s.v, f.m, f.p, s.rank()),
                                                            rank_one_columns(s.w, f.p, f.n, s.rank())};
  Sparsity best_score = sparsity(best.scheme);
  std::mt19937_64 rng(seed);
  for (; best.tried < tries; ++best.tried) {
    const CoeffMatrix P = basis_change(columns[0], f.n, rng), Q = basis_change(columns[1], f.m, rng),
                      S = basis_change(columns[2], f.p, rng);
    Scheme t = de_groote(s, P, Q, S);
    normalise_terms(t);
    if (const Sparsity score = sparsity(t); score < best_score) {
      best_score = score;
      best.scheme = std::move(t);
      best.sandwich = Isotropy{false, 0, P, Q, S};
    }
  }
  return best;
}

}  // namespace tdisc
