// The effective engine parameters of a run as the CLI prints them after its settings line and as
// run.json stores them (Engine::resolve gives them, each value with its origin), and a portfolio's
// recipe lanes as run.json and the MPI setup carry them.
#include "src/search/engine.hpp"

#include "base/error.hpp"

namespace tdisc::search {

namespace {

// " ZT z3 default (2 threads)" or " GF2 none 4x4x4-47-GF2 (1 thread)" for a lane (its walk ring,
// symmetry and recipe), " walk" for a named block, "" for the only block.
std::string block_name(const ResolvedParams& b, size_t blocks) {
  if (b.threads > 0)
    return " " + b.walk + (b.recipe == "default" ? " default" : "") + " (" + std::to_string(b.threads) + " thread" + (b.threads > 1 ? "s" : "") + ")";
  return blocks > 1 ? " " + b.walk : "";
}

}  // namespace

std::string resolved_text(const std::vector<ResolvedParams>& blocks) {
  std::string out;
  for (const ResolvedParams& b : blocks) {
    const std::string chosen = b.settings.effective(true);
    const int defaults = b.settings.count_of("default");
    out += "  params" + block_name(b, blocks.size()) + ": " + chosen + (chosen.empty() ? "" : "; ") +
           (chosen.empty() ? "all " : "") + std::to_string(defaults) + " at their defaults\n";
  }
  return out;
}

nlohmann::json resolved_json(const std::vector<ResolvedParams>& blocks) {
  nlohmann::json out = nlohmann::json::array();
  for (const ResolvedParams& b : blocks) {
    nlohmann::json block = {{"walk", b.walk}, {"params", b.settings.to_json()}};
    if (b.threads > 0) block["recipe"] = b.recipe, block["threads"] = b.threads;
    out.push_back(block);
  }
  return out;
}

nlohmann::json lane_recipes_json(const std::vector<LaneRecipe>& recipes) {
  nlohmann::json out = nlohmann::json::array();
  for (const LaneRecipe& r : recipes) out.push_back({{"id", r.name}, {"params", r.params}});
  return out;
}

std::vector<LaneRecipe> lane_recipes_from_json(const nlohmann::json& j, const std::string& origin) {
  std::vector<LaneRecipe> out;
  if (j.is_null()) return out;
  if (!j.is_array()) throw InputError(origin, 0, "the portfolio's recipe lanes must be a list, not " + j.dump());
  for (const nlohmann::json& r : j) {
    if (!r.is_object() || !r.contains("id") || !r["id"].is_string() || !r.value("params", nlohmann::json()).is_object())
      throw InputError(origin, 0, "a recipe lane must be {\"id\": TEXT, \"params\": {…}}, not " + r.dump());
    out.push_back({r["id"].get<std::string>(), r["params"]});
  }
  return out;
}

}  // namespace tdisc::search
