// Per-rank settings of an MPI search (see rank_config.hpp).
#include "src/search/mpi/rank_config.hpp"

#include <algorithm>

namespace tdisc::search::mpi {

unsigned long long rank_seed(unsigned long long seed, const std::string& engine, int rank) {
  if (engine == "numeric") return seed;
  return seed + 0xD1B54A32D192ED03ull * static_cast<unsigned long long>(rank);
}

nlohmann::json rank_params(const std::string& engine, nlohmann::json params, const World& w) {
  if (engine != "numeric") return params;
  params["restart_offset"] = w.rank;
  params["restart_stride"] = w.size;
  params["gpu"] = w.local_rank;  // the numeric engine's CUDA device (--device cuda): one GPU per rank of a host
  return params;
}

int threads_per_rank(int hardware_threads, const World& w) { return std::max(1, hardware_threads / std::max(1, w.local_size)); }

}  // namespace tdisc::search::mpi
