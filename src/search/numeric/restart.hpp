// One restart of the numeric search: initialise, optimise (regularisation and noise annealed),
// pull onto the lattice (ramped weight), round progressively, repair exactly, verify.
#pragma once
#include <chrono>
#include <functional>
#include <optional>
#include <random>

#include "decomposition/scheme.hpp"
#include "src/search/numeric/params.hpp"
#include "src/search/numeric/seed_space.hpp"
#include "src/search/numeric/tensor.hpp"

namespace tdisc::search::numeric {

// A near-miss kept to start later restarts from (never reported as a result).
struct Seed {
  Factors<cdouble> x;  // real runs keep zero imaginary parts
  double exact_fraction = 0;
  double residual = 0;
};

struct RestartOutcome {
  std::optional<Scheme> scheme;  // set only when exactly verified over the target ring
  std::string stage;             // "stalled", "degenerate", "rounding", "repair", "found", "stopped", "culled"
  double residual = 0;           // after the continuous phase
  double exact_fraction = 0;     // entries fixed on the lattice when rounding ended
  long steps = 0;                // optimisation steps (ALS sweeps or LM steps)
  std::string how;               // repair route or why it failed
  std::optional<Seed> near_miss;
  double rounded_residual = -1;  // GPU hand-over pre-check (handover.hpp); -1 when not computed
  double polish_ratio = -1;      // the near-miss test's residual after / before (polish.hpp); -1 when not run
  double largest_entry = -1;     // and the near-miss's largest |entry|
  std::vector<cdouble> numerical;  // ansatz: the seed parameters of a numerical solution (never exact)
};

struct RestartInput {
  const MatmulTensor& tensor;
  const Params& params;
  const Target& target;
  unsigned long long seed = 0;             // this restart's seed, from (run seed, index)
  std::optional<Seed> from{};              // start near a kept seed or a given scheme
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  std::function<bool()> stop{};            // polled; true ends the restart early
  const SeedSpace* ansatz = nullptr;       // set: the continuous phase runs in this seed space
};

RestartOutcome run_restart(const RestartInput& in);

// The batched (GPU) path: a restart's starting point, the same as run_restart's (real runs keep
// zero imaginary parts), and phases 3–4 (progressive rounding, exact repair, verification) from a
// point the device took through phases 1–2 (continuous optimisation, lattice pull, relaxation).
// A point whose entries all snap to an exact scheme goes straight to the repair ("snapped; …").
Factors<cdouble> initial_factors(const RestartInput& in);
RestartOutcome round_and_repair(const RestartInput& in, const Factors<cdouble>& x, double residual, long steps);

// The ansatz path in two halves, for the device driver (seed_batch.cpp): the restart's starting θ
// (the CPU path's, draw for draw) and everything after Adam: the pull on the host, the numerical
// solution, rounding and the exact repair. Complex θ is stored as complex; real ansätze keep im = 0.
std::vector<cdouble> initial_seeds(const RestartInput& in);
RestartOutcome finish_ansatz_restart(const RestartInput& in, const std::vector<cdouble>& theta, double residual,
                                     long steps, bool culled = false);
// Whether the ansatz path runs with complex θ (a complex ansatz, or complex factors asked for).
bool ansatz_is_complex(const Params& p, const SeedSpace& s);

// The per-restart seed: a SplitMix64 mix of the run seed and the restart index.
unsigned long long restart_seed(unsigned long long run_seed, unsigned long long index);

}  // namespace tdisc::search::numeric
