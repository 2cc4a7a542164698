// Levenberg–Marquardt on real factors with the same penalties as ALS (regularisation, lattice
// pull, fixed entries), following Tichavský–Phan–Cichocki (2017) for the matmul tensor.
#pragma once
#include "src/search/numeric/als.hpp"

namespace tdisc::search::numeric {

struct LmState {
  double damping = 1e-3;  // relative to the largest diagonal entry of JᵀJ
  int rejected = 0;       // consecutive rejected steps
};

// Penalised objective ‖E‖² + reg·‖x_free‖² + lattice·Σ_free |x − nearest(x)|².
double penalised_objective(const MatmulTensor& t, const Factors<double>& x, const FixedMask& fixed,
                           const Weights& w);

// One damped Gauss–Newton step on the free entries; the step is kept only if the penalised
// objective decreases (then damping shrinks), else damping grows. Returns whether it was kept.
bool lm_step(const MatmulTensor& t, Factors<double>& x, const FixedMask& fixed, const Weights& w,
             LmState& state);

// Number of free parameters above which LM is too slow per step (dense O(N³) solve) and the
// engine's "auto" method uses ALS instead.
constexpr long kLmMaxParameters = 1200;

}  // namespace tdisc::search::numeric
