// The matmul tensor T⟨n,m,p⟩ in trace form as a sparse list of its nmp ones, and floating-point
// factor matrices (real or complex); their residual ‖T − [[A,B,C]]‖_F is the verifier's (DESIGN §1).
#pragma once
#include <Eigen/Dense>
#include <array>
#include <complex>
#include <vector>

#include "decomposition/format.hpp"
#include "verifier/float_residual.hpp"

namespace tdisc::search::numeric {

using cdouble = std::complex<double>;
template <class S>
using Mat = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;
template <class S>
using Vec = Eigen::Matrix<S, Eigen::Dynamic, 1>;
using Mask = Eigen::Matrix<unsigned char, Eigen::Dynamic, Eigen::Dynamic>;

// The ones of T: (a, b, c) with a = i·m+j, b = j·p+k, c = k·n+i. For each mode q the triples are
// rotated so that the updated factor comes first: mode 0 (a,b,c), mode 1 (b,c,a), mode 2 (c,a,b).
struct MatmulTensor {
  Format format;
  std::array<int, 3> dims{};                          // nm, mp, pn
  std::array<std::vector<std::array<int, 3>>, 3> ones;  // per mode, nmp triples
};

MatmulTensor matmul_tensor(Format f);

// Factor matrices; column r is term r. a: (n·m) × R, b: (m·p) × R, c: (p·n) × R.
template <class S>
struct Factors {
  std::array<Mat<S>, 3> f;
  int rank() const { return static_cast<int>(f[0].cols()); }
  long size() const { return f[0].size() + f[1].size() + f[2].size(); }
};

// Which entries are fixed (1) during progressive rounding; same shapes as the factors.
struct FixedMask {
  std::array<Mask, 3> f;
  long count() const;
};
template <class S>
FixedMask no_fixed(const Factors<S>& x);

// ‖T − Σ_r a_r ⊗ b_r ⊗ c_r‖_F and its dense mode-0 unfolding E = model − T, (nm) × ((mp)·(pn)):
// the verifier's float residual (verifier/float_residual.hpp) on the engine's factor type.
template <class S>
double residual(const MatmulTensor& t, const Factors<S>& x) {
  return brent_residual<S>(t.format, x.f[0], x.f[1], x.f[2]);
}
template <class S>
Mat<S> residual_unfolding(const MatmulTensor& t, const Factors<S>& x) {
  return brent_residual_unfolding<S>(t.format, x.f[0], x.f[1], x.f[2]);
}

}  // namespace tdisc::search::numeric
