// Sparsity, naive addition count and stability factor of a scheme.
#include "verifier/stats.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace tdisc {

namespace {

long row_nnz(const CoeffMatrix& m, Eigen::Index r) {
  long k = 0;
  for (Eigen::Index c = 0; c < m.cols(); ++c) k += !m(r, c).is_zero();
  return k;
}

double modulus(const Coeff& x) { return std::hypot(x.real_double(), x.imag_double()); }

double row_l1(const CoeffMatrix& m, Eigen::Index r) {
  double s = 0;
  for (Eigen::Index c = 0; c < m.cols(); ++c) s += modulus(m(r, c));
  return s;
}

}  // namespace

SchemeStats scheme_stats(const Scheme& s) {
  SchemeStats st;
  st.rank = s.rank();
  std::vector<double> weight(static_cast<size_t>(s.rank()));  // ‖U_r‖₁·‖V_r‖₁
  for (Eigen::Index r = 0; r < s.rank(); ++r) {
    long nu = row_nnz(s.u, r), nv = row_nnz(s.v, r), nw = row_nnz(s.w, r);
    st.nnz_u += nu;
    st.nnz_v += nv;
    st.nnz_w += nw;
    st.additions += std::max(0L, nu - 1) + std::max(0L, nv - 1);
    weight[static_cast<size_t>(r)] = row_l1(s.u, r) * row_l1(s.v, r);
  }
  for (Eigen::Index c = 0; c < s.w.cols(); ++c) {
    long products = 0;
    double e = 0;
    for (Eigen::Index r = 0; r < s.rank(); ++r) {
      if (s.w(r, c).is_zero()) continue;
      ++products;
      e += modulus(s.w(r, c)) * weight[static_cast<size_t>(r)];
    }
    st.additions += std::max(0L, products - 1);
    st.stability = std::max(st.stability, e);
  }
  return st;
}

}  // namespace tdisc
