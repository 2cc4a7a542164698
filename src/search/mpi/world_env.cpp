// The parts of world.hpp that need no MPI library, shared by MPI and non-MPI builds: whether mpirun
// started this process (from the environment it sets) and clocks any thread may read.
#include <time.h>

#include <chrono>
#include <cstdlib>

#include "src/search/mpi/world.hpp"

namespace tdisc::search::mpi {

bool launched() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS"})
    if (const char* e = std::getenv(v); e && std::atoi(e) > 1) return true;
  return false;
}

// Not MPI_Wtime: engine threads ask the time too, and only the pump thread may call MPI.
double wall_time() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

double thread_cpu_time() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

}  // namespace tdisc::search::mpi
