// tdisc import — placeholder until its issue lands; says so and fails rather than pretending.
#include <iostream>

#include "src/cli/commands.hpp"

namespace tdisc::cli {

int cmd_import(const Args&) {
  std::cerr << "tdisc: 'import' is not implemented in this build yet\n";
  return kUsage;
}

}  // namespace tdisc::cli
