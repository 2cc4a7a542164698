// The column and row spaces of a scheme's factors, the sandwich conditions they give, and the pair
// invariants that prune the stabiliser search (stabiliser_detail.hpp).
#include <functional>

#include "base/error.hpp"
#include "decomposition/constructions.hpp"
#include "decomposition/exact_solve.hpp"
#include "decomposition/stabiliser_detail.hpp"

namespace tdisc::stab {

CoeffMatrix exact_nullspace(const CoeffMatrix& k) {
  const Eigen::Index n = k.cols();
  CoeffMatrix identity = CoeffMatrix::Zero(n, n);
  for (Eigen::Index i = 0; i < n; ++i) identity(i, i) = 1;
  ExactSolution sol = solve_exact(k, CoeffMatrix::Zero(k.rows(), n), identity);
  TDISC_REQUIRE(sol.x.has_value(), "a homogeneous system is always consistent");
  // Column j of the solution is the basis vector of free unknown j, and zero for a pivot unknown.
  std::vector<Eigen::Index> free;
  for (Eigen::Index j = 0; j < n; ++j)
    if (!(*sol.x)(j, j).is_zero()) free.push_back(j);
  CoeffMatrix basis(n, static_cast<Eigen::Index>(free.size()));
  for (size_t c = 0; c < free.size(); ++c) basis.col(static_cast<Eigen::Index>(c)) = sol.x->col(free[c]);
  return basis;
}

int exact_rank(const CoeffMatrix& k) {
  return solve_exact(k, CoeffMatrix(k.rows(), 0), CoeffMatrix(k.cols(), 0)).rank;
}

modp::Matrix reduce_matrix(const CoeffMatrix& m) {
  modp::Matrix out(static_cast<int>(m.rows()), static_cast<int>(m.cols()));
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      auto x = modp::reduce(m(i, j));
      TDISC_REQUIRE(x.has_value(), "a denominator is divisible by 998244353");
      out(static_cast<int>(i), static_cast<int>(j)) = *x;
    }
  return out;
}

namespace {

std::string key_of(const CoeffMatrix& basis) {
  std::string out = std::to_string(basis.rows()) + ":";
  for (Eigen::Index i = 0; i < basis.rows(); ++i)
    for (Eigen::Index j = 0; j < basis.cols(); ++j) out += basis(i, j).str() + ",";
  return out;
}

FactorSpaces factor_spaces(const CoeffMatrix& m) {  // m: rows × cols
  FactorSpaces f;
  f.row_ann = exact_nullspace(m);
  f.col_ann = exact_nullspace(CoeffMatrix(m.transpose()));
  f.rank = static_cast<int>(m.cols() - f.row_ann.cols());
  f.col_basis = exact_nullspace(CoeffMatrix(f.col_ann.transpose()));
  f.row_basis = exact_nullspace(CoeffMatrix(f.row_ann.transpose()));
  f.col_key = key_of(f.col_ann);
  f.row_key = key_of(f.row_ann);
  f.col_basis_p = reduce_matrix(f.col_basis);
  f.col_ann_p = reduce_matrix(f.col_ann);
  f.row_basis_p = reduce_matrix(f.row_basis);
  f.row_ann_p = reduce_matrix(f.row_ann);
  f.matrix_p = reduce_matrix(m);
  return f;
}

// Rows a_i·b_j (i, j < d) for every column a of `as` and b of `bs`: the conditions aᵀ·M·b = 0.
void outer_rows(const CoeffMatrix& as, const CoeffMatrix& bs, std::vector<std::vector<Coeff>>& out) {
  const Eigen::Index d = as.rows();
  for (Eigen::Index x = 0; x < as.cols(); ++x)
    for (Eigen::Index y = 0; y < bs.cols(); ++y) {
      std::vector<Coeff> row(static_cast<size_t>(d * d));
      for (Eigen::Index i = 0; i < d; ++i)
        for (Eigen::Index j = 0; j < d; ++j) row[static_cast<size_t>(i * d + j)] = as(i, x) * bs(j, y);
      out.push_back(std::move(row));
    }
}

void outer_rows(const modp::Matrix& as, const modp::Matrix& bs, std::vector<std::vector<modp::Fp>>& out) {
  const int d = as.rows;
  for (int x = 0; x < as.cols; ++x)
    for (int y = 0; y < bs.cols; ++y) {
      std::vector<modp::Fp> row(static_cast<size_t>(d * d));
      for (int i = 0; i < d; ++i)
        for (int j = 0; j < d; ++j) row[static_cast<size_t>(i * d + j)] = modp::mul(as(i, x), bs(j, y));
      out.push_back(std::move(row));
    }
}

// The factors a sandwich slot touches: slot k multiplies factor k from the left, and its inverse
// multiplies factor k − 1 from the right.
const FactorSpaces& left_factor(const TermSpaces& t, int slot) { return t.f[static_cast<size_t>(slot)]; }
const FactorSpaces& right_factor(const TermSpaces& t, int slot) { return t.f[static_cast<size_t>((slot + 2) % 3)]; }

}  // namespace

std::vector<TermSpaces> term_spaces(const Scheme& s) {
  const Format f = s.format;
  std::vector<TermSpaces> out(static_cast<size_t>(s.rank()));
  for (int r = 0; r < s.rank(); ++r) {
    out[static_cast<size_t>(r)].f[0] = factor_spaces(term_matrix(s.u, r, f.n, f.m));
    out[static_cast<size_t>(r)].f[1] = factor_spaces(term_matrix(s.v, r, f.m, f.p));
    out[static_cast<size_t>(r)].f[2] = factor_spaces(term_matrix(s.w, r, f.p, f.n));
  }
  return out;
}

std::array<int, 3> slot_sizes(Format f) { return {f.n, f.m, f.p}; }

std::vector<std::vector<Coeff>> exact_condition_rows(const TermSpaces& from, const TermSpaces& to, int slot) {
  std::vector<std::vector<Coeff>> rows;
  outer_rows(left_factor(to, slot).col_ann, left_factor(from, slot).col_basis, rows);     // ℓᵀ·M·x = 0
  outer_rows(right_factor(to, slot).row_basis, right_factor(from, slot).row_ann, rows);  // zᵀ·M·ℓ = 0
  return rows;
}

std::vector<std::vector<modp::Fp>> condition_rows_p(const TermSpaces& from, const TermSpaces& to, int slot) {
  std::vector<std::vector<modp::Fp>> rows;
  outer_rows(left_factor(to, slot).col_ann_p, left_factor(from, slot).col_basis_p, rows);
  outer_rows(right_factor(to, slot).row_basis_p, right_factor(from, slot).row_ann_p, rows);
  return rows;
}

Coeff exact_condition_entry(const TermSpaces& from, const TermSpaces& to, int slot, size_t index, int e) {
  // The rows come in the order of exact_condition_rows: first ℓ × x, then z × ℓ, column-major pairs.
  const CoeffMatrix* as = &left_factor(to, slot).col_ann;
  const CoeffMatrix* bs = &left_factor(from, slot).col_basis;
  const size_t first = static_cast<size_t>(as->cols() * bs->cols());
  if (index >= first) {
    index -= first;
    as = &right_factor(to, slot).row_basis;
    bs = &right_factor(from, slot).row_ann;
  }
  const Eigen::Index d = as->rows(), x = static_cast<Eigen::Index>(index) / bs->cols(),
                     y = static_cast<Eigen::Index>(index) % bs->cols();
  return (*as)(e / d, x) * (*bs)(e % d, y);
}

size_t PairDims::Hash::operator()(const std::pair<std::string, std::string>& k) const {
  return std::hash<std::string>()(k.first) * 31 + std::hash<std::string>()(k.second);
}

int PairDims::sum_dim(const std::string& ka, const CoeffMatrix& a, const std::string& kb, const CoeffMatrix& b) {
  if (ka == kb) return static_cast<int>(a.cols());
  auto key = ka < kb ? std::make_pair(ka, kb) : std::make_pair(kb, ka);
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  CoeffMatrix both(a.rows(), a.cols() + b.cols());
  both << a, b;
  const int d = exact_rank(CoeffMatrix(both.transpose()));
  cache_.emplace(std::move(key), d);
  return d;
}

PairInvariant PairDims::of(const TermSpaces& a, const TermSpaces& b) {
  PairInvariant out{};
  for (size_t x = 0; x < 3; ++x) {
    const FactorSpaces& fa = a.f[x];
    const FactorSpaces& fb = b.f[x];
    out[2 * x] = sum_dim(fa.col_key, fa.col_basis, fb.col_key, fb.col_basis);
    out[2 * x + 1] = sum_dim(fa.row_key, fa.row_basis, fb.row_key, fb.row_basis);
  }
  return out;
}

std::string tensor_key(const CoeffMatrix& u, const CoeffMatrix& v, const CoeffMatrix& w) {
  auto first = [](const CoeffMatrix& m) -> const Coeff* {
    for (Eigen::Index i = 0; i < m.size(); ++i)
      if (!m.data()[i].is_zero()) return &m.data()[i];
    return nullptr;
  };
  const Coeff* a = first(u);
  const Coeff* b = first(v);
  if (!a || !b || !first(w)) return "0";
  const Coeff alpha = *a, beta = *b, gamma = alpha * beta;
  std::string out;
  for (Eigen::Index i = 0; i < u.size(); ++i) out += (u.data()[i] / alpha).str() + ",";
  out += "|";
  for (Eigen::Index i = 0; i < v.size(); ++i) out += (v.data()[i] / beta).str() + ",";
  out += "|";
  for (Eigen::Index i = 0; i < w.size(); ++i) out += (w.data()[i] * gamma).str() + ",";
  return out;
}

std::string term_key(const Scheme& s, int r) {
  return tensor_key(CoeffMatrix(s.u.row(r)), CoeffMatrix(s.v.row(r)), CoeffMatrix(s.w.row(r)));
}

}  // namespace tdisc::stab
