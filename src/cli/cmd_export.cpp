// tdisc export — placeholder until its issue lands; says so and fails rather than pretending.
#include <iostream>

#include "src/cli/commands.hpp"

namespace tdisc::cli {

int cmd_export(const Args&) {
  std::cerr << "tdisc: 'export' is not implemented in this build yet\n";
  return kUsage;
}

}  // namespace tdisc::cli
