// Levenberg–Marquardt with the Gauss–Newton matrix JᴴJ assembled block by block from Gram
// matrices (Tichavský–Phan–Cichocki 2017): O(N²) to form, one Cholesky (O(N³)) per step.
// Complex factors: E = [[A,B,C]] − T is holomorphic in the entries, so for the realified unknowns
// (Re x, Im x) the Gauss–Newton matrix is [[Re H, −Im H], [Im H, Re H]] with H = JᴴJ and the
// gradient is (Re Jᴴe, Im Jᴴe): the real 2N-system is the complex N-system written out, whose
// Cholesky is cheaper (1.25–1.35× for N ≥ 600, equal for small N; Eigen, SSE2). The penalties
// (reg·|x|², lattice·|x − nearest(x)|²) keep that form: their Hessians are multiples of I.
#include "src/search/numeric/lm.hpp"

#include <cmath>

namespace tdisc::search::numeric {

namespace {

using Index = Eigen::Matrix<long, Eigen::Dynamic, Eigen::Dynamic>;

// The free entries numbered factor by factor, row by row, term by term: pos[q](i, r) is the
// number of entry (q, i, r), −1 when it is fixed; where[n] gives (q, i, r) back.
struct FreeLayout {
  std::array<Index, 3> pos;
  std::vector<std::array<long, 3>> where;
  explicit FreeLayout(const FixedMask& fixed) {
    for (int q = 0; q < 3; ++q) {
      pos[q] = Index::Constant(fixed.f[q].rows(), fixed.f[q].cols(), -1);
      for (long i = 0; i < pos[q].rows(); ++i)
        for (long r = 0; r < pos[q].cols(); ++r)
          if (!fixed.f[q](i, r)) {
            pos[q](i, r) = static_cast<long>(where.size());
            where.push_back({q, i, r});
          }
    }
  }
  long size() const { return static_cast<long>(where.size()); }
};

// JᴴJ on the free entries. Diagonal blocks (rows i of factor q): (G_q' ∘ G_q'') with G = FᴴF;
// off-diagonal, entry (q,i,s) against (q2,j,r): conj(F_q2(j,s)) · F_q(i,r) · G_o(s,r), o the third.
template <class S>
Mat<S> gauss_newton(const Factors<S>& x, const FreeLayout& L) {
  const long R = x.rank();
  std::array<Mat<S>, 3> gram;
  for (int q = 0; q < 3; ++q) gram[q] = x.f[q].adjoint() * x.f[q];  // R × R, Hermitian
  Mat<S> h = Mat<S>::Zero(L.size(), L.size());
  // blk(s, r) couples entry (q, i, s) with entry (q2, j, r); the mirrored block is its adjoint.
  auto scatter = [&](int q, long i, int q2, long j, const Mat<S>& blk) {
    for (long s = 0; s < R; ++s) {
      const long a = L.pos[q](i, s);
      if (a < 0) continue;
      for (long r = 0; r < R; ++r) {
        const long b = L.pos[q2](j, r);
        if (b < 0) continue;
        h(a, b) = blk(s, r);
        h(b, a) = Eigen::numext::conj(blk(s, r));
      }
    }
  };
  for (int q = 0; q < 3; ++q) {
    Mat<S> g = gram[(q + 1) % 3].cwiseProduct(gram[(q + 2) % 3]);  // R × R
    for (long i = 0; i < x.f[q].rows(); ++i) scatter(q, i, q, i, g);
  }
  for (int q = 0; q < 3; ++q)
    for (int q2 = q + 1; q2 < 3; ++q2) {
      const Mat<S>& go = gram[3 - q - q2];
      for (long i = 0; i < x.f[q].rows(); ++i)
        for (long j = 0; j < x.f[q2].rows(); ++j)
          scatter(q, i, q2, j, (x.f[q2].row(j).adjoint() * x.f[q].row(i)).cwiseProduct(go));
    }
  return h;
}

// Jᴴe on the free entries: the gradient of ½‖E‖², one MTTKRP of the dense residual per mode.
template <class S>
Vec<S> gradient(const MatmulTensor& t, const Factors<S>& x, const FreeLayout& L) {
  Mat<S> e = residual_unfolding(t, x);  // (nm) × ((mp)·(pn))
  const long I = t.dims[0], J = t.dims[1], K = t.dims[2];
  const int R = x.rank();
  const Mat<S>&A = x.f[0], &B = x.f[1], &C = x.f[2];
  std::array<Mat<S>, 3> g;  // g[q]: I_q × R
  for (int q = 0; q < 3; ++q) g[q] = Mat<S>::Zero(x.f[q].rows(), R);
  for (long a = 0; a < I; ++a)
    for (long b = 0; b < J; ++b)
      for (long c = 0; c < K; ++c) {
        const S v = e(a, b * K + c);
        if (v == S(0)) continue;
        for (int r = 0; r < R; ++r) {
          g[0](a, r) += v * Eigen::numext::conj(B(b, r) * C(c, r));
          g[1](b, r) += v * Eigen::numext::conj(A(a, r) * C(c, r));
          g[2](c, r) += v * Eigen::numext::conj(A(a, r) * B(b, r));
        }
      }
  Vec<S> out(L.size());
  for (long n = 0; n < L.size(); ++n) out(n) = g[L.where[n][0]](L.where[n][1], L.where[n][2]);
  return out;
}

}  // namespace

template <class S>
double penalised_objective(const MatmulTensor& t, const Factors<S>& x, const FixedMask& fixed,
                           const Weights& w) {
  double r = residual(t, x);
  double obj = r * r;
  for (int q = 0; q < 3; ++q)
    for (long k = 0; k < x.f[q].size(); ++k) {
      if (fixed.f[q].data()[k]) continue;
      const S v = x.f[q].data()[k];
      obj += w.reg * std::norm(v) + w.lattice * std::norm(v - S(nearest(w.kind, v)));
    }
  return obj;
}

template <class S>
bool lm_step(const MatmulTensor& t, Factors<S>& x, const FixedMask& fixed, const Weights& w, LmState& state) {
  const FreeLayout L(fixed);
  const long F = L.size();
  if (F == 0) return false;
  Mat<S> h = gauss_newton(x, L);  // F × F, Hermitian PSD
  Vec<S> g = gradient(t, x, L);   // F
  for (long a = 0; a < F; ++a) {
    const auto& [q, i, r] = L.where[a];
    const S v = x.f[q](i, r);
    g(a) += w.reg * v + w.lattice * (v - S(nearest(w.kind, v)));
    h(a, a) += S(w.reg + w.lattice);
  }
  const double before = penalised_objective(t, x, fixed, w);
  const double scale = h.diagonal().real().maxCoeff();
  Factors<S> saved = x;
  const Vec<S> diagonal = h.diagonal();
  Eigen::LLT<Mat<S>> llt(F);  // one workspace for every damping tried
  for (int tries = 0; tries < 4; ++tries) {
    h.diagonal() = diagonal.array() + S(state.damping * scale);
    const Vec<S> step = -llt.compute(h).solve(g);
    for (long a = 0; a < F; ++a) {
      const auto& [q, i, r] = L.where[a];
      x.f[q](i, r) = saved.f[q](i, r) + step(a);
      if (w.clip > 0) x.f[q](i, r) = soft_clip(x.f[q](i, r), w.clip);
    }
    const double after = penalised_objective(t, x, fixed, w);
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

template double penalised_objective(const MatmulTensor&, const Factors<double>&, const FixedMask&, const Weights&);
template double penalised_objective(const MatmulTensor&, const Factors<cdouble>&, const FixedMask&, const Weights&);
template bool lm_step(const MatmulTensor&, Factors<double>&, const FixedMask&, const Weights&, LmState&);
template bool lm_step(const MatmulTensor&, Factors<cdouble>&, const FixedMask&, const Weights&, LmState&);

}  // namespace tdisc::search::numeric
