// Levenberg–Marquardt with the Gauss–Newton matrix JᵀJ assembled block by block from Gram
// matrices (Tichavský–Phan–Cichocki 2017): O(N²) to form, one Cholesky (O(N³)) per step.
#include "src/search/numeric/lm.hpp"

#include <cmath>

namespace tdisc::search::numeric {

namespace {

using Vec = Eigen::VectorXd;

// Global parameter index of factor q entry (i, r): offsets then row-major within a factor.
struct Layout {
  std::array<long, 4> offset{};
  int rank = 0;
  explicit Layout(const Factors<double>& x) : rank(x.rank()) {
    for (int q = 0; q < 3; ++q) offset[q + 1] = offset[q] + x.f[q].size();
  }
  long index(int q, long i, long r) const { return offset[q] + i * rank + r; }
  long size() const { return offset[3]; }
};

// JᵀJ over all parameters: diagonal blocks δ_ii'·G_q, off-diagonal F_q'(j,r)·F_q(i,s)·(F_oᵀF_o)_rs.
Mat<double> gauss_newton(const Factors<double>& x, const Layout& L) {
  const int R = x.rank();
  std::array<Mat<double>, 3> gram;
  for (int q = 0; q < 3; ++q) gram[q] = x.f[q].transpose() * x.f[q];  // R × R
  Mat<double> h = Mat<double>::Zero(L.size(), L.size());
  for (int q = 0; q < 3; ++q) {
    Mat<double> g = gram[(q + 1) % 3].cwiseProduct(gram[(q + 2) % 3]);
    for (long i = 0; i < x.f[q].rows(); ++i) h.block(L.index(q, i, 0), L.index(q, i, 0), R, R) = g;
  }
  for (int q = 0; q < 3; ++q)
    for (int q2 = q + 1; q2 < 3; ++q2) {
      const Mat<double>& go = gram[3 - q - q2];
      const Mat<double>&fq = x.f[q], &fq2 = x.f[q2];
      for (long i = 0; i < fq.rows(); ++i)
        for (long j = 0; j < fq2.rows(); ++j) {
          // block(r, s) = F_q2(j, r) · F_q(i, s) · go(r, s)
          Mat<double> blk = (fq2.row(j).transpose() * fq.row(i)).cwiseProduct(go);
          h.block(L.index(q, i, 0), L.index(q2, j, 0), R, R) = blk;
          h.block(L.index(q2, j, 0), L.index(q, i, 0), R, R) = blk.transpose();
        }
    }
  return h;
}

// Jᵀe: the gradient of ½‖E‖², one MTTKRP of the dense residual per mode.
Vec gradient(const MatmulTensor& t, const Factors<double>& x, const Layout& L) {
  Mat<double> e = residual_unfolding(t, x);  // (nm) × ((mp)·(pn))
  const long I = t.dims[0], J = t.dims[1], K = t.dims[2];
  const int R = x.rank();
  Vec g = Vec::Zero(L.size());
  const Mat<double>&A = x.f[0], &B = x.f[1], &C = x.f[2];
  for (long a = 0; a < I; ++a)
    for (long b = 0; b < J; ++b)
      for (long c = 0; c < K; ++c) {
        double v = e(a, b * K + c);
        if (v == 0) continue;
        for (int r = 0; r < R; ++r) {
          g(L.index(0, a, r)) += v * B(b, r) * C(c, r);
          g(L.index(1, b, r)) += v * A(a, r) * C(c, r);
          g(L.index(2, c, r)) += v * A(a, r) * B(b, r);
        }
      }
  return g;
}

}  // namespace

double penalised_objective(const MatmulTensor& t, const Factors<double>& x, const FixedMask& fixed,
                           const Weights& w) {
  double r = residual(t, x);
  double obj = r * r;
  for (int q = 0; q < 3; ++q)
    for (long k = 0; k < x.f[q].size(); ++k) {
      if (fixed.f[q].data()[k]) continue;
      double v = x.f[q].data()[k], d = v - nearest(w.kind, v);
      obj += w.reg * v * v + w.lattice * d * d;
    }
  return obj;
}

bool lm_step(const MatmulTensor& t, Factors<double>& x, const FixedMask& fixed, const Weights& w,
             LmState& state) {
  Layout L(x);
  Mat<double> h = gauss_newton(x, L);
  Vec g = gradient(t, x, L);
  // Free parameters only; Eigen storage is column-major, the layout row-major: map explicitly.
  std::vector<long> free;
  std::vector<std::array<long, 3>> where;
  for (int q = 0; q < 3; ++q)
    for (long i = 0; i < x.f[q].rows(); ++i)
      for (long r = 0; r < x.rank(); ++r)
        if (!fixed.f[q](i, r)) {
          free.push_back(L.index(q, i, r));
          where.push_back({q, i, r});
        }
  const long F = static_cast<long>(free.size());
  if (F == 0) return false;
  Mat<double> hf(F, F);
  Vec gf(F);
  for (long a = 0; a < F; ++a) {
    const auto& [q, i, r] = where[a];
    double v = x.f[q](i, r);
    gf(a) = g(free[a]) + w.reg * v + w.lattice * (v - nearest(w.kind, v));
    for (long b = 0; b < F; ++b) hf(a, b) = h(free[a], free[b]);
    hf(a, a) += w.reg + w.lattice;
  }
  const double before = penalised_objective(t, x, fixed, w);
  const double scale = hf.diagonal().maxCoeff();
  Factors<double> saved = x;
  for (int tries = 0; tries < 4; ++tries) {
    Mat<double> hd = hf;
    hd.diagonal().array() += state.damping * scale;
    Vec step = -hd.llt().solve(gf);
    for (long a = 0; a < F; ++a) {
      const auto& [q, i, r] = where[a];
      x.f[q](i, r) = saved.f[q](i, r) + step(a);
    }
    if (w.clip > 0)
      for (long a = 0; a < F; ++a) {
        const auto& [q, i, r] = where[a];
        x.f[q](i, r) = soft_clip(x.f[q](i, r), w.clip);
      }
    double after = penalised_objective(t, x, fixed, w);
    if (std::isfinite(after) && after < before) {
      state.damping = std::max(state.damping / 3, 1e-12);
      state.rejected = 0;
      return true;
    }
    state.damping = std::min(state.damping * 8, 1e6);
    x = saved;
  }
  ++state.rejected;
  return false;
}

}  // namespace tdisc::search::numeric
