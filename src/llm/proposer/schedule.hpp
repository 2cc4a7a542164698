// The budget-aware schedule of the llm engine: how long each recipe is evaluated, derived from the
// run's --time unless eval_seconds is given, so that a one-minute run still asks the model several
// times and a ten-hour run gives each proposal a real evaluation.
#pragma once
#include <string>

namespace tdisc::llm {

struct Schedule {
  int concurrency = 4;          // requests in flight
  double eval_seconds = 30;     // per seed of a recipe
  int max_seeds = 2;
  bool automatic = true;        // eval_seconds derived from the budget
  double budget_seconds = 0;    // the run's --time (0: until stopped)
  std::string describe() const; // the start line's words
};

// eval_seconds = budget / 20, within [2 s, 300 s]; 30 s without a budget. A positive `given`
// (the eval_seconds setting) is taken as it is.
Schedule make_schedule(double budget_seconds, double given_eval_seconds, int concurrency, int max_seeds);

}  // namespace tdisc::llm
