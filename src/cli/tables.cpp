// The list of every parameter table, and docs/parameters.md generated from it.
#include "src/cli/tables.hpp"

#include <sstream>

#include "src/search/engine.hpp"
#include "base/params/help.hpp"

namespace tdisc::cli {

std::vector<const params::Table*> command_tables() {
  return {&search_table(),        &campaign_table(),      &verify_table(),        &import_table(),         &export_table(),
          &catalog_list_table(),  &catalog_best_table(),  &catalog_add_table(),    &catalog_check_table(),
          &catalog_index_table(), &catalog_derive_table(), &catalog_sources_table(), &codegen_table(), &bench_table(),
          &tune_table(),          &report_table(),        &symmetry_table(),       &prove_table(),
          &descend_table(),       &evolve_table(),        &recipe_table()};
}

std::vector<const params::Table*> engine_tables() {
  std::vector<const params::Table*> out;
  for (const std::string& name : search::engine_names())
    if (auto e = search::make_engine(name); e && e->param_table()) out.push_back(e->param_table());
  return out;
}

std::string parameters_markdown() {
  std::ostringstream os;
  os << "# Parameters\n\n"
        "Generated from the parameter tables (`base/params/table.hpp`) by `tdisc help --markdown`;\n"
        "do not edit. Regenerate with `build/ci/tdisc help --markdown > docs/parameters.md` (a test fails\n"
        "when this file is stale).\n\n"
        "Every command-line value comes from its flag, else its environment variable, else its default;\n"
        "a value out of range is refused with a message, never clamped. `tdisc search` prints the\n"
        "effective settings and where each came from, and stores them in `run.json`.\n\n"
        "Environment names are per command, `TDISC_<COMMAND>_<FLAG>` (`TDISC_SEARCH_SEED`,\n"
        "`TDISC_BENCH_SEED`), so no name means two things; the catalogue folder is the one shared name,\n"
        "`TDISC_CATALOG_DIR`, read by every `catalog` verb and by `search --catalog`.\n\n"
        "# Commands\n\n";
  for (const params::Table* t : command_tables()) os << params::markdown(*t, true);
  os << "# Engines\n\n"
        "Engine parameters are given to `tdisc search` as `--params '{\"name\": value}'` (or `@FILE`), and by\n"
        "LLM-proposed recipes; `tdisc search --help-params` lists them. Each one fills a member of its engine's\n"
        "parameter struct, whose initialiser is the default shown here. `tdisc search` prints the values an\n"
        "engine will use after its `settings:` line, each given, at its default, or derived by a named rule\n"
        "(`derived: anchor policy`, `derived: auto lattice`), and stores them in `run.json` (`resolved_params`).\n\n";
  for (const params::Table* t : engine_tables()) os << params::markdown(*t, false);
  return os.str();
}

}  // namespace tdisc::cli
