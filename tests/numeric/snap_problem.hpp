// The snap-phase test problem that the CPU reference test (tests/numeric/test_batch.cpp) and the
// [gpu] test (tests/gpu/test_numeric_gpu.cpp) share, so both check the same schedule: 2x2:7 over Q
// on the ternary lattice, no lattice pull and one relaxation sweep, so that only the snap phase
// (300 sweeps) can bring an off-lattice point back.
#pragma once
#include <nlohmann/json.hpp>

#include "src/search/numeric/batch_engine.hpp"
#include "src/search/numeric/batch_pack.hpp"
#include "tests/numeric/perturbed.hpp"

namespace tdisc::test {

// p: the engine's parameters for 2x2:7 over Q with the ternary lattice (snap_test_params).
inline search::numeric::Params snap_test_params(const search::Target& target) {
  return search::numeric::resolve(nlohmann::json{{"lattice", "ternary"}}, target);
}
inline search::numeric::BatchProblem snap_test_problem(const search::numeric::MatmulTensor& t,
                                                        const search::numeric::Params& p) {
  search::numeric::BatchProblem b = search::numeric::batch_problem(t, 7, p);
  b.schedule.sweeps = 200, b.schedule.stall = 200, b.schedule.noise_start = 0, b.schedule.reg_start = 1e-6;
  b.schedule.lattice_steps = 0, b.schedule.relax_steps = 1, b.schedule.snap_steps = 300;
  return b;
}

// Slot s's start (packed): Strassen with noise 0.5 on every entry, seed 40 + s.
inline std::vector<double> snap_test_start(const search::numeric::BatchProblem& b, int s) {
  return search::numeric::pack(b, perturbed<double>(strassen(), 0.5, 40 + static_cast<unsigned>(s)));
}

}  // namespace tdisc::test
