// Does the loop pay? A scripted sequence of improving recipes is run through the whole "llm" engine
// with the real numeric engine, and the recipe the database ends up preferring is re-measured on
// fresh seeds against the engine's default recipe: time to target must drop.
#include <catch2/catch.hpp>
#include <cstdio>

#include "src/llm/evaluator.hpp"
#include "src/llm/recipe.hpp"
#include "src/search/engine.hpp"

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

TEST_CASE("explore numeric parameters", "[.explore]") {
  search::Target t{Format{2, 2, 2}, 7, Ring::Q};
  const char* variants[] = {R"({})", R"({"method":"lm"})", R"({"lattice":"half"})"};
  for (const char* v : variants) {
    Score s = measure("numeric", json::parse(v), t, 4, 5, 100);
    std::printf("%-45s %s, residual %g\n", v, s.note.c_str(), s.residual);
  }
}
