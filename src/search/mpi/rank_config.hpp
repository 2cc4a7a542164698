// What differs between the ranks of one search (pure functions, no MPI): each rank's seed, its
// engine parameters (the numeric engine's share of restarts and GPU), its default thread count.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "src/search/mpi/world.hpp"

namespace tdisc::search::mpi {

// Rank 0 keeps the run's seed. Flip walks get seed + rank·c (c odd, not the lanes' φ: independent islands); the numeric engine
// keeps the run's seed on every rank, since it splits the restart indices instead (rank_params).
unsigned long long rank_seed(unsigned long long seed, const std::string& engine, int rank);

// The numeric engine on rank k of N: restart_offset k, restart_stride N (together the restarts of a
// single process), gpu = the local rank (one GPU per rank of a host). Others: unchanged.
nlohmann::json rank_params(const std::string& engine, nlohmann::json params, const World& w);

// "--threads 0" under mpirun: the host's cores shared by the ranks on it (at least 1).
int threads_per_rank(int hardware_threads, const World& w);

}  // namespace tdisc::search::mpi
