// Is a near-miss on the solution set, or only close to T? Unregularised, unclipped ALS sweeps on a
// copy decide. Near an exact decomposition the residual falls linearly (3x3:23, 2026-11-23: 2.3e-5 →
// 6.3e-7 in 200 sweeps, ‖x‖∞ fixed at 1.23); at a border-rank approximation it falls only as the
// norms grow (2x4x5:32: 7.6e-2 → 4.8e-2 while ‖x‖∞ grows 2.2 → 2.4), and in a swamp it creeps.
// Neither has an exact scheme nearby, so rounding it spends a thread's seconds for nothing. Slow
// convergence alone does not decide (exact schemes can converge slowly): a degenerate near-miss also
// has an entry beyond the clip, where the continuous phase held it back.
#pragma once
#include "src/search/numeric/params.hpp"
#include "src/search/numeric/tensor.hpp"

namespace tdisc::search::numeric {

struct PolishTest {
  double before = 0;  // residual of the near-miss
  double after = 0;   // after params.polish_iterations sweeps
  double largest = 0; // largest |entry| of the near-miss
  bool converging = true;
  double ratio() const { return before > 0 ? after / before : 0; }
};

// x is left unchanged. With polish_iterations 0 the test is off and every near-miss converges.
template <class S>
PolishTest polish_test(const MatmulTensor& t, const Factors<S>& x, const Params& p);

}  // namespace tdisc::search::numeric
