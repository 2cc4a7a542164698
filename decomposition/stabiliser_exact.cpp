// The exact half of the stabiliser search: a sandwich matrix solved over Q(i) from the conditions of
// matched terms, and every term's image under (P, Q, S) compared with the target exactly.
#include <map>

#include "decomposition/constructions.hpp"
#include "decomposition/exact_solve.hpp"
#include "decomposition/stabiliser_detail.hpp"

namespace tdisc::stab {

namespace {

CoeffMatrix as_matrix(int side, const std::vector<Coeff>& vec) {  // row-major vec(M) → M, side × side
  CoeffMatrix m(side, side);
  for (size_t j = 0; j < vec.size(); ++j) m.data()[j] = vec[j];
  return m;
}

// Whether row is independent of the echelon rows modulo p; if so it joins them (kept reduced).
bool independent(std::vector<modp::Fp> row, std::vector<std::vector<modp::Fp>>& echelon, std::vector<int>& pivots) {
  for (size_t e = 0; e < echelon.size(); ++e) {
    const modp::Fp f = row[static_cast<size_t>(pivots[e])];
    if (f == 0) continue;
    for (size_t c = 0; c < row.size(); ++c) row[c] = modp::sub(row[c], modp::mul(f, echelon[e][c]));
  }
  if (!modp::normalise(row)) return false;
  int pivot = 0;
  while (row[static_cast<size_t>(pivot)] == 0) ++pivot;
  for (size_t e = 0; e < echelon.size(); ++e) {
    const modp::Fp f = echelon[e][static_cast<size_t>(pivot)];
    if (f == 0) continue;
    for (size_t c = 0; c < row.size(); ++c) echelon[e][c] = modp::sub(echelon[e][c], modp::mul(f, row[c]));
  }
  echelon.push_back(std::move(row));
  pivots.push_back(pivot);
  return true;
}

// d² − 1 matched condition rows that are independent modulo p (so over Q(i) too), exactly.
std::vector<std::vector<Coeff>> independent_rows(const std::vector<TermSpaces>& src, const std::vector<TermSpaces>& tgt,
                                                 const Matching& matched, int slot, int dd) {
  std::vector<std::vector<modp::Fp>> echelon;
  std::vector<int> pivots;
  std::vector<std::vector<Coeff>> chosen;
  for (const auto& [from_term, to_term] : matched) {
    const TermSpaces& from = src[static_cast<size_t>(from_term)];
    const TermSpaces& to = tgt[static_cast<size_t>(to_term)];
    const auto rows_p = condition_rows_p(from, to, slot);
    for (size_t r = 0; r < rows_p.size() && static_cast<int>(chosen.size()) < dd - 1; ++r) {
      if (!independent(rows_p[r], echelon, pivots)) continue;
      std::vector<Coeff> row;
      for (int e = 0; e < dd; ++e) row.push_back(exact_condition_entry(from, to, slot, r, e));
      chosen.push_back(std::move(row));
    }
    if (static_cast<int>(chosen.size()) == dd - 1) break;
  }
  return chosen;
}

// The kernel of every condition row of the matched terms, exactly, when it is a line.
std::optional<CoeffMatrix> line_from_kernel(const std::vector<TermSpaces>& src, const std::vector<TermSpaces>& tgt,
                                            const Matching& matched, int slot, int side) {
  std::vector<std::vector<Coeff>> rows;
  for (const auto& [from, to] : matched) {
    auto more = exact_condition_rows(src[static_cast<size_t>(from)], tgt[static_cast<size_t>(to)], slot);
    rows.insert(rows.end(), more.begin(), more.end());
  }
  // More than a line: no isotropy realises the matching, since one that did would make these the
  // conditions of every term against itself, moved by it, which leave a line (checked before).
  const CoeffMatrix line = exact_nullspace(stack_rows(rows, side * side));
  if (line.cols() != 1) return std::nullopt;
  return as_matrix(side, std::vector<Coeff>(line.data(), line.data() + line.size()));
}

// Whether u⊗v⊗w (n×m, m×p, p×n) equals term t of s exactly: each factor a multiple of t's, the three
// multiples multiplying to 1.
bool same_tensor(const CoeffMatrix& u, const CoeffMatrix& v, const CoeffMatrix& w, const Scheme& s, int t) {
  Coeff product = 1;
  for (auto [mine, theirs] : {std::pair{&u, &s.u}, std::pair{&v, &s.v}, std::pair{&w, &s.w}}) {
    std::optional<Coeff> ratio;
    for (Eigen::Index i = 0; i < mine->size(); ++i) {
      const Coeff& a = mine->data()[i];
      const Coeff& b = (*theirs)(t, i);
      if (b.is_zero() || a.is_zero()) {
        if (!(a.is_zero() && b.is_zero())) return false;
        continue;
      }
      if (!ratio) ratio = a / b;
      else if (a != *ratio * b) return false;
    }
    if (!ratio) return false;
    product *= *ratio;
  }
  return product == Coeff(1);
}

}  // namespace

CoeffMatrix stack_rows(const std::vector<std::vector<Coeff>>& rows, int width) {
  CoeffMatrix m = CoeffMatrix::Zero(static_cast<Eigen::Index>(rows.size()), width);
  for (size_t i = 0; i < rows.size(); ++i)
    for (int j = 0; j < width; ++j) m(static_cast<Eigen::Index>(i), j) = rows[i][static_cast<size_t>(j)];
  return m;
}

std::optional<CoeffMatrix> exact_slot(const std::vector<TermSpaces>& src, const std::vector<TermSpaces>& tgt,
                                      const Matching& matched, int slot, const modp::Matrix* line_p) {
  const int side = static_cast<int>(src.front().f[static_cast<size_t>(slot)].col_basis.rows());
  const int dd = side * side;
  if (!line_p) return line_from_kernel(src, tgt, matched, slot, side);
  const std::vector<std::vector<Coeff>> chosen = independent_rows(src, tgt, matched, slot, dd);
  if (static_cast<int>(chosen.size()) != dd - 1) return line_from_kernel(src, tgt, matched, slot, side);
  // The coordinate where the line modulo p does not vanish is set to 1: the true matrix, scaled to
  // coprime Gaussian integers, reduces onto that line, so it cannot vanish there either.
  int one = 0;
  while ((*line_p)(one, 0) == 0) ++one;
  CoeffMatrix a(dd - 1, dd - 1), b(dd - 1, 1);  // the system with coordinate `one` moved right
  for (int r = 0; r < dd - 1; ++r)
    for (int c = 0, col = 0; c < dd; ++c) {
      if (c == one) b(r, 0) = -chosen[static_cast<size_t>(r)][static_cast<size_t>(c)];
      else a(r, col++) = chosen[static_cast<size_t>(r)][static_cast<size_t>(c)];
    }
  ExactSolution sol = solve_exact(a, b, CoeffMatrix::Zero(dd - 1, 1));
  if (!sol.x || sol.rank != dd - 1) return line_from_kernel(src, tgt, matched, slot, side);
  std::vector<Coeff> vec;
  for (int c = 0, col = 0; c < dd; ++c) vec.push_back(c == one ? Coeff(1) : (*sol.x)(col++, 0));
  return as_matrix(side, vec);
}

std::optional<std::vector<int>> exact_images(const Scheme& source, const Scheme& target,
                                             const std::array<CoeffMatrix, 3>& pqs, const std::vector<int>& expected) {
  std::array<CoeffMatrix, 3> inv;
  for (size_t k = 0; k < 3; ++k) {
    auto i = inverse(pqs[k]);
    if (!i) return std::nullopt;
    inv[k] = std::move(*i);
  }
  std::map<std::string, std::vector<int>> keys;  // only without `expected`: exact tensor key → terms
  if (expected.empty())
    for (int t = 0; t < target.rank(); ++t) keys[term_key(target, t)].push_back(t);
  std::map<std::string, int> taken;
  std::vector<bool> hit(static_cast<size_t>(target.rank()), false);
  const Format f = source.format;
  std::vector<int> image;
  for (int r = 0; r < source.rank(); ++r) {
    const CoeffMatrix u = exact_product(exact_product(pqs[0], term_matrix(source.u, r, f.n, f.m)), inv[1]);
    const CoeffMatrix v = exact_product(exact_product(pqs[1], term_matrix(source.v, r, f.m, f.p)), inv[2]);
    const CoeffMatrix w = exact_product(exact_product(pqs[2], term_matrix(source.w, r, f.p, f.n)), inv[0]);
    if (!expected.empty()) {
      const int t = expected[static_cast<size_t>(r)];
      if (hit[static_cast<size_t>(t)] || !same_tensor(u, v, w, target, t)) return std::nullopt;
      hit[static_cast<size_t>(t)] = true;
      image.push_back(t);
      continue;
    }
    const std::string key = tensor_key(u, v, w);
    auto it = keys.find(key);
    if (it == keys.end()) return std::nullopt;
    int& used = taken[key];
    if (used >= static_cast<int>(it->second.size())) return std::nullopt;  // a repeated tensor, too often
    image.push_back(it->second[static_cast<size_t>(used++)]);
  }
  return image;
}

}  // namespace tdisc::stab
