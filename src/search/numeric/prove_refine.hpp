// Steps 1–3 of prove_numerical (prove.hpp): Gauss–Newton in seed space, gauge fixing, and the
// refinement in GMP floats.
#pragma once
#include <vector>

#include "src/search/numeric/high_precision.hpp"
#include "src/search/numeric/prove.hpp"

namespace tdisc::search::numeric {

// Gauss–Newton (minimum-norm steps) on the coordinates `free`; returns ‖X − T‖ at the end.
double gauss_newton(const SeedSpace& s, Vec<cdouble>& theta, const std::vector<int>& free, int iterations,
                    double target);

struct GaugeFix {
  int family_dimension = 0;      // complex nullity of the Jacobian at the start
  std::vector<int> fixed, free;  // fixed coordinates (now exactly 1) and the others
  double residual = 0;           // after the continuation
  double conditioning = 0;       // σ_min/σ_max of the Jacobian on the free coordinates
  Mat<cdouble> jacobian_free;    // that Jacobian, (nm·mp·pn) × free: the refinement's linear model
};
// Moves `family_dimension` coordinates to 1 along the solution family; theta is updated.
GaugeFix fix_gauge(const SeedSpace& s, Vec<cdouble>& theta, double tolerance);

// The exact term maps E_t = A_g·B_o of the ansatz, (nm+mp+pn) × d_o each, in term order.
std::vector<CoeffMatrix> exact_term_maps(const SeedSpace& s);

struct HpRefinement {
  std::vector<HpComplex> theta;  // every coordinate, the fixed ones exactly 1
  long residual_exponent = 0;    // max |X − T| entry ≤ 2^residual_exponent
  int iterations = 0;
};
HpRefinement refine_hp(const SeedSpace& s, const Vec<cdouble>& theta, const GaugeFix& g, unsigned bits);

}  // namespace tdisc::search::numeric
