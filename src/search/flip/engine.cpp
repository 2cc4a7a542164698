// The flip-graph engine behind the Engine contract: picks the walk's field from the target ring
// and hands over to the walkers (Kauers–Moosbauer 2022; Arai–Ichikawa–Hukushima 2024).
#include "src/search/flip/engine.hpp"

#include <algorithm>

#include "base/error.hpp"
#include "src/search/flip/lanes.hpp"
#include "src/search/flip/pair_index.hpp"
#include "src/search/flip/params.hpp"

namespace tdisc::search::flip {

const params::Table* FlipEngine::param_table() const { return &flip_table(); }

nlohmann::json FlipEngine::default_params() const { return default_flip_params(); }

std::vector<std::string> FlipEngine::validate_params(const nlohmann::json& params) const { return check_flip_params(params); }

void FlipEngine::bind_params(const nlohmann::json& params, const std::string& where) {
  bound_.keep(params, bind_flip_params(params, where));
}

std::vector<PlannedLane> FlipEngine::planned(const EngineConfig& config) const {
  return plan_lanes(config, bound_.for_params(config.params, [](const nlohmann::json& p) { return bind_flip_params(p); }));
}

std::vector<ResolvedParams> FlipEngine::resolve(const EngineConfig& config) const {
  std::vector<ResolvedParams> out;
  for (const PlannedLane& l : planned(config))
    out.push_back({lane_name(l.lane), l.params.settings, lane_recipe(l.lane), l.lane.threads});
  if (out.size() == 1 && out.front().recipe == "default") out.front().threads = 0;  // one plain walk: no lanes to tell apart
  return out;
}

// The run's parameters are bound once (bind_params, or here), each lane's FlipParams a typed copy
// (plan_lanes), handed to the walkers typed; the guards read them there.
void FlipEngine::run(const EngineConfig& config, Reporter& reporter) {
  const Format& f = config.target.format;
  if (factor_words(f) == 0)
    throw UsageError("the flip engine holds factors of at most 256 entries (16x16x16): " + f.str() + " has a factor of " +
                     std::to_string(std::max({f.a_size(), f.b_size(), f.c_size()})));
  const std::vector<PlannedLane> lanes = planned(config);
  const int start = config.start ? config.start->rank() : f.classical_rank();
  for (const PlannedLane& l : lanes)
    if (start + l.params.value.walk.plus_diff + 32 >= PairIndex::kMaxTerms)
      throw UsageError("the flip engine holds fewer than " + std::to_string(PairIndex::kMaxTerms) + " terms: " + f.str() +
                       " starts at rank " + std::to_string(start));
  run_lanes(config, lanes, reporter);
}

}  // namespace tdisc::search::flip
