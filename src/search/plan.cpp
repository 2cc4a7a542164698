// The planning of a search (plan.hpp): default rank and ring from the table of best known ranks,
// the engine auto picks, and the --lattice / --symmetry shorthands as engine parameters.
#include "src/search/plan.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "base/error.hpp"
#include "src/search/known_ranks.hpp"
#include "base/params/table.hpp"
#include "src/search/recipe_table.hpp"

namespace tdisc::search {

namespace {

bool below_integer_rank(const Target& t) {
  const std::optional<int> best = best_integer_rank(t.format);
  return best && t.rank < *best;
}

Target planned_target(const SearchAsk& ask) {
  const Format& f = ask.format;
  Target t{f, 0, Ring::ZT};
  if (ask.rank) {
    if (*ask.rank < 1 || *ask.rank > f.classical_rank())
      throw UsageError("--rank: " + std::to_string(*ask.rank) + " is out of range [1.." + std::to_string(f.classical_rank()) +
                       "] (the classical rank of " + f.str() + ")");
    t.rank = *ask.rank;
  } else if (auto best = best_integer_rank(f)) {
    t.rank = *best;
  } else {
    throw UsageError("--rank: required for " + f.str() + " (no best known rank in the built-in table)");
  }
  t.ring = ask.ring ? *ask.ring : below_integer_rank(t) ? Ring::Q : Ring::ZT;
  return t;
}

// --symmetry z3|s3: the flip engine's "symmetry" parameter, for square formats only.
void apply_symmetry(const SearchAsk& ask, SearchPlan& plan) {
  if (ask.symmetry == "auto") return;  // the flip engine decides (flip/lanes.hpp)
  if (ask.symmetry == "none") {
    if (plan.engine == "flip") plan.params["symmetry"] = "none";
    return;
  }
  const std::string& s = ask.symmetry;
  TDISC_REQUIRE(s == "z3" || s == "s3", "unknown symmetry " + s);
  const Format& f = plan.target.format;
  if (f.n != f.m || f.m != f.p)
    throw UsageError("--symmetry " + s + ": needs a square format n×n×n (the cyclic shift (u,v,w) → (v,w,u) maps ⟨n,m,p⟩ to ⟨m,p,n⟩" +
                     (s == "s3" ? ", and the reversal J acts on n×n factors" : "") + "); " + f.str() + " is not square");
  if (plan.engine != "flip")
    throw UsageError("--symmetry " + s + ": only the flip engine walks symmetric schemes (engine here: " + plan.engine + ")");
  plan.params["symmetry"] = s;
}

// The catalogue's ansatz for the target, if any (the first file name in order).
std::optional<std::string> catalogue_ansatz(const std::string& dir, const Target& t) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path folder = fs::path(dir) / "ansatz";
  if (dir.empty() || !fs::is_directory(folder, ec)) return std::nullopt;
  const std::string prefix = t.format.str() + "-r" + std::to_string(t.rank) + "-";
  std::vector<std::string> found;
  for (const auto& e : fs::directory_iterator(folder, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) == 0 && e.path().extension() == ".json") found.push_back(e.path().string());
  }
  if (found.empty()) return std::nullopt;
  std::sort(found.begin(), found.end());
  return found.front();
}

// Measured routes (docs/PERFORMANCE.md): a real target with a catalogued ansatz searches inside it.
void apply_route(const SearchAsk& ask, SearchPlan& plan) {
  if (plan.engine != "numeric" || plan.target.ring != Ring::Q) return;
  if (plan.recipe_row.is_object() && !plan.recipe_row.value("ansatz", false)) return;  // the row says outside
  auto ansatz = catalogue_ansatz(ask.catalogue_dir, plan.target);
  if (!ansatz) return;
  plan.defaults["ansatz"] = *ansatz;
  plan.origins["ansatz"] = "derived: catalogued ansatz";
  plan.route = "inside the ansatz " + *ansatz +
               " (the exact symmetry group of a published scheme; the coefficients come from random starts; "
               "--params '{\"ansatz\":\"\"}' turns it off)";
}

std::string recipe_file(const SearchAsk& ask) {
  if (!ask.recipe_file.empty()) return ask.recipe_file;
  return ask.catalogue_dir.empty() ? "" : ask.catalogue_dir + "/recipes.json";
}

// Whether the ask leaves room for the row: the engine auto (without an LLM endpoint, which asks
// for the LLM engine) or the row's, and no shorthand that only another engine takes.
bool row_fits_ask(const SearchAsk& ask, const RecipeRow& row) {
  if (ask.engine == "auto" ? ask.llm_endpoint : ask.engine != row.engine) return false;
  if ((ask.symmetry == "z3" || ask.symmetry == "s3") && row.engine != "flip") return false;
  if (ask.lattice && row.engine != "numeric") return false;
  return !(ask.device && ask.device != "cpu" && row.engine != "numeric");
}

// The table's row for the target, if one fits: its engine, its parameters as defaults, its threads.
void apply_recipe(const SearchAsk& ask, SearchPlan& plan) {
  const std::string file = recipe_file(ask);
  const RecipeTable table = read_recipe_table(file);
  const bool gpu = ask.gpus > 0 || (ask.device && *ask.device != "cpu");
  const RecipeRow* row = match_recipe(table, plan.target, gpu);
  const std::string target = plan.target.format.str() + " rank " + std::to_string(plan.target.rank) + " over " + std::string(ring_name(plan.target.ring));
  if (row && row_fits_ask(ask, *row)) {
    plan.engine = row->engine;
    plan.defaults = row->engine_params();
    for (const auto& [key, value] : plan.defaults.items()) plan.origins[key] = "table row " + row->id;
    plan.threads = row->threads;
    plan.recipe = row->id;
    plan.recipe_row = row->to_json();
    plan.recipe_row["file"] = file;
    plan.recipe_row["line"] = row->line;
    plan.recipe_why = "table row " + row->id + " (" + file + ":" + std::to_string(row->line) + "): " + row->why;
    return;
  }
  plan.recipe = "portfolio";
  plan.recipe_why = row ? "table row " + row->id + " fits " + target + " but the flags ask for another engine or shorthand; the " +
                              plan.engine + " engine's own lanes run"
                        : "no row of " + (file.empty() ? std::string("the recipe table (no catalogue)") : file) + " fits " + target +
                              "; the " + plan.engine + " engine's own lanes run side by side";
  if (plan.engine != "flip") return;
  for (const RecipeRow* r : portfolio_rows(table, plan.target, gpu, kPortfolioRecipes)) plan.lanes.push_back({r->id, r->engine_params()});
  if (plan.lanes.empty()) return;
  plan.recipe_why += ", with the recipes of the nearest rows where threads allow:";
  for (size_t i = 0; i < plan.lanes.size(); ++i) plan.recipe_why += (i ? ", " : " ") + plan.lanes[i].name;
}

}  // namespace

std::string auto_engine(const Target& t, bool llm_endpoint, const std::string& symmetry) {
  if (symmetry == "z3" || symmetry == "s3") return "flip";
  if (llm_endpoint) return "llm";
  const bool modular_or_integer = t.ring == Ring::ZT || t.ring == Ring::Z || ring_is_modular(t.ring);
  return modular_or_integer || !below_integer_rank(t) ? "flip" : "numeric";
}

// --device cpu|cuda[:N]: the numeric engine's "device" and "gpu" parameters; without it, the first
// GPU when there is one (the default: the numeric engine belongs on the GPU where one exists).
void apply_device(const SearchAsk& ask, SearchPlan& plan) {
  if (!ask.device) {
    if (plan.engine == "numeric" && ask.gpus > 0) plan.params["device"] = "cuda", plan.params["gpu"] = 0;
    return;
  }
  const std::string& d = *ask.device;
  if (const std::string problem = params::device_problem(d); !problem.empty()) throw UsageError("--device: " + problem);
  const std::optional<int> index = params::cuda_index(d);
  if (!index) {
    if (plan.engine == "numeric") plan.params["device"] = "cpu";
    return;
  }
  if (plan.engine != "numeric")
    throw UsageError("--device " + d + ": only the numeric engine runs on a GPU (this search runs the " + plan.engine +
                     " engine; add --engine numeric)");
  plan.params["device"] = "cuda";
  plan.params["gpu"] = *index;
}

SearchPlan plan_search(const SearchAsk& ask) {
  SearchPlan plan;
  plan.target = planned_target(ask);
  plan.engine = ask.engine == "auto" ? auto_engine(plan.target, ask.llm_endpoint, ask.symmetry) : ask.engine;
  apply_recipe(ask, plan);
  if (ask.lattice) {
    if (plan.engine != "numeric")
      throw UsageError("--lattice: only the numeric engine rounds onto a lattice (this search runs the " + plan.engine +
                       " engine; add --engine numeric)");
    plan.params["lattice"] = *ask.lattice;
  }
  apply_symmetry(ask, plan);
  apply_device(ask, plan);
  apply_route(ask, plan);
  return plan;
}

}  // namespace tdisc::search
