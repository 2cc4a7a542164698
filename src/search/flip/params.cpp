// The flip engine's parameters: the table (each row bound to its FlipParams member, whose initialiser
// is the default), validation (one precise message per problem; binding runs it once), and the
// rules that derive a value a lane leaves open: the symmetric walks' defaults and the anchor policy.
#include "src/search/flip/params.hpp"

#include <algorithm>

#include "src/search/flip/lift.hpp"
#include "src/search/flip/walk_start.hpp"


namespace tdisc::search::flip {

const params::Names<WalkRing>& walk_ring_names() {
  static const params::Names<WalkRing> n = {
      {"auto", WalkRing::Auto}, {"ZT", WalkRing::ZT}, {"GF2", WalkRing::GF2}, {"GF3", WalkRing::GF3}};
  return n;
}

const params::Names<Symmetry>& symmetry_names() {
  static const params::Names<Symmetry> n = {
      {"auto", Symmetry::Auto}, {"none", Symmetry::None}, {"z3", Symmetry::Z3}, {"s3", Symmetry::S3}};
  return n;
}

std::string symmetry_name(Symmetry s) { return params::spelling(symmetry_names(), s); }

const params::Table& flip_table() {
  using namespace params;
  static const Table t{
      "flip", "", "Flip-graph walks (Kauers–Moosbauer 2022) with plus transitions (Arai–Ichikawa–Hukushima 2024),\n"
      "Z3- and 6-fold symmetric walks (Moosbauer–Poole 2025) and Hensel lifting of GF(2)/GF(3) schemes.",
      {choice("walk_ring", field(&FlipParams::walk_ring), walk_ring_names(),
              "ring the walk runs over (auto: GF2/GF3 targets there, others over ZT; GF2/GF3 for a Z/Q target lift)"),
       integer("plus_min", field(&FlipParams::walk, &WalkParams::plus_min), 1, 1L << 40, "a plus transition after a random number of flips in [plus_min, plus_max] without a rank drop (z3/s3 above 4x4: the anchor's fixed period unless given)"),
       integer("plus_max", field(&FlipParams::walk, &WalkParams::plus_max), 1, 1L << 40, "upper end of that interval (≥ plus_min)"),
       integer("plus_diff", field(&FlipParams::walk, &WalkParams::plus_diff), 0, 64, "plus transitions only while the rank is below the walker's best + plus_diff (in orbit classes for z3/s3; z3 above 4x4: up to the start rank unless given; s3 above 4x4: 64, plus_ceiling binds)"),
       integer("plus_ceiling", field(&FlipParams::walk, &WalkParams::plus_ceiling), 0, 1L << 20, "plus transitions only below this rank, 0: none (s3 above 4x4: n³, the anchor's PLUS_TRANSITION_LIMIT, unless given)"),
       boolean("reductions", field(&FlipParams::walk, &WalkParams::reductions), "apply reductions when two terms share two factors"),
       boolean("undo_dead_ends", field(&FlipParams::walk, &WalkParams::undo_dead_ends),
               "plain walks: a drop into a scheme with no flip (a flip-isolated vertex, e.g. Strassen² at 4x4:49 over GF2)\n"
               "is recorded as a best and then undone, so the walk stays on the level above instead of plussing out of it"),
       integer("kick_after", field(&FlipParams::walk, &WalkParams::kick_after), 0, 1L << 50,
               "with undo_dead_ends: after this many undone drops since the walker's last best or kick, kick it:\n"
               "kick_plus plus transitions at once, then kick_flips flips without reductions (0: no kicks)"),
       integer("kick_plus", field(&FlipParams::walk, &WalkParams::kick_plus), 1, 64, "plus transitions in one kick"),
       integer("kick_flips", field(&FlipParams::walk, &WalkParams::kick_flips), 0, 1L << 40, "flips without reductions after a kick"),
       integer("batch", field(&FlipParams::batch), 1, 1 << 24, "moves between looks at the pool, the clock and the reporter"),
       integer("pool_size", field(&FlipParams::pool_size), 1, 100000, "best states kept for restarts, per rank level"),
       integer("level_fill", field(&FlipParams::level_fill), 1, 100000,
               "states a rank level needs before restarts draw from it (1: the lowest rank at once; more: a population per level)"),
       integer("restart_after", field(&FlipParams::restart_after), 1, 1L << 50,
               "flips since a walker's last best before it restarts (z3/s3 walks: 5000000, above 4x4 the anchor's flip limit in class flips, unless given)"),
       integer("dead_end_restart", field(&FlipParams::dead_end_restart), 0, 1L << 50,
               "with undo_dead_ends: a walker restarts after this many undone drops since its last best (0: off)"),
       number("adopt", field(&FlipParams::adopt), 0, 1, "chance that a walker jumps to a better pool state when one appears"),
       number("fresh", field(&FlipParams::fresh), 0, 1, "chance that a due restart goes back to the start scheme (z3/s3 walks: 1 unless given)"),
       integer("max_flips", field(&FlipParams::max_flips), 0, 1L << 50, "flips per walker, 0: no limit (exactly reproducible runs)"),
       integer("lift_steps", field(&FlipParams::lift_steps), 1, 39, "Hensel steps before giving up (p^(steps+1) below 2^40: at most 39 from GF2, 24 from GF3)"),
       integer("lift_tries", field(&FlipParams::lift_tries), 0, 1000000, "lift attempts per rank before that rank is left to the walk"),
       integer("lift_every", field(&FlipParams::lift_every), 0, 1L << 50, "flips between lifts of a walker's state at its best rank (0: new bests only)"),
       boolean("lift_at_target", field(&FlipParams::lift_at_target),
               "lift only modular schemes at the target rank: the walk does not stop for the lifts of the ranks above\n"
               "(each takes about a minute on 5x5; the recipe table's 5x5:93 and 6x6:153 rows set it)"),
       choice("symmetry", field(&FlipParams::symmetry), symmetry_names(),
              "z3: only schemes invariant under (u,v,w) → (v,w,u) (square formats); s3: also under the index reversal\n"
              "(i,j) ↦ (n−1−i, n−1−j) (Moosbauer–Poole's 6-fold walk); auto: a z3 lane beside a plain one"),
       number("portfolio_every", field(&FlipParams::portfolio_every), 0, 86400,
              "with several lanes (symmetry or walk_ring auto): every this many seconds one thread moves to the lane whose\n"
              "best rank dropped most recently, from the lane longest without a drop (0: threads stay where they start)"),
       number("portfolio_dead", field(&FlipParams::portfolio_dead), 0, 1e7,
              "with several lanes: a lane without a drop for this many seconds, standing above another, may give up\n"
              "its last thread (0: every lane keeps at least one)"),
       text("diagonal", field(&FlipParams::diagonal), "z3/s3: the diagonal partition giving the fixed terms, \"0,1|2\" or \"auto\" (s3: invariant under i ↦ n−1−i)"),
       choice("pick", field(&FlipParams::walk, &WalkParams::pick), params::Names<Pick>{{"pair", Pick::Pair}, {"factor", Pick::Factor}},
              "how a flip is drawn: pair (a uniform flip pair) or factor (a uniform shared factor, then a pair)")},
      "",
      ""};
  return t;
}

nlohmann::json default_flip_params() { return params::defaults(flip_table()); }

std::vector<std::string> check_flip_params(const nlohmann::json& p) {
  if (!p.is_object()) return {"flip parameters must be a JSON object"};
  nlohmann::json given = p;
  given.erase("llm");  // the llm engine's section may ride along in a recipe
  std::vector<std::string> out = params::check_object(flip_table(), given, "params.");
  if (const nlohmann::json d = p.value("diagonal", nlohmann::json("auto"));
      d.is_string() && d != "auto" && d.get<std::string>().find_first_not_of("0123456789,|") != std::string::npos)
    out.push_back("params.diagonal: must be \"auto\" or a partition of the diagonal such as \"0,1|2\"");
  if (!out.empty()) return out;
  // Lifts from GF3 stop at 24 Hensel steps (3^25 < 2^40), from GF2 at 39: refused, never lowered.
  if (p.value("walk_ring", std::string("auto")) == "GF3" && p.value("lift_steps", 0) > max_hensel_steps(3))
    out.push_back("params.lift_steps: " + std::to_string(p.value("lift_steps", 0)) + " is out of range [1.." +
                  std::to_string(max_hensel_steps(3)) + "] with walk_ring GF3 (3^(steps+1) must stay below 2^40)");
  long lo = p.value("plus_min", FlipParams{}.walk.plus_min), hi = p.value("plus_max", FlipParams{}.walk.plus_max);
  if (lo > hi) out.push_back("params.plus_min (" + std::to_string(lo) + ") must not exceed plus_max (" + std::to_string(hi) + ")");
  return out;
}

// The one validation (the table's and the rules across keys above), then the binders.
params::Bound<FlipParams> bind_flip_params(const nlohmann::json& p, const std::string& where) {
  params::refuse(where, check_flip_params(p));
  nlohmann::json given = p;
  given.erase("llm");  // the llm engine's section may ride along in a recipe
  return params::bind_checked<FlipParams>(flip_table(), given);
}

// Symmetric walks reach low ranks from the start in ~1M flips: start over when stuck.
void derive_symmetric_defaults(params::Bound<FlipParams>& b) {
  if (!is_symmetric(b.value.symmetry)) return;
  if (!b.given("fresh")) b.derive("fresh", kSymmetricFresh, "symmetric walk");
  if (!b.given("restart_after")) b.derive("restart_after", kSymmetricRestartAfter, "symmetric walk");
}

namespace {

// Above 4x4 a symmetric walk follows the policy of Moosbauer–Poole's case files (r5-93-1.txt,
// r6-153-1.txt), counted in moves on classes (theirs count every term: 3 per Z3 orbit flip, 6 per
// 6-fold one): a run ends after a flip limit that restarts at each new best (1e8 terms for 5x5, 1e9
// above) and starts over from the diagonal; a plus transition after a fixed count of flips without a
// drop (z3: 5e4 terms for 5x5, 5e5 above; s3: 1e5 for 5x5 as MatrixMult22.py suggests, 5e5 above as
// r6-153-1.txt). On 5x5:93 over GF2 (3 seeds, 300M flips each) the z3 policy reached 96, 93, 99
// against 99, 99, 99 with the 4x4 defaults scaled by n³ (docs/PERFORMANCE.md). Explicit parameters win.
void anchor_policy(const EngineConfig& config, params::Bound<FlipParams>& b) {
  const bool five = config.target.format.n == 5;
  const long per = orbit_terms(b.value.symmetry);
  const long terms_limit = five ? 100000000L : 1000000000L;
  const long terms_plus = b.value.symmetry == Symmetry::S3 ? (five ? 100000L : 500000L) : (five ? 50000L : 500000L);
  if (!b.given("restart_after")) b.derive("restart_after", (terms_limit + per / 2) / per, "anchor policy");
  if (!b.given("plus_min") && !b.given("plus_max")) {
    b.derive("plus_min", (terms_plus + per / 2) / per, "anchor policy");
    b.derive("plus_max", (terms_plus + per / 2) / per, "anchor policy");
  }
}

}  // namespace

void derive_anchor_policy(const EngineConfig& config, params::Bound<FlipParams>& b) {
  const Format& f = config.target.format;
  if (!is_symmetric(b.value.symmetry) || f.n <= 4) return;
  anchor_policy(config, b);
  if (config.start || b.given("plus_diff") || b.given("plus_ceiling")) return;
  if (b.value.symmetry == Symmetry::S3) {  // below the classical rank n³ at any best, as r6-153-1.txt's absolute PLUS_TRANSITION_LIMIT 216
    b.derive("plus_ceiling", f.n * f.n * f.n, "anchor plus limit");
    b.derive("plus_diff", 64, "anchor plus limit");
    return;
  }
  // z3: plus transitions up to the start's rank, as the anchor's PLUS_TRANSITION_LIMIT 0 (r5-93-1.txt).
  const int start_rank = diagonal_start_rank(b.value, f.n, config.target.rank);
  b.derive("plus_diff", std::max(1, (start_rank - config.target.rank) / orbit_terms(b.value.symmetry)), "anchor plus limit");
}

Ring walk_ring_for(Ring target, WalkRing walk_ring) {
  if (target == Ring::GF2 || target == Ring::GF3) return target;
  if (walk_ring == WalkRing::GF2) return Ring::GF2;
  if (walk_ring == WalkRing::GF3) return Ring::GF3;
  return Ring::ZT;
}

}  // namespace tdisc::search::flip
