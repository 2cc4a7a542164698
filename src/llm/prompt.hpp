// The prompt of each call (AlphaEvolve's prompt sampler): the task, what the engines expose, the
// parent with its scores, a few inspirations, and the last failures with their reasons.
#pragma once
#include <climits>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "src/llm/client.hpp"
#include "src/llm/database.hpp"

namespace tdisc::llm {

struct Failure {
  int call = -1;
  std::string kind;    // "invalid_json", "schema", "timeout", "http", "no_progress", "engine"
  std::string reason;  // the precise message
};

// A run that ended without the target: where it got to.
struct NearMiss {
  std::string source;          // "call 4", "fallback of program 2"
  double residual = -1;        // lowest Brent residual reported (−1: none)
  double exact_fraction = -1;  // share of coefficients the rounding fixed exactly (−1: none)
  int best_rank = INT_MAX;     // lowest verified rank of the run
  std::string failing;         // for proposed schemes: the first failing Brent equation and the count
  nlohmann::json to_json() const;
  static NearMiss from_json(const nlohmann::json& j);
};

struct PromptInput {
  search::Target target;
  std::string kind;                            // "recipe" or "scheme"
  std::vector<std::string> engines;            // available engines; their default_params are shown
  const Program* parent = nullptr;
  std::vector<const Program*> inspirations;
  std::deque<Failure> failures;                // most recent last
  std::deque<NearMiss> near_misses;            // most recent last
  std::vector<const Program*> best_recipes;    // the database's fittest programs, best first
  int best_rank = 0;                           // lowest verified rank so far (INT_MAX: none)
  double max_budget_seconds = 60;
  int max_seeds = 4;
  const Scheme* parent_scheme = nullptr;       // shown to kind "scheme" (small formats only)
};

std::vector<Message> build_prompt(const PromptInput& in);

}  // namespace tdisc::llm
