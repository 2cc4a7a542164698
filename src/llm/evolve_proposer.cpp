// evolve_proposer (evolve_proposer.hpp): the prompt, one chat call, the reply merged and clamped.
#include "src/llm/evolve_proposer.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include "src/llm/json_extract.hpp"
#include "src/search/evolve/recipe_space.hpp"

namespace tdisc::llm {

namespace {

nlohmann::json genes_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const search::evolve::Gene& g : search::evolve::genes())
    out.push_back({{"key", g.key}, {"min", g.lo}, {"max", g.hi}, {"typical", g.typical}, {"zero_turns_off", g.can_be_off},
                   {"integer", g.integer}});
  return out;
}

std::string prompt(const EvolveProposerConfig& c, const search::evolve::Elites& elites, int count) {
  const nlohmann::json context{{"target", c.target},
                               {"genes", genes_json()},
                               {"elites", elites.to_json()},
                               {"count", count}};
  return "tdisc evolve searches for numeric-engine recipes (seed-space Adam with AlphaEvolve's terms: noise, "
         "soft clip, discretisation, large-value penalty, restart culling) that find the most solutions per "
         "second for the target below. Each elite is the best recipe of its cell with its rate "
         "(finds per second). Propose " + std::to_string(count) +
         " new recipes, each changing one to four genes of the best elite, within the genes' ranges. Answer "
         "with one JSON object {\"recipes\": [{\"key\": value, ...}, ...]} and nothing else.\n\n" +
         context.dump(1);
}

double clamp_gene(const search::evolve::Gene& g, double v) {
  v = std::clamp(v, g.lo, g.hi);
  return g.integer ? std::round(v) : v;
}

}  // namespace

std::vector<nlohmann::json> recipes_from_reply(const std::string& reply, const nlohmann::json& best, int count,
                                               std::string& why_not) {
  std::vector<nlohmann::json> out;
  const Extracted e = extract_json(reply);
  if (!e.value) return why_not = e.why_not, out;
  const nlohmann::json& recipes = e.value->contains("recipes") ? (*e.value)["recipes"] : nlohmann::json();
  if (!recipes.is_array()) return why_not = "the reply has no \"recipes\" array", out;
  for (const nlohmann::json& r : recipes) {
    if (static_cast<int>(out.size()) >= count) break;
    if (!r.is_object()) continue;
    nlohmann::json merged = best;
    bool changed = false;
    for (const search::evolve::Gene& g : search::evolve::genes())
      if (r.contains(g.key) && r[g.key].is_number()) {
        const double v = clamp_gene(g, r[g.key].get<double>());
        merged[g.key] = g.integer ? nlohmann::json(static_cast<long long>(v)) : nlohmann::json(v);
        changed = true;
      }
    if (changed) out.push_back(std::move(merged));
  }
  if (out.empty()) why_not = "no recipe in the reply changes a known gene";
  return out;
}

search::evolve::Proposer evolve_proposer(EvolveProposerConfig config) {
  auto client = std::make_shared<ChatClient>(config.client);
  return [config, client](const search::evolve::Elites& elites, int count) {
    std::vector<nlohmann::json> none;
    const search::evolve::Scored* best = elites.best();
    if (!best) return none;
    ChatRequest request;
    request.model = config.model;
    request.schema = nullptr;  // free JSON: the recipes' keys vary
    request.messages = {{"user", prompt(config, elites, count)}};
    const ChatResult r = client->complete(request);
    if (!r.ok()) {
      if (config.log) config.log("llm: no proposal (" + status_name(r.status) + ": " + r.error + ")");
      return none;
    }
    std::string why_not;
    std::vector<nlohmann::json> recipes = recipes_from_reply(r.content, best->params, count, why_not);
    if (config.log)
      config.log("llm: " + std::to_string(recipes.size()) + " recipe(s) proposed" +
                 (why_not.empty() ? "" : " (" + why_not + ")"));
    return recipes;
  };
}

}  // namespace tdisc::llm
