// Every command's parameter table, for the help, docs/parameters.md and the tests of the tables
// themselves (no flag or environment name with two meanings, every default inside its range).
#pragma once
#include <vector>

#include "base/params/table.hpp"

namespace tdisc::cli {

const params::Table& search_table();
const params::Table& campaign_table();
const params::Table& verify_table();
const params::Table& import_table();
const params::Table& export_table();
const params::Table& catalog_list_table();
const params::Table& catalog_best_table();
const params::Table& catalog_add_table();
const params::Table& catalog_check_table();
const params::Table& catalog_index_table();
const params::Table& catalog_derive_table();
const params::Table& catalog_sources_table();
const params::Table& codegen_table();
const params::Table& bench_table();
const params::Table& tune_table();
const params::Table& report_table();
const params::Table& symmetry_table();
const params::Table& recipe_table();
const params::Table& descend_table();
const params::Table& prove_table();
const params::Table& evolve_table();

// All of the above, in the order of `tdisc --help`.
std::vector<const params::Table*> command_tables();
// The parameter tables of the registered engines (flip, numeric, llm, …), by name.
std::vector<const params::Table*> engine_tables();
// docs/parameters.md: every command's and every engine's table (`tdisc help --markdown`).
std::string parameters_markdown();

}  // namespace tdisc::cli
