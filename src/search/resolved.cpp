// The effective engine parameters of a run as the CLI prints them after its settings line and as
// run.json stores them (Engine::resolve gives them, each value with its origin).
#include "src/search/engine.hpp"

namespace tdisc::search {

std::string resolved_text(const std::vector<ResolvedParams>& blocks) {
  std::string out;
  for (const ResolvedParams& b : blocks) {
    const std::string chosen = b.settings.effective(true);
    const int defaults = b.settings.count_of("default");
    out += "  params" + (blocks.size() > 1 ? " " + b.walk : "") + ": " + chosen + (chosen.empty() ? "" : "; ") +
           (chosen.empty() ? "all " : "") + std::to_string(defaults) + " at their defaults\n";
  }
  return out;
}

nlohmann::json resolved_json(const std::vector<ResolvedParams>& blocks) {
  nlohmann::json out = nlohmann::json::array();
  for (const ResolvedParams& b : blocks) out.push_back({{"walk", b.walk}, {"params", b.settings.to_json()}});
  return out;
}

}  // namespace tdisc::search
