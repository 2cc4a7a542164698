// The planning of a search: the target a request leaves open (rank, ring), the engine "auto" picks,
// and the shorthands (--lattice, --symmetry) turned into engine parameters. The command line and
// any library caller get the same answer from here.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/search/engine.hpp"

namespace tdisc::search {

struct SearchAsk {
  Format format;
  std::optional<int> rank;        // default: the best known integer rank of the format
  std::optional<Ring> ring;       // default: ZT, or Q below the best known integer rank
  std::string engine = "auto";    // auto, flip, numeric, llm
  bool llm_endpoint = false;      // an LLM endpoint is configured (auto then picks llm)
  std::string symmetry = "auto";  // auto, none, z3, s3 (flip only)
  std::optional<std::string> lattice;  // numeric only: ternary, integer, half, half-gaussian
  std::optional<std::string> device;   // numeric only: cpu, cuda, cuda:N (UsageError for anything else)
  int gpus = 0;  // CUDA devices here; without --device the numeric engine then runs on cuda:0
  std::string catalogue_dir;  // where measured routes look for ansätze (<dir>/ansatz/); empty: none
  // The recipe table (recipe_table.hpp); empty: <catalogue_dir>/recipes.json, none without a catalogue.
  std::string recipe_file;
};

struct SearchPlan {
  Target target;
  std::string engine;      // flip, numeric or llm — never auto
  nlohmann::json params = nlohmann::json::object();  // engine parameters the shorthands set
  // The measured route for this target, if one is known: parameters that --params overrides key by
  // key (the shorthands above win over both), and one line that says which route and why.
  nlohmann::json defaults = nlohmann::json::object();
  std::string route;
  // Where each key of defaults came from, for the effective parameters (run.hpp resolve):
  // "table row <id>" for a recipe row's, "derived: catalogued ansatz" for the route's.
  std::map<std::string, std::string> origins;
  // The recipe: the table row that fits ("5x5x5-93"), or "portfolio" when none does; why, in one
  // line (the row's file and line and its reason); the threads the row asks for when --threads is not
  // given; the row as run.json records it (null for a portfolio).
  std::string recipe = "portfolio";
  std::string recipe_why;
  std::optional<int> threads;
  nlohmann::json recipe_row;
  // A flip portfolio: the recipes of the nearest rows (recipe_table.hpp portfolio_rows), run as
  // lanes beside the engine's own where threads allow (flip/lanes.hpp); empty when a row runs.
  std::vector<LaneRecipe> lanes;
};

// The most recipe lanes a portfolio draws from the table (the threads decide how many run).
inline constexpr size_t kPortfolioRecipes = 3;

// The target's table row (ask.recipe_file, or the catalogue's recipes.json) runs when the ask leaves
// the engine to auto or names the row's engine, and no shorthand asks for another engine: its
// engine, and its parameters as defaults that --params overrides key by key. A table that cannot be
// read or names an unknown parameter throws InputError with its file and line.
// Throws UsageError, naming the flag (--rank, --symmetry, --lattice), when the ask cannot be met:
// a rank above the classical one or unknown for the format, z3 on a non-square format or with an
// engine other than flip, a lattice or a GPU device for an engine other than numeric. The numeric
// engine runs on cuda:0 when the ask names no device and a GPU is present (ask.gpus > 0).
// A numeric search over Q whose format and rank have an ansatz in the catalogue
// (<catalogue_dir>/ansatz/<n>x<m>x<p>-r<R>-*.json, written by tdisc symmetry) runs inside it by default:
// the route that found exact 4x4:48s from random starts (docs/symmetry.md).
SearchPlan plan_search(const SearchAsk& ask);

// auto: llm when an endpoint is configured; else flip for ZT, Z and modular targets and for ranks
// at or above the best known integer rank, numeric below it (the only engine that reached 4x4:48
// over Q); z3 or s3 symmetry always means flip, the only engine with symmetric walks.
std::string auto_engine(const Target& target, bool llm_endpoint, const std::string& symmetry);

}  // namespace tdisc::search
