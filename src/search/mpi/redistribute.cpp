// Redistribution of a checkpoint's per-rank states over a new number of ranks (see redistribute.hpp).
// Flip: per lane, every walker (terms + random state) goes to one new rank, round-robin, and every
// new rank gets the union of the pools (the pool keeps the lowest rank); a rank left without
// walkers starts its walkers from those pools. Numeric: restarts resume at the lowest unfinished
// index of any old rank; near-miss seed pools are merged.
#include "src/search/mpi/redistribute.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>

namespace tdisc::search::mpi {

namespace {

using nlohmann::json;

// One flip lane's walk state {"walkers":[…], "pool":[…], "pool_rank":r, …} dealt to `ranks` ranks.
std::vector<json> deal_walk(const std::vector<json>& olds, int ranks) {
  json walkers = json::array(), pool = json::array();
  int pool_rank = INT32_MAX;
  for (const json& s : olds) {
    if (!s.is_object()) continue;
    for (const json& w : s.value("walkers", json::array())) walkers.push_back(w);
    for (const json& t : s.value("pool", json::array())) pool.push_back(t);
    pool_rank = std::min(pool_rank, s.value("pool_rank", INT32_MAX));
  }
  std::vector<json> out(static_cast<size_t>(ranks));
  for (int k = 0; k < ranks; ++k) {
    json mine = json::array();
    for (size_t i = static_cast<size_t>(k); i < walkers.size(); i += static_cast<size_t>(ranks)) mine.push_back(walkers[i]);
    if (mine.empty())  // more ranks than walkers: start from the pool, with this rank's own random streams
      for (const json& t : pool) mine.push_back({{"terms", t}});
    json s = olds.empty() || !olds.front().is_object() ? json::object() : olds.front();
    s["walkers"] = mine;
    s["pool"] = pool;
    s["pool_rank"] = pool_rank;
    out[static_cast<size_t>(k)] = s;
  }
  return out;
}

std::vector<json> deal_flip(const std::vector<json>& olds, int ranks) {
  if (!olds.front().contains("lanes")) return deal_walk(olds, ranks);
  std::vector<json> out(static_cast<size_t>(ranks), olds.front());
  const size_t lanes = olds.front().at("lanes").size();
  for (size_t l = 0; l < lanes; ++l) {
    std::vector<json> walks;
    for (const json& s : olds) walks.push_back(s.at("lanes").at(l).value("state", json()));
    std::vector<json> dealt = deal_walk(walks, ranks);
    for (int k = 0; k < ranks; ++k) out[static_cast<size_t>(k)]["lanes"][l]["state"] = dealt[static_cast<size_t>(k)];
  }
  return out;
}

std::vector<json> deal_numeric(const std::vector<json>& olds, int ranks) {
  json merged = olds.front();
  long next = LONG_MAX;
  double residual = -1, fraction = 0;
  json seeds = json::array();
  for (const json& s : olds) {
    next = std::min(next, s.value("next_restart", 0L));
    double r = s.value("best_residual", -1.0);
    if (r >= 0 && (residual < 0 || r < residual)) residual = r;
    fraction = std::max(fraction, s.value("best_exact_fraction", 0.0));
    for (const json& x : s.value("seeds", json::array())) seeds.push_back(x);
  }
  merged["best_residual"] = residual;
  merged["best_exact_fraction"] = fraction;
  merged["seeds"] = seeds;
  std::vector<json> out(static_cast<size_t>(ranks), merged);
  for (int k = 0; k < ranks; ++k) out[static_cast<size_t>(k)]["next_restart"] = next + k;
  return out;
}

}  // namespace

json combine_states(const std::vector<json>& states, const std::string& engine) {
  return {{"mpi", {{"ranks", states.size()}, {"engine", engine}}}, {"ranks", states}};
}

bool is_combined(const json& state) { return state.is_object() && state.contains("mpi") && state.contains("ranks"); }

std::vector<json> redistribute(const std::optional<json>& state, int ranks) {
  if (!state || state->is_null()) return std::vector<json>(static_cast<size_t>(ranks));
  std::vector<json> olds;
  if (is_combined(*state)) {
    for (const json& s : state->at("ranks"))
      if (s.is_object()) olds.push_back(s);  // a rank lost before its first checkpoint has none
  } else {
    olds.push_back(*state);
  }
  if (olds.empty()) return std::vector<json>(static_cast<size_t>(ranks));
  if (static_cast<int>(olds.size()) == ranks && is_combined(*state)) return olds;  // same ranks: each its own
  const std::string engine = olds.front().value("engine", std::string());
  if (engine == "flip") return deal_flip(olds, ranks);
  if (engine == "numeric") return deal_numeric(olds, ranks);
  std::vector<json> out(static_cast<size_t>(ranks));  // other engines (llm): rank 0 continues, others start fresh
  out[0] = olds.front();
  return out;
}

json gather_checkpoint(json checkpoint) {
  if (!is_combined(checkpoint.value("state", json()))) return checkpoint;
  checkpoint["state"] = redistribute(checkpoint.at("state"), 1).front();
  if (checkpoint.contains("counters"))
    for (const char* c : {"ranks", "slowest_rank", "slowest_rate"}) checkpoint["counters"].erase(c);
  return checkpoint;
}

}  // namespace tdisc::search::mpi
