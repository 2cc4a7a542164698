// The flip engine's parameters: defaults, validation (one precise message per problem) and parsing.
#include "src/search/flip/params.hpp"

#include "src/search/flip/lift.hpp"


namespace tdisc::search::flip {

const params::Table& flip_table() {
  using namespace params;
  const FlipParams d;
  static const Table t{
      "flip", "", "Flip-graph walks (Kauers–Moosbauer 2022) with plus transitions (Arai–Ichikawa–Hukushima 2024),\n"
      "Z3- and 6-fold symmetric walks (Moosbauer–Poole 2025) and Hensel lifting of GF(2)/GF(3) schemes.",
      {choice("walk_ring", d.walk_ring, {"auto", "ZT", "GF2", "GF3"},
              "ring the walk runs over (auto: GF2/GF3 targets there, others over ZT; GF2/GF3 for a Z/Q target lift)"),
       integer("plus_min", d.walk.plus_min, 1, 1L << 40, "a plus transition after a random number of flips in [plus_min, plus_max] without a rank drop (z3/s3 above 4x4: the anchor's fixed period unless given)"),
       integer("plus_max", d.walk.plus_max, 1, 1L << 40, "upper end of that interval (≥ plus_min)"),
       integer("plus_diff", d.walk.plus_diff, 0, 64, "plus transitions only while the rank is below the walker's best + plus_diff (in orbit classes for z3/s3; z3 above 4x4: up to the start rank unless given; s3 above 4x4: 64, plus_ceiling binds)"),
       integer("plus_ceiling", d.walk.plus_ceiling, 0, 1L << 20, "plus transitions only below this rank, 0: none (s3 above 4x4: n³, the anchor's PLUS_TRANSITION_LIMIT, unless given)"),
       boolean("reductions", d.walk.reductions, "apply reductions when two terms share two factors"),
       boolean("undo_dead_ends", d.walk.undo_dead_ends,
               "plain walks: a drop into a scheme with no flip (a flip-isolated vertex, e.g. Strassen² at 4x4:49 over GF2)\n"
               "is recorded as a best and then undone, so the walk stays on the level above instead of plussing out of it"),
       integer("kick_after", d.walk.kick_after, 0, 1L << 50,
               "with undo_dead_ends: after this many undone drops since the walker's last best or kick, kick it:\n"
               "kick_plus plus transitions at once, then kick_flips flips without reductions (0: no kicks)"),
       integer("kick_plus", d.walk.kick_plus, 1, 64, "plus transitions in one kick"),
       integer("kick_flips", d.walk.kick_flips, 0, 1L << 40, "flips without reductions after a kick"),
       integer("batch", d.batch, 1, 1 << 24, "moves between looks at the pool, the clock and the reporter"),
       integer("pool_size", static_cast<long>(d.pool_size), 1, 100000, "best states kept for restarts, per rank level"),
       integer("level_fill", static_cast<long>(d.level_fill), 1, 100000,
               "states a rank level needs before restarts draw from it (1: the lowest rank at once; more: a population per level)"),
       integer("restart_after", d.restart_after, 1, 1L << 50,
               "flips since a walker's last best before it restarts (z3/s3 walks: 5000000, above 4x4 the anchor's flip limit in class flips, unless given)"),
       integer("dead_end_restart", d.dead_end_restart, 0, 1L << 50,
               "with undo_dead_ends: a walker restarts after this many undone drops since its last best (0: off)"),
       number("adopt", d.adopt, 0, 1, "chance that a walker jumps to a better pool state when one appears"),
       number("fresh", d.fresh, 0, 1, "chance that a due restart goes back to the start scheme (z3/s3 walks: 1 unless given)"),
       integer("max_flips", d.max_flips, 0, 1L << 50, "flips per walker, 0: no limit (exactly reproducible runs)"),
       integer("lift_steps", d.lift_steps, 1, 39, "Hensel steps before giving up (p^(steps+1) below 2^40: at most 39 from GF2, 24 from GF3)"),
       integer("lift_tries", d.lift_tries, 0, 1000000, "lift attempts per rank before that rank is left to the walk"),
       integer("lift_every", d.lift_every, 0, 1L << 50, "flips between lifts of a walker's state at its best rank (0: new bests only)"),
       choice("symmetry", d.symmetry, {"auto", "none", "z3", "s3"},
              "z3: only schemes invariant under (u,v,w) → (v,w,u) (square formats); s3: also under the index reversal\n"
              "(i,j) ↦ (n−1−i, n−1−j) (Moosbauer–Poole's 6-fold walk); auto: a z3 lane beside a plain one"),
       text("diagonal", d.diagonal, "z3/s3: the diagonal partition giving the fixed terms, \"0,1|2\" or \"auto\" (s3: invariant under i ↦ n−1−i)"),
       choice("pick", d.walk.pick_by_factor ? "factor" : "pair", {"pair", "factor"},
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

FlipParams parse_flip_params(const nlohmann::json& p) {
  FlipParams f;
  f.walk_ring = p.value("walk_ring", f.walk_ring);
  f.walk.plus_min = p.value("plus_min", f.walk.plus_min);
  f.walk.plus_max = p.value("plus_max", f.walk.plus_max);
  f.walk.plus_diff = p.value("plus_diff", f.walk.plus_diff);
  f.walk.plus_ceiling = p.value("plus_ceiling", f.walk.plus_ceiling);
  f.walk.reductions = p.value("reductions", f.walk.reductions);
  f.walk.undo_dead_ends = p.value("undo_dead_ends", f.walk.undo_dead_ends);
  f.walk.kick_after = p.value("kick_after", f.walk.kick_after);
  f.walk.kick_plus = p.value("kick_plus", f.walk.kick_plus);
  f.walk.kick_flips = p.value("kick_flips", f.walk.kick_flips);
  f.walk.pick_by_factor = p.value("pick", std::string("pair")) == "factor";
  f.batch = p.value("batch", f.batch);
  f.pool_size = p.value("pool_size", f.pool_size);
  f.level_fill = p.value("level_fill", f.level_fill);
  f.restart_after = p.value("restart_after", f.restart_after);
  f.adopt = p.value("adopt", f.adopt);
  f.dead_end_restart = p.value("dead_end_restart", f.dead_end_restart);
  f.fresh = p.value("fresh", f.fresh);
  f.max_flips = p.value("max_flips", f.max_flips);
  f.lift_steps = p.value("lift_steps", f.lift_steps);
  f.lift_tries = p.value("lift_tries", f.lift_tries);
  f.lift_every = p.value("lift_every", f.lift_every);
  f.symmetry = p.value("symmetry", f.symmetry);
  f.diagonal = p.value("diagonal", f.diagonal);
  if (f.symmetry == "z3" || f.symmetry == "s3") {  // symmetric walks reach low ranks from the start in ~1M flips: start over when stuck
    if (!p.contains("fresh")) f.fresh = kSymmetricFresh;
    if (!p.contains("restart_after")) f.restart_after = kSymmetricRestartAfter;
  }
  return f;
}

Ring walk_ring_for(Ring target, const std::string& walk_ring) {
  if (target == Ring::GF2 || target == Ring::GF3) return target;
  if (walk_ring == "GF2") return Ring::GF2;
  if (walk_ring == "GF3") return Ring::GF3;
  return Ring::ZT;
}

}  // namespace tdisc::search::flip
