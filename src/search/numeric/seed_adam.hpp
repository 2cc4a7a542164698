// The continuous phase inside a symmetric ansatz: Adam on the seed parameters (Kingma–Ba 2015), with
// the step size cut tenfold for the last stretch, as in the plain-Adam probe that finds Kaporin-type
// 4x4:48s (issue 25); then an optional lattice pull in seed space before the exact rounding.
#pragma once
#include <functional>
#include <random>

#include "src/search/numeric/params.hpp"
#include "src/search/numeric/seed_space.hpp"

namespace tdisc::search::numeric {

template <class S>
struct SeedRun {
  Vec<S> theta;           // the seed parameters reached
  double residual = 0;    // ‖X − T‖_F of the expansion (dense, exact in floating point)
  long steps = 0;
  bool pulled = false;    // the lattice pull ran
  bool culled = false;    // ended at cull_at with a residual above cull_residual
};

// A random start: θ ~ N(0, init_scale²) per real component (complex: per part, scaled by 1/√2).
template <class S>
Vec<S> random_seeds(const SeedSpace& s, double scale, std::mt19937_64& rng);

// Adam from θ0 until the residual falls below converge_residual, stalls for adam_stall steps or the
// step budget is spent; then, with ansatz_pull > 0 and a residual below discretise_below, the lattice
// pull (weight ramped to ansatz_pull over lattice_iterations steps) and relax_iterations steps without it.
// The recipe terms of p.recipe act on every step, their random draws hashed from `seed` (the restart's).
template <class S>
SeedRun<S> optimise_seeds(const SeedSpace& s, const MatmulTensor& t, const Params& p, Vec<S> theta0,
                          const std::function<bool()>& stopped, unsigned long long seed = 0);
// The lattice pull alone, from a converged point (the device runs Adam, the host the pull).
template <class S>
void pull_seeds(const SeedSpace& s, const MatmulTensor& t, const Params& p, SeedRun<S>& run,
                const std::function<bool()>& stopped);

}  // namespace tdisc::search::numeric
