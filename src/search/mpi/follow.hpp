// A rank other than 0 of an MPI search: it waits for rank 0's setup, runs its engine with a
// Reporter that batches offers, events, counters and checkpoint states to rank 0, exchanges pools
// with its ring neighbour, stops when rank 0 says so, and exits with rank 0's exit code.
#pragma once
#include "src/search/mpi/world.hpp"

namespace tdisc::search::mpi {

int follow(const World& w);

}  // namespace tdisc::search::mpi
