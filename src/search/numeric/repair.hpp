// Exact repair of a rounded decomposition: verify it as it stands, else fix two factors and solve
// the third exactly over Q or Q(i) (the linear step of Smirnov 2013 and of Hensel-style lifting).
#pragma once
#include <array>
#include <optional>
#include <string>

#include "decomposition/scheme.hpp"
#include "src/search/numeric/lattice.hpp"

namespace tdisc::search::numeric {

// Exact factors, column r = term r: (n·m) × R, (m·p) × R, (p·n) × R.
using ExactFactors = std::array<CoeffMatrix, 3>;

// Rounds every entry: onto the lattice (max_den = 0) or onto the simplest rational with
// denominator dividing max_den (2, 4, 8: reaches the ¼ and ⅛ of the rational 4x4:48).
template <class S>
ExactFactors round_factors(const Factors<S>& x, Lattice l, int max_den);

Scheme to_scheme(Format f, const ExactFactors& x, Ring ring);

struct RepairResult {
  std::optional<Scheme> scheme;  // set only when verify(scheme, ring) proved it valid
  std::string how;               // "rounded" or "solved factor W exactly"
  std::string why_not;
};

// Verifies the rounded factors; if they fail, solves each factor in turn exactly given the other
// two. The returned scheme has passed the exact verifier over `ring`.
RepairResult repair(Format f, const ExactFactors& x, Ring ring);

// The cheap floating-point screen the engine runs first: the least-squares residual of solving
// factor q given the other two (zero, up to rounding, when an exact repair can succeed).
double repair_residual(Format f, const ExactFactors& x, int q);

}  // namespace tdisc::search::numeric
