// Nearest points of the coefficient lattices, their exact values, and the distance to them.
// The lattices are AlphaEvolve's (2025) ½·Z[i] and its real and ternary sublattices.
#include "src/search/numeric/lattice.hpp"

#include <algorithm>
#include <cmath>

namespace tdisc::search::numeric {

std::optional<Lattice> parse_lattice(const std::string& s) {
  if (s == "ternary") return Lattice::Ternary;
  if (s == "integer") return Lattice::Integer;
  if (s == "half") return Lattice::Half;
  if (s == "half-gaussian") return Lattice::HalfGaussian;
  return std::nullopt;
}

std::string lattice_name(Lattice l) {
  switch (l) {
    case Lattice::Ternary: return "ternary";
    case Lattice::Integer: return "integer";
    case Lattice::Half: return "half";
    case Lattice::HalfGaussian: return "half-gaussian";
  }
  return "?";
}

std::string lattice_list() { return "ternary, integer, half, half-gaussian"; }

bool lattice_is_complex(Lattice l) { return l == Lattice::HalfGaussian; }

double nearest(Lattice l, double x) {
  switch (l) {
    case Lattice::Ternary: return std::clamp(std::round(x), -1.0, 1.0);
    case Lattice::Integer: return std::round(x);
    case Lattice::Half:
    case Lattice::HalfGaussian: return std::round(2 * x) / 2;
  }
  return x;
}

cdouble nearest(Lattice l, cdouble x) {
  if (!lattice_is_complex(l)) return {nearest(l, x.real()), 0.0};
  return {nearest(l, x.real()), nearest(l, x.imag())};
}

Coeff exact_value(double x) { return *Coeff::from_double(x); }
Coeff exact_value(cdouble x) { return *Coeff::from_double(x.real(), x.imag()); }

namespace {
// Smallest denominator first, so ½ is preferred to 4/8; the tolerance is a quarter of the
// smallest gap between fractions of denominator ≤ max_den, so no neighbour can be mistaken.
mpq_class snap_part(double x, int max_den) {
  const double tol = 0.25 / (static_cast<double>(max_den) * max_den);
  for (int q = 1; q <= max_den; ++q) {
    double r = std::round(x * q);
    if (std::abs(x - r / q) < tol) {
      mpq_class v(static_cast<long>(r), q);
      v.canonicalize();
      return v;
    }
  }
  mpq_class v(static_cast<long>(std::round(x * max_den)), max_den);  // nothing close: finest grid
  v.canonicalize();
  return v;
}
}  // namespace

Coeff snap_rational(double re, double im, int max_den) {
  return Coeff(snap_part(re, max_den), snap_part(im, max_den));
}

template <class S>
LatticeDistance lattice_distance(Lattice l, const Factors<S>& x) {
  LatticeDistance d;
  for (const auto& m : x.f)
    for (Eigen::Index k = 0; k < m.size(); ++k) {
      double e = std::abs(m.data()[k] - S(nearest(l, m.data()[k])));
      d.sum_sq += e * e;
      d.max = std::max(d.max, e);
    }
  return d;
}

template LatticeDistance lattice_distance(Lattice, const Factors<double>&);
template LatticeDistance lattice_distance(Lattice, const Factors<cdouble>&);

}  // namespace tdisc::search::numeric
