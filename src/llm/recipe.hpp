// Proposals the model may make, as versioned JSON (version 1), and their validation with precise
// messages: a strategy RECIPE (engine + parameters + budget) that our engines execute, or a SCHEME
// (factors, or edits to a parent scheme) that we verify exactly. No model output is ever run as code.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "decomposition/scheme.hpp"
#include "src/search/engine.hpp"

namespace tdisc::llm {

constexpr int kProposalVersion = 1;
// Bytes of a proposal's rationale kept (cut on a character boundary): it goes into the program
// database, the checkpoint and later prompts, so a 16 MB rationale must not.
constexpr size_t kMaxRationaleBytes = 2000;

struct Recipe {
  std::string engine;              // "flip", "numeric", …
  nlohmann::json params;           // the engine's defaults with the proposal's overrides applied
  double budget_seconds = 10;      // per seed
  int seeds = 1;                   // independent runs, scored together
  std::string rationale;
  nlohmann::json to_json() const;  // the versioned proposal form
};

// Limits a proposal must respect, and what it may refer to.
struct ProposalRules {
  search::Target target;
  std::vector<std::string> engines;   // engines available in this build (never "llm")
  std::vector<std::string> kinds;     // "recipe", "scheme"
  double max_budget_seconds = 60;
  int max_seeds = 4;
  const Scheme* parent = nullptr;     // the scheme edits refer to (kind "scheme", mode "edits")
};

struct Proposal {
  std::string kind;                   // "recipe" or "scheme"
  Recipe recipe;                      // kind "recipe"
  std::optional<Scheme> scheme;       // kind "scheme": the proposed scheme, edits applied
  std::string rationale;
};

struct ProposalCheck {
  std::optional<Proposal> proposal;
  std::vector<std::string> errors;    // "recipe.params.restarts: must be an integer, got \"x\""
  std::string summary() const;        // the errors joined by "; "
};

// Validates a parsed JSON object as a version-1 proposal. Engine parameters are checked by type
// against the engine's default_params() and then by the engine's own validate_params().
ProposalCheck check_proposal(const nlohmann::json& j, const ProposalRules& rules);
ProposalCheck check_recipe(const nlohmann::json& j, const ProposalRules& rules);
ProposalCheck check_scheme_proposal(const nlohmann::json& j, const ProposalRules& rules);

// The engine's default recipe (its default_params()), one seed.
Recipe default_recipe(const std::string& engine, double budget_seconds);

// JSON Schemas for response_format (strict mode: every property required, no extra properties).
nlohmann::json recipe_schema(const std::vector<std::string>& engines);
nlohmann::json scheme_schema();
// A schema inferred from an example value (the engine's default params).
nlohmann::json schema_of(const nlohmann::json& example);

// Cell of the MAP-Elites grid a recipe falls in: "engine/lattice" ("scheme/direct" for schemes).
std::string cell_of(const Proposal& p);
std::string cell_of_recipe(const Recipe& r);

}  // namespace tdisc::llm
