// One recipe scored in-process: the numeric engine runs it for a short budget with keep_going (every
// find counted), behind a reporter that only counts; nothing is written and nothing is filed.
#pragma once
#include <nlohmann/json.hpp>

#include "src/search/engine.hpp"
#include "src/search/evolve/elites.hpp"

namespace tdisc::search::evolve {

struct Trial {
  Target target;
  int threads = 1;
  unsigned long long seed = 0;  // every recipe runs the same restarts' seeds (common random numbers)
  double seconds = 10;          // the budget of one evaluation
};

// Runs `params` (keep_going forced on) and fills the counts of a Scored; id, generation and origin
// are the caller's.
Scored evaluate(const nlohmann::json& params, const Trial& trial);

}  // namespace tdisc::search::evolve
