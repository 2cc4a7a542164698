// Exact schemes from a numerical point inside a symmetric ansatz: progressive rounding of the seed
// parameters θ onto the lattice, one entry at a time (the nearest first), each followed by a
// Levenberg–Marquardt re-fit of the free entries in seed space, then the exact expansion and the
// verifier. With a few dozen seed unknowns (the rational 4x4:48's group leaves 38) this is cheap
// where rounding the 2,304 expanded entries is not.
#pragma once
#include <functional>
#include <optional>
#include <string>

#include "decomposition/scheme.hpp"
#include "src/search/numeric/params.hpp"
#include "src/search/numeric/seed_space.hpp"

namespace tdisc::search::numeric {

struct SeedRounding {
  std::optional<Scheme> scheme;  // set only when the exact expansion verifies over the target ring
  double exact_fraction = 0;     // θ entries fixed on the lattice when it ended
  double residual = 0;           // after the last re-fit
  std::string how;               // what happened, for events
};

// Real ansätze only (θ real); the lattice is params.lattice (½·Z for Half, Z otherwise).
SeedRounding round_seeds(const SeedSpace& s, const MatmulTensor& t, const Params& p, const Vec<double>& theta,
                         Ring ring, const std::function<bool()>& stopped);

// Levenberg–Marquardt on the free entries of θ (free[k] true), `iterations` steps at most, until the
// residual falls below `target`. Returns the residual reached.
double refit_seeds(const SeedSpace& s, const MatmulTensor& t, Vec<double>& theta, const std::vector<bool>& free,
                   int iterations, double target);

}  // namespace tdisc::search::numeric
