// tdisc recipe list | promote RUN_DIR: the recipe table the search plan reads (docs/recipes.md).
// promote adds the recipe that won an LLM run (its program database, llm-database.json) to the
// table with its evidence (hits over seeds, mean time to target, machine, commit, command); a run
// with no recipe that reached its target is refused, so no row enters without evidence.
#include <algorithm>
#include <filesystem>
#include <iostream>

#include "base/error.hpp"
#include "base/io.hpp"
#include "decomposition/json_input.hpp"
#include "src/cli/catalog_verbs.hpp"
#include "src/cli/commands.hpp"
#include "src/cli/options.hpp"
#include "src/cli/tables.hpp"
#include "src/search/recipe_table.hpp"

namespace tdisc::cli {

const Table& recipe_table() {
  using namespace params;
  static const Table t{
      "recipe",
      "tdisc recipe list | promote RUN_DIR [--id ID] [--first] [--table FILE]",
      "The recipe table that 'tdisc search' runs for a target with no other flag (docs/recipes.md).\n"
      "list: its rows, first match first. promote RUN_DIR: adds the recipe that reached the target in\n"
      "an LLM run (the fittest in RUN_DIR/llm-database.json with at least one hit) as a row with its\n"
      "evidence; a run without such a recipe is refused (exit 2).",
      {with_metavar(text("table", nullptr, "the table [default: <catalog-dir>/recipes.json]"), "FILE"),
       with_metavar(text("id", nullptr, "promote: the new row's id [default: <format>-<rank>-<ring>-llm<program>]"), "ID"),
       flag("first", "promote: put the row first, so that it wins over rows already there for its target"),
       flag("replace", "promote: replace a row of the same id"),
       catalog_dir_flag()},
      "list | promote RUN_DIR",
      "TDISC_RECIPE_"};
  return t;
}

namespace {

using nlohmann::json;

json read_run_file(const std::string& path, const std::string& what) {
  return parse_json_input(read_text_file(path, InputKind::run_file), JsonSource{path, what, input_ceiling(InputKind::run_file)});
}

// The fittest recipe of the database that reached the target on at least one seed.
const json* winning_program(const json& db) {
  const json* best = nullptr;
  if (!db.contains("database") || !db["database"].is_object() || !db["database"].contains("programs") || !db["database"]["programs"].is_array())
    return nullptr;
  for (const json& p : db["database"]["programs"]) {
    if (!p.is_object() || !p.contains("body") || !p.contains("score") || !p["score"].is_object()) continue;
    if (p.value("kind", "") != "recipe" || p.value("score", json::object()).value("successes", 0) < 1) continue;
    if (!best || read_json_double(p["score"], "fitness", -1e9) > read_json_double((*best)["score"], "fitness", -1e9)) best = &p;
  }
  return best;
}

// The row: the target of run.json, the recipe's parameters that differ from its engine's defaults.
search::RecipeRow promoted_row(const json& run, const json& program, const std::string& dir) {
  const json& target = run.at("target");
  const json& body = program.at("body");
  search::RecipeRow row;
  row.format = *parse_format(target.at("size").get<std::string>());
  row.rank = std::to_string(target.at("rank").get<int>());
  row.rings = {*parse_ring(target.at("ring").get<std::string>())};
  row.engine = body.at("engine").get<std::string>();
  auto engine = search::make_engine(row.engine);
  if (!engine) throw InputError(dir, 0, "the winning recipe's engine " + row.engine + " is not in this build");
  const json defaults = engine->default_params();
  const json params = body.value("params", json::object());
  for (const auto& [key, value] : params.items())
    if (!defaults.contains(key) || defaults[key] != value) row.params[key] = value;
  for (const char* key : {"walk_ring", "symmetry"})
    if (row.engine == "flip" && row.params.contains(key) && row.params[key].is_string() && row.params[key] != "auto") {
      (key[0] == 'w' ? row.walk_ring : row.symmetry) = row.params[key].get<std::string>();
      row.params.erase(key);
    }
  if (row.params.value("device", "") == "cuda") row.device = "gpu";
  const json& score = program.at("score");
  const std::string rationale = body.value("rationale", "");
  row.why = "promoted from an LLM run (" + dir + ", program " + std::to_string(program.value("id", -1)) + ")" +
            (rationale.empty() ? "" : ": " + rationale.substr(0, 300));
  row.evidence = {{"seeds", score.value("seeds", 0)}, {"hits", score.value("successes", 0)},
                  {"mean_s", read_json_double(score, "mean_time", 0)}, {"budget_s", body.value("budget_seconds", 0.0)},
                  {"note", score.value("note", "")}, {"machine", run.value("machine", "")}, {"commit", run.value("tool", "")},
                  {"command", run.value("command", json())}, {"run", dir}, {"source", "tdisc recipe promote"}};
  row.id = row.format.str() + "-" + row.rank + "-" + target.at("ring").get<std::string>() + "-llm" + std::to_string(program.value("id", -1));
  return row;
}

int promote(const Settings& o, const std::string& dir, const std::string& table_path) {
  const json run = read_run_file(dir + "/run.json", "a tdisc run.json");
  const std::string db_path = dir + "/llm-database.json";
  if (!std::filesystem::exists(db_path))
    throw InputError(dir, 0, "no llm-database.json: only an LLM run keeps the recipes it tried and their scores; nothing to promote");
  const json db = read_run_file(db_path, "an LLM program database");
  const json* program = winning_program(db);  // points into db
  if (!program)
    throw InputError(db_path, 0, "no recipe reached the target (rank " + run.at("target").at("rank").dump() +
                                     ") on any seed: without evidence nothing is promoted");
  search::RecipeRow row = promoted_row(run, *program, dir);
  if (o.has("id")) row.id = o.text("id");
  search::RecipeTable table = search::read_recipe_table(table_path);
  auto same = std::find_if(table.rows.begin(), table.rows.end(), [&](const search::RecipeRow& r) { return r.id == row.id; });
  if (same != table.rows.end()) {
    if (!o.flag("replace")) throw UsageError("recipe promote: " + table_path + " already has a row " + row.id + " (--replace, or --id NEW)");
    table.rows.erase(same);
  }
  if (o.flag("first")) table.rows.insert(table.rows.begin(), row);
  else table.rows.push_back(row);
  const std::string text = search::recipe_table_text(table);
  search::parse_recipe_table(text, table_path);  // the engine's table checks the parameters before anything is written
  write_file_atomic(table_path, text);
  std::cout << table_path << ": row " << row.id << " " << row.to_json().dump() << "\n";
  const search::Target t{row.format, std::stoi(row.rank), row.rings.front()};
  const search::RecipeRow* wins = search::match_recipe(search::read_recipe_table(table_path), t, row.device == "gpu");
  if (wins && wins->id != row.id)
    std::cout << "note: row " << wins->id << " comes first for this target and still runs (promote with --first to prefer the new row)\n";
  return kOk;
}

int list(const std::string& table_path) {
  const search::RecipeTable table = search::read_recipe_table(table_path);
  if (table.rows.empty()) std::cout << table_path << ": no rows (every target runs a portfolio)\n";
  for (const search::RecipeRow& r : table.rows) {
    std::string rings;
    for (Ring g : r.rings) rings += (rings.empty() ? "" : ",") + std::string(ring_name(g));
    std::cout << r.id << ": " << r.format.str() << " rank " << r.rank << " over " << rings << " (device " << r.device << "): "
              << r.engine << " " << r.engine_params().dump() << (r.threads ? ", " + std::to_string(*r.threads) + " threads" : "")
              << (r.ansatz ? ", inside the catalogue's ansatz" : "") << "  [" << table_path << ":" << r.line << "]\n";
  }
  return kOk;
}

}  // namespace

int cmd_recipe(const Args& args) {
  const Table& table = recipe_table();
  Settings o = parse_options(table, args);
  if (o.help) {
    std::cout << params::help_text(table);
    return kOk;
  }
  const std::vector<std::string>& pos = o.positional();
  const std::string catalogue = catalogue_files(o).dir;
  const std::string path = o.has("table") ? o.text("table") : catalogue + "/recipes.json";
  if (pos.size() == 1 && pos[0] == "list") return list(path);
  if (pos.size() == 2 && pos[0] == "promote") return promote(o, pos[1], path);
  throw UsageError("recipe: give 'list' or 'promote RUN_DIR' (see 'tdisc recipe --help')");
}

}  // namespace tdisc::cli
