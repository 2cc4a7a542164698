// The flip engine's parameters: defaults, validation (one precise message per problem) and parsing.
#include "src/search/flip/params.hpp"

#include <algorithm>

namespace tdisc::search::flip {

nlohmann::json default_flip_params() {
  FlipParams d;
  return {{"walk_ring", d.walk_ring},         {"plus_min", d.walk.plus_min},   {"plus_max", d.walk.plus_max},
          {"plus_diff", d.walk.plus_diff},    {"reductions", d.walk.reductions}, {"batch", d.batch},
          {"pool_size", d.pool_size},         {"restart_after", d.restart_after}, {"adopt", d.adopt}, {"fresh", d.fresh},
          {"max_flips", d.max_flips},         {"lift_steps", d.lift_steps},    {"lift_tries", d.lift_tries},
          {"lift_every", d.lift_every},       {"symmetry", d.symmetry},           {"diagonal", d.diagonal},
          {"pick", d.walk.pick_by_factor ? "factor" : "pair"}};
}

namespace {

void check_integer(const nlohmann::json& p, const char* key, long lo, long hi, std::vector<std::string>& out) {
  if (!p.contains(key)) return;
  const auto& v = p[key];
  if (!v.is_number_integer()) {
    out.push_back(std::string(key) + ": must be an integer");
    return;
  }
  long x = v.get<long>();
  if (x < lo || x > hi)
    out.push_back(std::string(key) + ": " + std::to_string(x) + " is out of range " + std::to_string(lo) + ".." + std::to_string(hi));
}

}  // namespace

std::vector<std::string> check_flip_params(const nlohmann::json& p) {
  std::vector<std::string> out;
  if (!p.is_object()) return {"flip parameters must be a JSON object"};
  nlohmann::json known = default_flip_params();
  for (auto& [k, v] : p.items())
    if (!known.contains(k) && k != "llm") out.push_back("unknown flip parameter \"" + k + "\" (known: plus_min, plus_max, plus_diff, reductions, walk_ring, batch, pool_size, restart_after, adopt, fresh, max_flips, lift_steps, lift_tries, lift_every, symmetry, diagonal, pick)");
  if (p.contains("walk_ring")) {
    const auto& w = p["walk_ring"];
    static const std::vector<std::string> rings = {"auto", "ZT", "GF2", "GF3"};
    if (!w.is_string() || std::find(rings.begin(), rings.end(), w.get<std::string>()) == rings.end())
      out.push_back("walk_ring: must be one of auto, ZT, GF2, GF3");
  }
  if (p.contains("symmetry") && !(p["symmetry"].is_string() && (p["symmetry"] == "auto" || p["symmetry"] == "none" || p["symmetry"] == "z3")))
    out.push_back("symmetry: must be \"auto\", \"none\" or \"z3\"");
  if (const nlohmann::json d = p.value("diagonal", nlohmann::json("auto"));
      !d.is_string() || (d != "auto" && d.get<std::string>().find_first_not_of("0123456789,|") != std::string::npos))
    out.push_back("diagonal: must be \"auto\" or a partition of the diagonal such as \"0,1|2\"");
  if (p.contains("pick") && !(p["pick"] == "pair" || p["pick"] == "factor"))
    out.push_back("pick: must be \"pair\" (a uniform flip pair) or \"factor\" (a uniform shared factor, then a pair)");
  check_integer(p, "plus_min", 1, 1L << 40, out);
  check_integer(p, "plus_max", 1, 1L << 40, out);
  check_integer(p, "plus_diff", 0, 64, out);
  check_integer(p, "batch", 1, 1 << 24, out);
  check_integer(p, "pool_size", 1, 100000, out);
  check_integer(p, "restart_after", 1, 1L << 50, out);
  check_integer(p, "max_flips", 0, 1L << 50, out);
  check_integer(p, "lift_steps", 1, 38, out);
  check_integer(p, "lift_tries", 0, 1000000, out);
  check_integer(p, "lift_every", 0, 1L << 50, out);
  if (p.contains("reductions") && !p["reductions"].is_boolean()) out.push_back("reductions: must be true or false");
  if (p.contains("adopt") && (!p["adopt"].is_number() || p["adopt"].get<double>() < 0 || p["adopt"].get<double>() > 1))
    out.push_back("adopt: must be a number in 0..1");
  if (p.contains("fresh") && (!p["fresh"].is_number() || p["fresh"].get<double>() < 0 || p["fresh"].get<double>() > 1))
    out.push_back("fresh: must be a number in 0..1");
  if (!out.empty()) return out;
  long lo = p.value("plus_min", FlipParams{}.walk.plus_min), hi = p.value("plus_max", FlipParams{}.walk.plus_max);
  if (lo > hi) out.push_back("plus_min (" + std::to_string(lo) + ") must not exceed plus_max (" + std::to_string(hi) + ")");
  return out;
}

FlipParams parse_flip_params(const nlohmann::json& p) {
  FlipParams f;
  f.walk_ring = p.value("walk_ring", f.walk_ring);
  f.walk.plus_min = p.value("plus_min", f.walk.plus_min);
  f.walk.plus_max = p.value("plus_max", f.walk.plus_max);
  f.walk.plus_diff = p.value("plus_diff", f.walk.plus_diff);
  f.walk.reductions = p.value("reductions", f.walk.reductions);
  f.walk.pick_by_factor = p.value("pick", std::string("pair")) == "factor";
  f.batch = p.value("batch", f.batch);
  f.pool_size = p.value("pool_size", f.pool_size);
  f.restart_after = p.value("restart_after", f.restart_after);
  f.adopt = p.value("adopt", f.adopt);
  f.fresh = p.value("fresh", f.fresh);
  f.max_flips = p.value("max_flips", f.max_flips);
  f.lift_steps = p.value("lift_steps", f.lift_steps);
  f.lift_tries = p.value("lift_tries", f.lift_tries);
  f.lift_every = p.value("lift_every", f.lift_every);
  f.symmetry = p.value("symmetry", f.symmetry);
  f.diagonal = p.value("diagonal", f.diagonal);
  if (f.symmetry == "z3") {  // symmetric walks reach low ranks from the start in ~1M flips: start over when stuck
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
