// Derives the evaluation time per recipe from the run's budget (see schedule.hpp).
#include "src/llm/proposer/schedule.hpp"

#include <algorithm>
#include <cstdio>

namespace tdisc::llm {

namespace {
constexpr double kBudgetShare = 1.0 / 20;   // of --time per recipe seed: ~10 proposals per run at 2 seeds
constexpr double kMinEval = 2, kMaxEval = 300, kUnboundedEval = 30;
}  // namespace

Schedule make_schedule(double budget_seconds, double given_eval_seconds, int concurrency, int max_seeds) {
  Schedule s;
  s.concurrency = concurrency;
  s.max_seeds = max_seeds;
  s.budget_seconds = budget_seconds;
  s.automatic = !(given_eval_seconds > 0);
  if (!s.automatic) s.eval_seconds = given_eval_seconds;
  else if (budget_seconds > 0) s.eval_seconds = std::clamp(budget_seconds * kBudgetShare, kMinEval, kMaxEval);
  else s.eval_seconds = kUnboundedEval;
  return s;
}

std::string Schedule::describe() const {
  char buf[200];
  std::snprintf(buf, sizeof buf, "%d request%s in flight, each recipe evaluated %.3g s x up to %d seed%s (%s)", concurrency,
                concurrency == 1 ? "" : "s", eval_seconds, max_seeds, max_seeds == 1 ? "" : "s",
                !automatic ? "eval_seconds as given" : budget_seconds > 0 ? "auto: --time/20 within [2 s, 300 s]" : "auto: no --time");
  return buf;
}

}  // namespace tdisc::llm
