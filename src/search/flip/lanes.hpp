// The walks a flip search runs side by side ("lanes"): with walk_ring and symmetry left to auto, a
// characteristic-0 target on a square format gets a Z3-symmetric ZT walk and a plain GF2 walk whose
// results are Hensel-lifted, threads shared between them; explicit choices give a single lane. With
// several lanes the threads move toward the lane that improves (portfolio.hpp; portfolio_every 0: never).
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "decomposition/ring.hpp"
#include "src/search/engine.hpp"
#include "src/search/flip/params.hpp"

namespace tdisc::search::flip {

struct Lane {
  Lane(Ring walk_ring = Ring::ZT, Symmetry symmetry = Symmetry::None, int threads = 1, std::string recipe = "",
       nlohmann::json overlay = nlohmann::json::object())
      : walk_ring(walk_ring), symmetry(symmetry), threads(threads), recipe(std::move(recipe)), overlay(std::move(overlay)) {}
  Ring walk_ring = Ring::ZT;            // ZT, GF2 or GF3
  Symmetry symmetry = Symmetry::None;  // None, Z3 or S3
  int threads = 1;
  std::string recipe;                   // the recipe table row the lane runs ("": the engine's own lane)
  nlohmann::json overlay = nlohmann::json::object();  // that row's parameters, under config.params
  friend bool operator==(const Lane&, const Lane&) = default;
};
std::string lane_name(const Lane& lane);    // "ZT z3", "ZT none 4x4x4-47-GF2"
std::string lane_recipe(const Lane& lane);  // "default" or the row's id

// The parameters a lane's walkers read, each with its origin: a typed copy of the run's parameters
// (bound once, `run`), the lane's overlay written through the table's binders where
// the run leaves a key to it ("derived: lane RECIPE"; an explicit key wins in every lane), the lane's
// walk ring and symmetry ("derived: lane" where they differ), the symmetric walks' defaults and the
// anchor policy. Throws UsageError when the lane's symmetry cannot be walked.
params::Bound<FlipParams> lane_params(const EngineConfig& config, const params::Bound<FlipParams>& run, const Lane& lane);
params::Bound<FlipParams> lane_params(const EngineConfig& config, const Lane& lane);  // binds config.params first

// Words per factor plane the walkers of format f use: 1, 2 or 4 (0: a factor of more than 256 entries).
int factor_words(const Format& f);

// The lanes of a fresh search (params already checked): the engine's own (walk ring × symmetry),
// then, on the threads beyond two per own lane, a lane per recipe of config.lane_recipes that its
// target can walk and that differs from the lanes before it, one thread each; the own lanes split
// the rest evenly (a 1-thread search runs the first lane only).
std::vector<Lane> lanes_for(const EngineConfig& config, const params::Bound<FlipParams>& run);
std::vector<Lane> lanes_for(const EngineConfig& config);  // binds config.params first

// A lane and the parameters its walkers read, bound once (lane_params).
struct PlannedLane {
  Lane lane;
  params::Bound<FlipParams> params;
};
// The lanes a resumed or fresh search runs (a checkpoint's, else lanes_for), each with its
// parameters: typed copies of run, the run's parameters bound once (FlipEngine::bind_params), each
// with its lane's rules applied. Throws UsageError for a lane that cannot be walked.
std::vector<PlannedLane> plan_lanes(const EngineConfig& config, const params::Bound<FlipParams>& run);
std::vector<PlannedLane> plan_lanes(const EngineConfig& config);  // binds config.params first

// Runs the lanes concurrently, each its own pool of walkers (runner.cpp), one checkpoint holding
// every lane's state, and resumes from such a checkpoint (or from a single-lane one).
void run_lanes(const EngineConfig& config, const std::vector<PlannedLane>& lanes, Reporter& reporter);
void run_lanes(const EngineConfig& config, Reporter& reporter);  // plan_lanes, then the above

}  // namespace tdisc::search::flip
