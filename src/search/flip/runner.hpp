// One walker per thread over a shared pool of best states (Kauers–Moosbauer 2022), reporting
// improvements (lifted when the walk is modular and the target is not) and checkpointing.
#pragma once
#include "src/search/engine.hpp"
#include "src/search/flip/params.hpp"

namespace tdisc::search::flip {

// Runs the walkers over field F until the reporter says stop (or max_flips per walker).
template <class F>
void run_walkers(const EngineConfig& config, const FlipParams& params, Reporter& reporter);

}  // namespace tdisc::search::flip
