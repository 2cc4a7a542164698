// The lattices coefficients are pulled onto ({0,±1}, Z, ½·Z, ½·Z[i]) and the penalty that pulls
// them there (Smirnov 2013 "quantisation"; AlphaEvolve 2025 discretisation loss on ½·Z[i]).
#pragma once
#include <optional>
#include <string>

#include "decomposition/coeff.hpp"
#include "src/search/numeric/tensor.hpp"

namespace tdisc::search::numeric {

enum class Lattice { Ternary, Integer, Half, HalfGaussian };

std::optional<Lattice> parse_lattice(const std::string& s);  // "ternary", "integer", "half", "half-gaussian"
std::string lattice_name(Lattice l);
std::string lattice_list();
bool lattice_is_complex(Lattice l);

// Nearest lattice point. A real lattice applied to a complex number rounds the real part and
// drops the imaginary part (it is then far from the lattice and the penalty says so).
double nearest(Lattice l, double x);
cdouble nearest(Lattice l, cdouble x);

// The exact value of a lattice point (every lattice point is a dyadic rational, exact in double).
Coeff exact_value(double x);
Coeff exact_value(cdouble x);

// The simplest rational p/q with q ≤ max_den close to each part (else the nearest multiple of
// 1/max_den): the repair's wider net for ¼, ⅓ or ⅛ (the rational 4x4:48 of the FMM catalogue).
Coeff snap_rational(double re, double im, int max_den);

// Σ |x − nearest(x)|² over the free entries, and the largest single distance.
struct LatticeDistance {
  double sum_sq = 0, max = 0;
};
template <class S>
LatticeDistance lattice_distance(Lattice l, const Factors<S>& x);

}  // namespace tdisc::search::numeric
