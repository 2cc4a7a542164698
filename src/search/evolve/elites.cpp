// The MAP-Elites cells and their elites.
#include "src/search/evolve/elites.hpp"

#include <iterator>

#include "base/error.hpp"

namespace tdisc::search::evolve {

nlohmann::json Scored::to_json() const {
  return {{"id", id},           {"generation", generation}, {"origin", origin},   {"params", params},
          {"seed", seed},       {"seconds", seconds},       {"restarts", restarts}, {"numerical", numerical},
          {"exact", exact},     {"culled", culled},         {"residual", residual}, {"finds_per_second", rate()},
          {"cell", cell_of(params)}};
}

bool better(const Scored& a, const Scored& b) {
  if (a.rate() != b.rate()) return a.rate() > b.rate();
  if (a.residual < 0) return false;
  return b.residual < 0 || a.residual < b.residual;
}

std::string cell_of(const nlohmann::json& p) {
  auto on = [&](const char* key) { return p.contains(key) && p[key].is_number() && p[key].get<double>() > 0; };
  std::string c;
  auto add = [&](const char* family) { c += (c.empty() ? "" : "+") + std::string(family); };
  if (on("grad_noise") || on("param_noise") || on("target_noise") || on("hallucinate")) add("noise");
  if (on("soft_clip_period")) add("clip");
  if (on("discrete_weight") || on("large_weight")) add("discrete");
  if (on("cull_residual")) add("cull");
  return c.empty() ? "plain" : c;
}

bool Elites::add(const Scored& s) {
  const std::string c = cell_of(s.params);
  auto it = cells_.find(c);
  if (it != cells_.end() && !better(s, it->second)) return false;
  cells_[c] = s;
  return true;
}

const Scored* Elites::best() const {
  const Scored* b = nullptr;
  for (const auto& [c, s] : cells_)
    if (!b || better(s, *b)) b = &s;
  return b;
}

std::vector<const Scored*> Elites::all() const {
  std::vector<const Scored*> out;
  for (const auto& [c, s] : cells_) out.push_back(&s);
  return out;
}

const Scored& Elites::parent(std::mt19937_64& rng, double exploit) const {
  TDISC_REQUIRE(!cells_.empty(), "evolve: no recipe scored yet");
  if (std::uniform_real_distribution<double>(0, 1)(rng) < exploit) return *best();
  auto it = cells_.begin();
  std::advance(it, static_cast<long>(std::uniform_int_distribution<size_t>(0, cells_.size() - 1)(rng)));
  return it->second;
}

nlohmann::json Elites::to_json() const {
  nlohmann::json cells = nlohmann::json::object();
  for (const auto& [c, s] : cells_) cells[c] = s.to_json();
  return cells;
}

}  // namespace tdisc::search::evolve
