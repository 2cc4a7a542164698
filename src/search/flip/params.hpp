// The flip engine's parameters (a recipe may override any of them), their defaults and checks.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/params/bind.hpp"
#include "base/params/table.hpp"
#include "decomposition/ring.hpp"
#include "src/search/engine.hpp"
#include "src/search/flip/walker.hpp"

namespace tdisc::search::flip {

// The ring a walk runs over: Auto lets the target decide (GF2/GF3 targets walk there, others over ZT).
enum class WalkRing { Auto, ZT, GF2, GF3 };
// The symmetry a walk keeps: Z3 (u,v,w) → (v,w,u); S3 also the index reversal J (Moosbauer–Poole's
// 6-fold walk); Auto: a z3 lane beside a plain one where z3 applies (lanes.hpp).
enum class Symmetry { Auto, None, Z3, S3 };

const params::Names<WalkRing>& walk_ring_names();  // "auto", "ZT", "GF2", "GF3"
const params::Names<Symmetry>& symmetry_names();   // "auto", "none", "z3", "s3"
std::string symmetry_name(Symmetry s);
inline bool is_symmetric(Symmetry s) { return s == Symmetry::Z3 || s == Symmetry::S3; }
inline int orbit_terms(Symmetry s) { return s == Symmetry::S3 ? 6 : 3; }  // terms per orbit class of a symmetric walk

struct FlipParams {
  WalkRing walk_ring = WalkRing::Auto;
  WalkParams walk;
  int batch = 4096;                // moves between looks at the pool, the clock and the reporter
  size_t pool_size = 32;           // best states kept for restarts, per rank level
  size_t level_fill = 1;           // states a rank level needs before restarts draw from it (pool.hpp;
                                   //   1: the lowest rank at once; more: a population per level)
  long restart_after = 50000000;   // flips without a walker improving before it restarts from the pool
  long dead_end_restart = 0;       // undo_dead_ends: restart a walker after this many undone drops since its
                                   //   last best (it circles an isolated scheme); 0: only restart_after
  double fresh = 0.0;              // chance that a due restart goes back to the start scheme instead of the pool
  double adopt = 0.5;              // chance that a walker jumps to a better pool state when one appears
  long max_flips = 0;              // per walker; 0: no limit (tests use it for exact reproducibility)
  int lift_steps = 20;             // Hensel steps before giving up
  int lift_tries = 64;             // lift attempts per rank before that rank is left to the walk
  long lift_every = 4000000;       // flips between lifts of a walker's current state at its best rank (0: new bests only)
  bool lift_at_target = false;     // lift only schemes at the target rank (a 5x5 lift takes a minute; ranks above wait for none)
  Symmetry symmetry = Symmetry::Auto;
  double portfolio_every = 5;      // several lanes: seconds between moves of a thread toward the lane that improves (0: never)
  double portfolio_dead = 120;     // several lanes: a lane without a drop this long, above another, may lose its last thread (0: never)
  std::string diagonal = "auto";   // z3/s3: the diagonal partition giving the fixed terms, "0,1|2" or "auto"
};
// z3 and s3 walks default to restarting from the diagonal start after 5M flips without progress (4x4:49
// over ZT: 8 of 8 seeds within 30 s, against 4 of 8 with the pool restarts above; docs/PERFORMANCE.md).
inline constexpr double kSymmetricFresh = 1.0;
inline constexpr long kSymmetricRestartAfter = 5000000;

const params::Table& flip_table();  // every parameter: default (FlipParams's), range, help, binder
nlohmann::json default_flip_params();
// One precise message per problem: the table's (key, type, range), then the rules across keys
// (plus_min ≤ plus_max, lift_steps with walk_ring GF3, the diagonal's spelling).
std::vector<std::string> check_flip_params(const nlohmann::json& params);
// The struct from params through the table's binders, each value with its origin (given or default);
// an "llm" section riding along in a recipe is ignored. check_flip_params is its validation, run
// once here: throws UsageError "WHERE: params.KEY: …; …" for every problem it names.
params::Bound<FlipParams> bind_flip_params(const nlohmann::json& params, const std::string& where = "");
// z3/s3 walks: fresh and restart_after as kSymmetric*, unless given ("derived: symmetric walk").
void derive_symmetric_defaults(params::Bound<FlipParams>& params);
// For z3/s3 walks above 4x4, what the parameters leave open follows Moosbauer–Poole's policy
// ("derived: anchor policy"): restart_after (their flip limit, reset at each new best), a fixed plus
// period, and plus transitions up to the start's rank (s3: below n³; "derived: anchor plus limit").
// Call after check_symmetry (walk_start.hpp).
void derive_anchor_policy(const EngineConfig& config, params::Bound<FlipParams>& params);
// The ring the walk runs over for a target ring: modular targets walk there, the others over
// walk_ring (ZT by default: valid over every ring, no lifting).
Ring walk_ring_for(Ring target, WalkRing walk_ring);

}  // namespace tdisc::search::flip
