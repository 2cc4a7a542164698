// The walks a flip search runs side by side ("lanes"): with walk_ring and symmetry left to auto, a
// characteristic-0 target on a square format gets a Z3-symmetric ZT walk and a plain GF2 walk whose
// results are Hensel-lifted, threads shared between them; explicit choices give a single lane. With
// several lanes the threads move toward the lane that improves (portfolio.hpp; portfolio_every 0: never).
#pragma once
#include <string>
#include <vector>

#include "decomposition/ring.hpp"
#include "src/search/engine.hpp"
#include "src/search/flip/params.hpp"

namespace tdisc::search::flip {

struct Lane {
  Ring walk_ring = Ring::ZT;            // ZT, GF2 or GF3
  Symmetry symmetry = Symmetry::None;  // None, Z3 or S3
  int threads = 1;
  friend bool operator==(const Lane&, const Lane&) = default;
};
std::string lane_name(const Lane& lane);  // "ZT z3"

// The parameters a lane's walkers read, each with its origin: config.params bound through the flip
// table, the lane's walk ring and symmetry ("derived: lane" where they differ), the symmetric walks'
// defaults and the anchor policy. Throws UsageError when the lane's symmetry cannot be walked.
params::Bound<FlipParams> lane_params(const EngineConfig& config, const Lane& lane);

// Words per factor plane the walkers of format f use: 1, 2 or 4 (0: a factor of more than 256 entries).
int factor_words(const Format& f);

// The lanes a resumed or fresh search runs (a checkpoint's, else lanes_for).
std::vector<Lane> planned_lanes(const EngineConfig& config);
// The lanes of a fresh search (params already checked); every lane gets at least one thread, so a
// 1-thread search runs the first lane only.
std::vector<Lane> lanes_for(const EngineConfig& config);

// Runs the lanes concurrently, each its own pool of walkers (runner.cpp), one checkpoint holding
// every lane's state, and resumes from such a checkpoint (or from a single-lane one).
void run_lanes(const EngineConfig& config, Reporter& reporter);

}  // namespace tdisc::search::flip
