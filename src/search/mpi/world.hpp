// The MPI world of a search: whether this process was started by mpirun, its rank among the
// processes and on its host, and start-up/shut-down. world.cpp holds the MPI calls; no_mpi.cpp
// stands in for it in builds without MPI and says so when a search is started under mpirun.
#pragma once
#include <string>

namespace tdisc::search::mpi {

struct World {
  int rank = 0;        // 0 owns the run directory
  int size = 1;
  int local_rank = 0;  // among the ranks of this host: the GPU it takes
  int local_size = 1;
};

// Started by mpirun (Open MPI, MPICH, PMIx) with more than one process; read from the environment,
// so it can be asked before MPI is initialised (and in builds without MPI).
bool launched();
// MPI_Init_thread (serialised: one thread at a time calls MPI), errors returned, not fatal.
// Without MPI: a UsageError "built without MPI".
World init();
void finalize();
// Ends every rank of the job now (a lost rank, or an error after the others started).
[[noreturn]] void abort_job(int code);
double wall_time();        // seconds on a steady clock; safe from any thread
double thread_cpu_time();  // CPU seconds of the calling thread (costs measured on a busy machine)

}  // namespace tdisc::search::mpi
