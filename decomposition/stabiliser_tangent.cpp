// Whether a scheme's stabiliser is infinite: the dimension of the Lie algebra of sandwiches that fix
// every term. A rank-one tensor u⊗v⊗w is fixed to first order by (X, Y, Z) exactly when the three
// factor derivatives are multiples a·U, b·V, c·W with a + b + c = 0 (the tangent space of the Segre
// variety), so each term adds linear conditions; the scalars (xI, yI, zI) always pass.
#include "decomposition/constructions.hpp"
#include "decomposition/stabiliser_detail.hpp"

namespace tdisc::stab {

namespace {

struct Blocks {
  CoeffMatrix x, y, z;  // n×n, m×m, p×p
};

Blocks blocks_of(const CoeffMatrix& basis, Eigen::Index col, Format f) {
  Blocks b{CoeffMatrix(f.n, f.n), CoeffMatrix(f.m, f.m), CoeffMatrix(f.p, f.p)};
  Eigen::Index at = 0;
  for (CoeffMatrix* m : {&b.x, &b.y, &b.z})
    for (Eigen::Index i = 0; i < m->size(); ++i) m->data()[i] = basis(at++, col);
  return b;
}

void put(CoeffMatrix& e, Eigen::Index& row, Eigen::Index col, const CoeffMatrix& m) {
  for (Eigen::Index i = 0; i < m.size(); ++i) e(row++, col) = m.data()[i];
}

// The conditions of one term on the coordinates c of the current space (N·c) and on its a and b:
// (nm + mp + pn) × (d + 2).
CoeffMatrix term_conditions(const Scheme& s, int r, const CoeffMatrix& basis) {
  const Format f = s.format;
  const CoeffMatrix u = term_matrix(s.u, r, f.n, f.m), v = term_matrix(s.v, r, f.m, f.p),
                    w = term_matrix(s.w, r, f.p, f.n);
  const Eigen::Index d = basis.cols();
  CoeffMatrix e = CoeffMatrix::Zero(term_length(f), d + 2);
  for (Eigen::Index j = 0; j < d; ++j) {
    const Blocks b = blocks_of(basis, j, f);
    Eigen::Index row = 0;
    put(e, row, j, CoeffMatrix(exact_product(b.x, u) - exact_product(u, b.y)));
    put(e, row, j, CoeffMatrix(exact_product(b.y, v) - exact_product(v, b.z)));
    put(e, row, j, CoeffMatrix(exact_product(b.z, w) - exact_product(w, b.x)));
  }
  // a and b (c = −a − b): −a·U in the U rows, −b·V in the V rows, (a + b)·W in the W rows.
  Eigen::Index row = 0;
  put(e, row, d, CoeffMatrix(-u));
  put(e, row, d + 1, CoeffMatrix(-v));
  const Eigen::Index w_rows = row;
  put(e, row, d, w);
  row = w_rows;
  put(e, row, d + 1, w);
  return e;
}

}  // namespace

int tangent_dimension(const Scheme& s) {
  const Format f = s.format;
  const Eigen::Index len = f.n * f.n + f.m * f.m + f.p * f.p;
  CoeffMatrix basis = CoeffMatrix::Zero(len, len);  // len × d: the (X, Y, Z) still admissible
  for (Eigen::Index i = 0; i < len; ++i) basis(i, i) = 1;
  for (int r = 0; r < s.rank() && basis.cols() > 3; ++r) {
    const CoeffMatrix kernel = exact_nullspace(term_conditions(s, r, basis));  // (d + 2) × d'
    basis = exact_product(basis, CoeffMatrix(kernel.topRows(basis.cols())));
  }
  return static_cast<int>(basis.cols());
}

}  // namespace tdisc::stab
