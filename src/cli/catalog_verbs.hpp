// The verbs of `tdisc catalog` (list, best, add, check, index, derive), each with its own options
// table; shared defaults for where the catalogue and the best-known table live.
#pragma once
#include <string>

#include "base/params/settings.hpp"
#include "base/params/table.hpp"
#include "src/cli/commands.hpp"

namespace tdisc::cli {

// <source tree>/algorithms, baked in at build time (TDISC_CATALOG_DIR overrides through --dir's mirror).
std::string default_catalogue_dir();
// --dir DIR of every catalog verb, mirrored by TDISC_CATALOG_DIR (one meaning wherever it is read).
const params::Param& catalogue_dir_param();
// <source tree>/algorithms/best-known/fmm_sota.json (TDISC_CATALOG_SOTA overrides).
std::string default_best_known_path();
// <source tree>/algorithms/best-known/rings.tsv, the best known rank per format and ring (TDISC_CATALOG_RINGS overrides).
std::string default_known_rings_path();
const params::Param& known_rings_param();

int catalog_list(const Args& args);
int catalog_best(const Args& args);
int catalog_add(const Args& args);
int catalog_check(const Args& args);
int catalog_index(const Args& args);
int catalog_derive(const Args& args);
int catalog_import_sources(const Args& args);
// catalog derive sweep IN… (cmd_catalog_sweep.cpp), with catalog derive's parsed options.
int catalog_sweep(const std::vector<std::string>& inputs, const params::Settings& o);

}  // namespace tdisc::cli
