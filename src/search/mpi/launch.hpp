// A command under mpirun or not (docs/mpi.md): in a single process `here` runs with no lead; under
// mpirun rank 0 runs `here` with its Lead, whose engine drives the others, and every other rank
// takes its setup from rank 0 (follow.hpp) and never reads the command line further.
#pragma once
#include <exception>
#include <functional>

namespace tdisc::search::mpi {

class Lead;

// Returns the exit code of this process. An error on rank 0 ends the other ranks quietly with
// exit_code(the error) and is rethrown.
int run_ranks(const std::function<int(Lead*)>& here, const std::function<int(std::exception_ptr)>& exit_code);

}  // namespace tdisc::search::mpi
