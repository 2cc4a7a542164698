// The walks a flip search runs side by side ("lanes"): with walk_ring and symmetry left to auto, a
// characteristic-0 target on a square format gets a Z3-symmetric ZT walk and a plain GF2 walk whose
// results are Hensel-lifted, threads shared between them; explicit choices give a single lane.
#pragma once
#include <string>
#include <vector>

#include "src/search/engine.hpp"

namespace tdisc::search::flip {

struct Lane {
  std::string walk_ring;  // "ZT", "GF2" or "GF3"
  std::string symmetry;   // "none", "z3" or "s3"
  int threads = 1;
  friend bool operator==(const Lane&, const Lane&) = default;
};

// Words per factor plane the walkers of format f use: 1, 2 or 4 (0: a factor of more than 256 entries).
int factor_words(const Format& f);

// The lanes of a search (params already checked); every lane gets at least one thread, so a
// 1-thread search runs the first lane only.
std::vector<Lane> lanes_for(const EngineConfig& config);

// Runs the lanes concurrently, each its own pool of walkers (runner.cpp), one checkpoint holding
// every lane's state, and resumes from such a checkpoint (or from a single-lane one).
void run_lanes(const EngineConfig& config, Reporter& reporter);

}  // namespace tdisc::search::flip
