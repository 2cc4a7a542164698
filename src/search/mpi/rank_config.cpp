// Per-rank settings of an MPI search (see rank_config.hpp), and the launch test read from the
// environment that mpirun sets, shared by MPI and non-MPI builds.
#include "src/search/mpi/rank_config.hpp"

#include <algorithm>
#include <cstdlib>

namespace tdisc::search::mpi {

bool launched() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS"})
    if (const char* e = std::getenv(v); e && std::atoi(e) > 1) return true;
  return false;
}

unsigned long long rank_seed(unsigned long long seed, const std::string& engine, int rank) {
  if (engine == "numeric") return seed;
  return seed + 0xD1B54A32D192ED03ull * static_cast<unsigned long long>(rank);
}

nlohmann::json rank_params(const std::string& engine, nlohmann::json params, const World& w) {
  if (engine != "numeric") return params;
  params["restart_offset"] = w.rank;
  params["restart_stride"] = w.size;
  params["device_index"] = w.local_rank;
  return params;
}

int threads_per_rank(int hardware_threads, const World& w) { return std::max(1, hardware_threads / std::max(1, w.local_size)); }

}  // namespace tdisc::search::mpi
