// MPI start-up and shut-down (Open MPI, or any MPI-3 library): the thread level, the error
// handler (errors come back as codes, so a lost rank is reported rather than fatal) and the
// ranks of this host (MPI_Comm_split_type shared memory).
#include "src/search/mpi/world.hpp"

#include <mpi.h>

#include <chrono>
#include <cstdlib>
#include <iostream>

#include "base/error.hpp"

namespace tdisc::search::mpi {

World init() {
  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
    throw IoError("mpi", 0, "MPI_Init_thread failed");
  if (provided < MPI_THREAD_SERIALIZED) {
    std::cerr << "tdisc: mpi: the MPI library gives thread level " << provided << ", not MPI_THREAD_SERIALIZED\n";
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  World w;
  MPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &w.size);
  MPI_Comm host;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, w.rank, MPI_INFO_NULL, &host);
  MPI_Comm_rank(host, &w.local_rank);
  MPI_Comm_size(host, &w.local_size);
  MPI_Comm_free(&host);
  return w;
}

void finalize() {
  int done = 0;
  MPI_Finalized(&done);
  if (!done) MPI_Finalize();
}

void abort_job(int code) {
  std::cerr << std::flush;
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}


}  // namespace tdisc::search::mpi
