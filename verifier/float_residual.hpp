// Floating-point views of a scheme: its factor matrices in complex doubles, and the Brent residual
// ‖Σ_r a_r ⊗ b_r ⊗ c_r − T⟨n,m,p⟩‖_F of floating-point factors (plain CP algebra, Kolda–Bader 2009).
// The one residual of the project: the numeric engines minimise it, the LLM evaluator scores with it,
// and a GPU engine checks its own against it. Shapes follow DESIGN §1 (trace form, row-major).
#pragma once
#include <Eigen/Dense>
#include <complex>

#include "decomposition/scheme.hpp"

namespace tdisc {

// Each entry re + i·im of an exact matrix, same shape.
Eigen::MatrixXcd to_complex(const CoeffMatrix& m);

// The factors with column r = term r (the transpose of the scheme's term-major rows).
struct FloatFactors {
  Eigen::MatrixXcd a;  // (n·m) × R, A[i][j] at row i·m+j
  Eigen::MatrixXcd b;  // (m·p) × R, B[j][k] at row j·p+k
  Eigen::MatrixXcd c;  // (p·n) × R, W[k][i] at row k·n+i
};
FloatFactors float_factors(const Scheme& s);

// S is double or std::complex<double>. a: (n·m) × R, b: (m·p) × R, c: (p·n) × R, column r = term r.
template <class S>
using FloatMatrix = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;

// E = Σ_r a_r ⊗ b_r ⊗ c_r − T, mode-0 unfolding: (n·m) × ((m·p)·(p·n)), E(a, b·(p·n) + c).
template <class S>
FloatMatrix<S> brent_residual_unfolding(Format f, const FloatMatrix<S>& a, const FloatMatrix<S>& b,
                                        const FloatMatrix<S>& c);

// ‖E‖_F (the norm, not its square), computed densely: exact enough near zero, unlike a Gram form.
template <class S>
double brent_residual(Format f, const FloatMatrix<S>& a, const FloatMatrix<S>& b, const FloatMatrix<S>& c);

// The residual of a scheme's own coefficients (0 up to rounding when it is valid over C):
// brent_residual of float_factors(s). A measure for scoring near-misses, never a verdict.
double brent_residual(const Scheme& s);

}  // namespace tdisc
