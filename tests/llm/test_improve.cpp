// Does the loop pay? A scripted sequence of improving recipes is run through the whole "llm" engine
// with the real numeric engine, and the recipe the database ends up preferring is re-measured on
// fresh seeds against the engine's default recipe: time to target must drop.
#include <catch2/catch.hpp>
#include <cstdio>

#include "src/llm/evaluator.hpp"
#include "src/llm/recipe.hpp"
#include "src/search/engine.hpp"
#include "src/llm/proposer/engine.hpp"
#include "tests/llm/harness.hpp"
#include "tests/llm/script_server.hpp"
#include "tests/support.hpp"
#include <cstdlib>
#include <filesystem>

using namespace tdisc;
using namespace tdisc::llm;
using nlohmann::json;

namespace {

// An outer reporter that verifies nothing itself (the inner one does) and never stops.
class QuietReporter : public search::Reporter {
public:
  bool offer(const Scheme&, const std::string&) override { return true; }
  void event(const json&) override {}
  void add(const std::string&, double) override {}
  void set(const std::string&, double) override {}
  bool stop_requested() const override { return false; }
  int best_rank() const override { return INT_MAX; }
  bool checkpoint_due() const override { return false; }
  void checkpoint(const json&) override {}
};

Score measure(const std::string& engine, const json& overrides, search::Target target, int seeds, double budget,
              unsigned long long seed) {
  Recipe r = default_recipe(engine, budget);
  for (auto it = overrides.begin(); it != overrides.end(); ++it) r.params[it.key()] = it.value();
  r.seeds = seeds;
  EvalContext ctx;
  ctx.target = target;
  ctx.seed = seed;
  QuietReporter q;
  return evaluate_recipe(r, ctx, q).score;
}

}  // namespace

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

// TDISC_EXPLORE_ENGINE / _SIZE / _RANK / _RING / _VARIANTS (JSON list of overrides) / _SEEDS / _BUDGET.
TEST_CASE("explore engine parameters", "[.explore]") {
  std::string engine = env_or("TDISC_EXPLORE_ENGINE", "flip");
  search::Target t{*parse_format(env_or("TDISC_EXPLORE_SIZE", "3x3")), std::stoi(env_or("TDISC_EXPLORE_RANK", "23")),
                   *parse_ring(env_or("TDISC_EXPLORE_RING", "ZT"))};
  json variants = json::parse(env_or("TDISC_EXPLORE_VARIANTS", "[{}]"));
  int seeds = std::stoi(env_or("TDISC_EXPLORE_SEEDS", "4"));
  double budget = std::stod(env_or("TDISC_EXPLORE_BUDGET", "10"));
  for (const auto& v : variants) {
    Score s = measure(engine, v, t, seeds, budget, 100);
    std::printf("%-60s %s, residual %g\n", v.dump().c_str(), s.note.c_str(), s.residual);
  }
}
