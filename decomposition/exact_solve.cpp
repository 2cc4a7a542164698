// Gauss–Jordan elimination over Gaussian rationals (exact; sparse rows skip zero entries).
// Textbook reduced row echelon form; consistency is decided exactly, never by a tolerance.
#include "decomposition/exact_solve.hpp"

#include <vector>

#include "base/error.hpp"

namespace tdisc {

namespace {

using Row = std::vector<Coeff>;

bool zero_row(const Row& r, size_t from, size_t to) {
  for (size_t c = from; c < to; ++c)
    if (!r[c].is_zero()) return false;
  return true;
}

// Augmented rows [K | B]; rows that are zero on both sides carry no equation and are dropped.
std::vector<Row> augmented(const CoeffMatrix& k, const CoeffMatrix& b) {
  std::vector<Row> rows;
  for (Eigen::Index i = 0; i < k.rows(); ++i) {
    Row r(static_cast<size_t>(k.cols() + b.cols()));
    for (Eigen::Index c = 0; c < k.cols(); ++c) r[c] = k(i, c);
    for (Eigen::Index c = 0; c < b.cols(); ++c) r[k.cols() + c] = b(i, c);
    if (!zero_row(r, 0, r.size())) rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace

ExactSolution solve_exact(const CoeffMatrix& k, const CoeffMatrix& b, const CoeffMatrix& preferred) {
  TDISC_REQUIRE(k.rows() == b.rows() && preferred.rows() == k.cols() && preferred.cols() == b.cols(),
                "shapes of K, B and the preferred solution disagree");
  const size_t n = static_cast<size_t>(k.cols()), width = n + static_cast<size_t>(b.cols());
  std::vector<Row> rows = augmented(k, b);
  std::vector<size_t> pivot_col;
  size_t top = 0;
  for (size_t c = 0; c < n && top < rows.size(); ++c) {
    size_t p = top;
    while (p < rows.size() && rows[p][c].is_zero()) ++p;
    if (p == rows.size()) continue;
    std::swap(rows[top], rows[p]);
    Coeff inv = Coeff(1) / rows[top][c];
    for (size_t j = c; j < width; ++j)
      if (!rows[top][j].is_zero()) rows[top][j] *= inv;
    for (size_t i = 0; i < rows.size(); ++i) {
      if (i == top || rows[i][c].is_zero()) continue;
      Coeff f = rows[i][c];
      for (size_t j = c; j < width; ++j)
        if (!rows[top][j].is_zero()) rows[i][j] -= f * rows[top][j];
    }
    pivot_col.push_back(c);
    ++top;
  }
  ExactSolution out;
  out.rank = static_cast<int>(top);
  for (size_t i = top; i < rows.size(); ++i)
    if (!zero_row(rows[i], n, width)) {
      out.why_not = "the linear system is inconsistent (rank " + std::to_string(top) + ")";
      return out;
    }
  std::vector<bool> is_pivot(n, false);
  for (size_t c : pivot_col) is_pivot[c] = true;
  CoeffMatrix x = preferred;
  for (size_t i = 0; i < top; ++i) {
    const size_t pc = pivot_col[i];
    for (Eigen::Index col = 0; col < b.cols(); ++col) {
      Coeff v = rows[i][n + col];
      for (size_t f = pc + 1; f < n; ++f)
        if (!is_pivot[f] && !rows[i][f].is_zero()) v -= rows[i][f] * preferred(f, col);
      x(pc, col) = v;
    }
  }
  out.x = std::move(x);
  return out;
}

}  // namespace tdisc
