// Levenberg–Marquardt on real or complex factors with the same penalties as ALS (regularisation,
// lattice pull, fixed entries), following Tichavský–Phan–Cichocki (2017) for the matmul tensor.
#pragma once
#include <type_traits>

#include "src/search/numeric/als.hpp"

namespace tdisc::search::numeric {

struct LmState {
  double damping = 1e-3;  // relative to the largest diagonal entry of JᴴJ
  int rejected = 0;       // consecutive rejected steps
};

// Penalised objective ‖E‖² + reg·‖x_free‖² + lattice·Σ_free |x − nearest(x)|².
template <class S>
double penalised_objective(const MatmulTensor& t, const Factors<S>& x, const FixedMask& fixed,
                           const Weights& w);

// One damped Gauss–Newton step on the free entries; the step is kept only if the penalised
// objective decreases (then damping shrinks), else damping grows. Returns whether it was kept.
// Complex factors: the step of the realified problem (unknowns Re x, Im x; residuals Re E, Im E),
// solved as the equivalent Hermitian system (JᴴJ + μI) δ = −Jᴴe since E is holomorphic in x.
template <class S>
bool lm_step(const MatmulTensor& t, Factors<S>& x, const FixedMask& fixed, const Weights& w, LmState& state);

// Number of free real parameters above which LM is too slow per step (dense O(N³) solve) and the
// engine's "auto" method uses ALS instead.
constexpr long kLmMaxParameters = 1200;

// Real parameters behind `entries` free entries: two per complex entry (real and imaginary part).
template <class S>
constexpr long real_parameters(long entries) {
  return std::is_same_v<S, cdouble> ? 2 * entries : entries;
}

}  // namespace tdisc::search::numeric
