// One walker per thread over a shared pool of best states (Kauers–Moosbauer 2022), reporting
// improvements (lifted when the walk is modular and the target is not) and checkpointing.
#pragma once
#include <string>
#include "src/search/engine.hpp"
#include "src/search/flip/params.hpp"
#include "src/search/flip/portfolio.hpp"

namespace tdisc::search::flip {

// A lane of a portfolio (portfolio.hpp): its walkers are every thread of the search, walker w
// running while the portfolio gives the lane more than w threads (parked otherwise).
struct LaneGate {
  Portfolio* portfolio = nullptr;  // none: config.threads walkers, always running
  int lane = 0;
  std::string recipe;  // the lane's recipe row ("": the engine's own lane): part of its MPI island's name
};

// Runs the walkers over field F until the reporter says stop (or max_flips per walker).
template <class F>
void run_walkers(const EngineConfig& config, const FlipParams& params, Reporter& reporter, LaneGate gate = {});

}  // namespace tdisc::search::flip
