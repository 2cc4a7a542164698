// Runs a proposal on the target under a budget and scores it from verified schemes only: a recipe
// runs its engine in-process (one run per seed, each with a deadline) behind an inner Reporter that
// verifies and forwards improvements; a proposed scheme is verified exactly and scored by rank and
// Brent residual, near-misses going to the numeric engine as a start.
#pragma once
#include <climits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/llm/recipe.hpp"
#include "src/search/engine.hpp"

namespace tdisc::llm {

struct SeedRun {
  unsigned long long seed = 0;
  int best_rank = INT_MAX;          // lowest rank verified in this run
  double time_to_target = -1;       // seconds until a verified scheme of target rank; −1: not reached
  double residual = -1;             // lowest residual the engine reported (−1: none)
  double exact_fraction = -1;       // highest share of coefficients rounded exactly (−1: none)
  double seconds = 0;
};

struct Score {
  int seeds = 0, successes = 0;
  int best_rank = INT_MAX;          // over all seeds, verified
  double mean_rank = 0;             // over seeds that verified something
  double mean_time = 0;             // time to target; a failed seed counts its whole budget
  double residual = -1;             // lowest residual (engine-reported, or exact Brent for schemes)
  double fitness = -1e9;            // one number to rank programs by (higher is better)
  std::string note;                 // "reached 7 in 2/2 seeds, mean 0.41 s", or why it failed
  nlohmann::json to_json() const;
  static Score from_json(const nlohmann::json& j);
};

// Fitness: reaching the target dominates (more seeds, then less time); otherwise lower verified
// rank; otherwise lower residual.
double fitness_of(const Score& s, int target_rank, double budget_seconds);

struct EvalContext {
  search::Target target;
  int threads = 1;
  unsigned long long seed = 0;      // first seed; seed i is seed + i
  std::optional<Scheme> start;      // handed to the engine (--from, or a near-miss)
  double seconds_left = 0;          // the outer budget still available (0: unlimited)
};

struct Evaluation {
  Score score;
  std::vector<SeedRun> runs;
  std::string failure;              // empty when the evaluation ran ("engine unavailable", …)
  std::optional<Scheme> best;       // the best verified scheme of this evaluation
  std::string failing_equations;    // a proposed scheme's failing Brent equations (count and first one)
};

// Runs recipe.engine for recipe.seeds seeds of recipe.budget_seconds each (clipped to seconds_left).
Evaluation evaluate_recipe(const Recipe& recipe, const EvalContext& ctx, search::Reporter& outer);

// Under mpirun (src/search/mpi/jobs.hpp) the seeds of a recipe run in parallel on the other ranks,
// each as one job of kind "llm_seed"; this runs such a job on the rank that received it.
nlohmann::json run_seed_job(const nlohmann::json& job, search::Reporter& reporter);

// Verifies a proposed scheme over the target ring; a valid one is offered to the outer reporter.
// An invalid one within `near_miss` failing equations is repaired by the numeric engine, if built.
Evaluation evaluate_scheme(const Scheme& s, const EvalContext& ctx, search::Reporter& outer, double repair_seconds);

}  // namespace tdisc::llm
