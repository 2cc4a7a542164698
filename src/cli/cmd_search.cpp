// tdisc search — placeholder until its issue lands; says so and fails rather than pretending.
#include <iostream>

#include "src/cli/commands.hpp"

namespace tdisc::cli {

int cmd_search(const Args&) {
  std::cerr << "tdisc: 'search' is not implemented in this build yet\n";
  return kUsage;
}

}  // namespace tdisc::cli
