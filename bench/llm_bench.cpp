// bench_llm: does the LLM loop pay? A scripted sequence of improving recipes is run through the whole
// "llm" engine with the real numeric engine, and the recipe the database ends up preferring is
// re-measured on fresh seeds against the engine's default recipe. A measurement (wall-clock times
// on a shared machine), not a test: bench/llm.sh runs it and records bench/results/. Built on the
// tests' scripted HTTP server (tests/llm/script_server) and Catch2's runner.
#include <catch2/catch.hpp>

#include "tests/llm/null_reporter.hpp"
#include <cstdio>

#include "src/llm/engine.hpp"
#include "src/llm/evaluator.hpp"
#include "src/llm/recipe.hpp"
#include "src/search/engine.hpp"
#include "tests/llm/harness.hpp"
#include "tests/llm/script_server.hpp"
#include "tests/support.hpp"
#include <cstdlib>
#include <filesystem>

using namespace tdisc;
using namespace tdisc::llm;
using nlohmann::json;
using test::ScriptServer;

namespace {

// An outer reporter that verifies nothing itself (the inner one does) and never stops.
using QuietReporter = test::NullReporter;

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

namespace {

std::string numeric_recipe(const json& params, const std::string& why) {
  return json{{"version", 1}, {"kind", "recipe"}, {"engine", "numeric"}, {"params", params},
              {"budget_seconds", 6.0}, {"seeds", 2}, {"rationale", why}}.dump();
}

// Default and candidate recipes run seed by seed, alternately, so that the machine's load (two
// shared cores) weighs on both alike. Returns {default, candidate}.
std::pair<Score, Score> measure_pair(const std::string& engine, const json& candidate, search::Target target, int seeds,
                                     double budget, unsigned long long seed) {
  std::vector<SeedRun> a, b;
  Score sa, sb;
  for (int i = 0; i < seeds; ++i) {
    Score x = measure(engine, json::object(), target, 1, budget, seed + i);
    Score y = measure(engine, candidate, target, 1, budget, seed + i);
    sa.seeds++, sb.seeds++;
    sa.successes += x.successes, sb.successes += y.successes;
    sa.mean_time += x.mean_time / seeds, sb.mean_time += y.mean_time / seeds;
  }
  return {sa, sb};
}

}  // namespace

// 2x2x3 rank 11 over Q with the numeric engine: its default recipe against what a scripted "model"
// proposes in three calls (one worse, two better), as chosen by the database, re-measured.
TEST_CASE("a scripted sequence of improving recipes cuts time to target", "[.][llm][improve]") {
  llm::register_llm_engine();
  REQUIRE(search::make_engine("numeric"));
  search::Target target{Format{2, 2, 3}, 11, Ring::Q};
  ScriptServer server({
      ScriptServer::completion(numeric_recipe({{"method", "lm"}}, "Levenberg-Marquardt converges faster")),
      ScriptServer::completion(numeric_recipe({{"lattice", "ternary"}}, "the known schemes are ternary")),
      ScriptServer::completion(numeric_recipe({{"lattice", "ternary"}, {"init_scale", 0.5}}, "larger start, same lattice")),
  });
  std::string dir = test::temp_dir("llm-improve");
  search::EngineConfig config;
  config.target = target;
  config.seed = 2026;
  config.seconds = 300;
  config.params = {{"llm", {{"url", server.base_url()}, {"model", "scripted"}, {"max_calls", 3}, {"engines", "numeric"},
                            {"eval_seconds", 6.0}, {"max_seeds", 2}, {"islands", 1}, {"run_dir", dir}}}};
  test::RunDirReporter reporter(dir, target, 300, /*stop_at_target=*/false);
  reporter.stop_after_events("llm_call", 3);
  search::make_engine("llm")->run(config, reporter);

  json programs = reporter.last_checkpoint()["database"]["programs"];
  json defaults = search::make_engine("numeric")->default_params();
  auto changed_params = [&](const json& p) {
    json changed = json::object();
    for (auto it = p.begin(); it != p.end(); ++it)
      if (defaults[it.key()] != it.value()) changed[it.key()] = it.value();
    return changed;
  };
  std::printf("\nprograms of the database (2x2x3 rank 11 over Q, numeric engine):\n");
  json best;
  for (const auto& p : programs) {
    std::printf("  #%d %-8s %-40s %s\n", p["id"].get<int>(), p["origin"].get<std::string>().c_str(),
                changed_params(p["body"]["params"]).dump().c_str(), p["score"]["note"].get<std::string>().c_str());
    if (best.is_null() || p["score"]["fitness"].get<double>() > best["score"]["fitness"].get<double>()) best = p;
  }
  REQUIRE(best["origin"] == "llm");

  // Re-measured on fresh seeds, so that selection on the evaluation seeds does not flatter it.
  const int seeds = 6;
  json changed = changed_params(best["body"]["params"]);
  auto [base, tuned] = measure_pair("numeric", changed, target, seeds, 15, 90000);
  std::printf("fresh seeds 90000..%d, alternating:\n  default recipe {}: %d/%d reached, mean time to target %.3f s\n"
              "  database best %s: %d/%d reached, mean time to target %.3f s\n  speed-up %.2fx\n",
              90000 + seeds - 1, base.successes, seeds, base.mean_time, changed.dump().c_str(), tuned.successes, seeds,
              tuned.mean_time, base.mean_time / tuned.mean_time);
  CHECK(tuned.successes == seeds);
  CHECK(tuned.mean_time < base.mean_time);
  std::filesystem::remove_all(dir);
}
