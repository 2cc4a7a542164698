// The engine state of an MPI run as checkpoint.json stores it, {"mpi":{"ranks":N,"engine":E},
// "ranks":[s_0,…,s_{N-1}]} (s_k: rank k's own engine state), and its redistribution over a different
// number of ranks for --resume: flip walkers dealt round-robin, pools merged; numeric restarts re-split.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace tdisc::search::mpi {

nlohmann::json combine_states(const std::vector<nlohmann::json>& states, const std::string& engine);
bool is_combined(const nlohmann::json& state);

// The states of `ranks` new ranks (null: start fresh) from a combined state, from a single-process
// state (as one rank), or from nothing.
std::vector<nlohmann::json> redistribute(const std::optional<nlohmann::json>& state, int ranks);

// A whole checkpoint.json of an MPI run made a single process's (--resume without mpirun): the state
// gathered into one, the per-rank counters of the progress line dropped. Other checkpoints unchanged.
nlohmann::json gather_checkpoint(nlohmann::json checkpoint);

}  // namespace tdisc::search::mpi
