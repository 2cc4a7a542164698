// Rounding to exact coefficients and the exact repair: K·Xᵀ = T_(q) with K = Y ⊙ Z, solved over
// Q(i) by Gauss–Jordan (decomposition/exact_solve.cpp); every outcome goes through the exact verifier.
#include "src/search/numeric/repair.hpp"

#include "decomposition/exact_solve.hpp"
#include "verifier/float_residual.hpp"
#include "verifier/verify.hpp"

namespace tdisc::search::numeric {

namespace {

Coeff round_entry(double v, Lattice l, int max_den) {
  return max_den > 0 ? snap_rational(v, 0, max_den) : exact_value(nearest(l, v));
}
Coeff round_entry(cdouble v, Lattice l, int max_den) {
  return max_den > 0 ? snap_rational(v.real(), v.imag(), max_den) : exact_value(nearest(l, v));
}

// The system for factor q: K (J·K × R) with K[(y,z), r] = Y(y,r)·Z(z,r), and B (J·K × I) = T.
struct System {
  CoeffMatrix k, b;
};

System mode_system(Format f, const ExactFactors& x, int q) {
  MatmulTensor t = matmul_tensor(f);
  const CoeffMatrix& y = x[(q + 1) % 3];
  const CoeffMatrix& z = x[(q + 2) % 3];
  const Eigen::Index J = y.rows(), K = z.rows(), R = y.cols();
  System s;
  s.k = CoeffMatrix::Constant(J * K, R, Coeff(0));
  s.b = CoeffMatrix::Constant(J * K, x[q].rows(), Coeff(0));
  for (Eigen::Index a = 0; a < J; ++a)
    for (Eigen::Index c = 0; c < K; ++c)
      for (Eigen::Index r = 0; r < R; ++r)
        if (!y(a, r).is_zero() && !z(c, r).is_zero()) s.k(a * K + c, r) = y(a, r) * z(c, r);
  for (const auto& o : t.ones[q]) s.b(o[1] * K + o[2], o[0]) = 1;
  return s;
}

}  // namespace

template <class S>
ExactFactors round_factors(const Factors<S>& x, Lattice l, int max_den) {
  ExactFactors e;
  for (int q = 0; q < 3; ++q) {
    e[q] = CoeffMatrix(x.f[q].rows(), x.f[q].cols());
    for (Eigen::Index i = 0; i < x.f[q].rows(); ++i)
      for (Eigen::Index r = 0; r < x.f[q].cols(); ++r) e[q](i, r) = round_entry(x.f[q](i, r), l, max_den);
  }
  return e;
}

Scheme to_scheme(Format f, const ExactFactors& x, Ring ring) {
  Scheme s;
  s.format = f;
  s.ring = ring;
  s.u = x[0].transpose();
  s.v = x[1].transpose();
  s.w = x[2].transpose();
  return s;
}

double repair_residual(Format f, const ExactFactors& x, int q) {
  System s = mode_system(f, x, q);
  Mat<cdouble> k = to_complex(s.k), b = to_complex(s.b);
  Mat<cdouble> sol = k.colPivHouseholderQr().solve(b);
  return (k * sol - b).norm();
}

RepairResult repair(Format f, const ExactFactors& x, Ring ring) {
  RepairResult out;
  Scheme s = to_scheme(f, x, ring);
  Verdict v = verify(s, ring);
  if (v.valid) {
    out.scheme = std::move(s);
    out.how = "rounded";
    return out;
  }
  out.why_not = "rounded: " + v.why_not;
  static const char* names[3] = {"U", "V", "W"};
  for (int q = 2; q >= 0; --q) {
    if (repair_residual(f, x, q) > 1e-6) continue;  // no exact solution can exist
    System sys = mode_system(f, x, q);
    ExactSolution sol = solve_exact(sys.k, sys.b, x[q].transpose());
    if (!sol.x) continue;
    ExactFactors fixed = x;
    fixed[q] = sol.x->transpose();
    Scheme r = to_scheme(f, fixed, ring);
    Verdict rv = verify(r, ring);
    if (rv.valid) {
      out.scheme = std::move(r);
      out.how = std::string("solved factor ") + names[q] + " exactly";
      out.why_not.clear();
      return out;
    }
    out.why_not += std::string("; solving ") + names[q] + ": " + rv.why_not;
  }
  if (out.why_not.find("solving") == std::string::npos) out.why_not += "; no factor is solvable from the other two";
  return out;
}

template ExactFactors round_factors(const Factors<double>&, Lattice, int);
template ExactFactors round_factors(const Factors<cdouble>&, Lattice, int);

}  // namespace tdisc::search::numeric
