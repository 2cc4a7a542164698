#include "src/search/mpi/launch.hpp"

#include "src/search/mpi/follow.hpp"
#include "src/search/mpi/lead.hpp"
#include "src/search/mpi/world.hpp"

namespace tdisc::search::mpi {

int run_ranks(const std::function<int(Lead*)>& here, const std::function<int(std::exception_ptr)>& exit_code) {
  if (!launched()) return here(nullptr);
  const World world = init();
  if (world.rank != 0) return follow(world);
  Lead lead(world);
  int code = 0;
  try {
    code = here(&lead);
  } catch (...) {
    lead.cancel(exit_code(std::current_exception()));
    throw;
  }
  return lead.close(code);
}

}  // namespace tdisc::search::mpi
