// The verbs of `tdisc catalog` (list, best, add, check, index, derive), each with its own options
// table; shared defaults for where the catalogue and the best-known table live.
#pragma once
#include <string>

#include "src/cli/commands.hpp"

namespace tdisc::cli {

// <source tree>/algorithms, baked in at build time (TDISC_CATALOG overrides through --dir's mirror).
std::string default_catalogue_dir();
// <source tree>/algorithms/best-known/fmm_sota.json (TDISC_SOTA overrides).
std::string default_best_known_path();

int catalog_list(const Args& args);
int catalog_best(const Args& args);
int catalog_add(const Args& args);
int catalog_check(const Args& args);
int catalog_index(const Args& args);
int catalog_derive(const Args& args);

}  // namespace tdisc::cli
