// The verbs of `tdisc catalog` (list, best, add, check, index, derive), each with its own options
// table; where the catalogue and the best-known tables live is catalogue_files.hpp.
#pragma once
#include <string>

#include "base/params/settings.hpp"
#include "base/params/table.hpp"
#include "src/cli/catalogue_files.hpp"
#include "src/cli/commands.hpp"

namespace tdisc::cli {

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
