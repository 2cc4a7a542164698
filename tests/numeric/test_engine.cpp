// The numeric engine through the Engine contract: finds small schemes from random starts, offers
// only verified schemes, repeats a run from the same seed, checkpoints and resumes, and rejects bad
// parameters with precise messages.
#include <catch2/catch.hpp>

#include "base/error.hpp"
#include "src/search/engine.hpp"
#include "src/search/numeric/params.hpp"
#include "tests/numeric/recording_reporter.hpp"

using namespace tdisc;
using namespace tdisc::search;

namespace {
EngineConfig config(Format f, int rank, Ring ring, unsigned long long seed, nlohmann::json params = {}) {
  EngineConfig c;
  c.target = {f, rank, ring};
  c.seed = seed;
  c.params = params.is_null() ? nlohmann::json::object() : params;
  return c;
}

// Everything a single-threaded run reports: events, restart count, the schemes it offered.
std::string trace_of(const EngineConfig& c) {
  auto e = tdisc::search::make_engine("numeric");
  test::RecordingReporter rep(c.target.ring, 120);
  e->run(c, rep);
  nlohmann::json trace = rep.events;
  trace.push_back(rep.counters["restarts"]);
  for (auto& s : rep.valid) trace.push_back(canonical_text(s));
  return trace.dump();
}
}  // namespace

TEST_CASE("make_engine(\"numeric\") gives the numeric engine with its knobs", "[fast]") {
  auto e = make_engine("numeric");
  REQUIRE(e);
  CHECK(e->name() == "numeric");
  auto p = e->default_params();
  for (const char* k : {"lattice", "init_scale", "reg_start", "reg_end", "lattice_weight_start",
                        "lattice_weight_end", "noise_start", "noise_decay", "restarts", "als_iterations",
                        "round_fraction", "field", "restart_seconds", "method", "clip"})
    CHECK(p.contains(k));
  CHECK(e->validate_params(p).empty());
}

TEST_CASE("validate_params names the key, the problem and the value", "[fast]") {
  auto e = tdisc::search::make_engine("numeric");
  auto msgs = e->validate_params({{"lattice", "thirds"}, {"init_scale", "big"}, {"restarts", -1},
                                  {"noise_decay", 1.5}, {"bogus", 1}, {"restarts_", 2}});
  REQUIRE(msgs.size() == 6);
  std::string all;
  for (auto& m : msgs) all += m + "\n";
  CHECK_THAT(all, Catch::Contains("params.lattice: expected one of auto, ternary, integer, half, half-gaussian, got \"thirds\""));
  CHECK_THAT(all, Catch::Contains("params.init_scale: expected a number, got \"big\""));
  CHECK_THAT(all, Catch::Contains("params.restarts: -1 is out of range [0.."));
  CHECK_THAT(all, Catch::Contains("params.noise_decay: 1.5 is out of range [0..1]"));
  CHECK_THAT(all, Catch::Contains("params.bogus: unknown numeric parameter"));
  CHECK(e->validate_params({{"als_iterations", 2.5}}).front() ==
        "params.als_iterations: expected an integer, got 2.5");
  CHECK(e->validate_params({{"field", "real"}, {"lattice", "half-gaussian"}}).size() == 1);
  EngineConfig c = config({2, 2, 2}, 7, Ring::Q, 1, {{"clip", "x"}});
  test::RecordingReporter rep(Ring::Q, 5);
  CHECK_THROWS_AS(e->run(c, rep), UsageError);
}

TEST_CASE("lattice auto: {0,±1} over Q at the best integer rank, ½·Z below it, ½·Z[i] over QI", "[fast]") {
  using numeric::Lattice;
  CHECK(numeric::auto_lattice({{3, 3, 3}, 23, Ring::Q}) == Lattice::Ternary);
  CHECK(numeric::auto_lattice({{2, 2, 2}, 7, Ring::Q}) == Lattice::Ternary);
  CHECK(numeric::auto_lattice({{4, 4, 4}, 48, Ring::Q}) == Lattice::Half);
  CHECK(numeric::auto_lattice({{2, 4, 5}, 32, Ring::Q}) == Lattice::Half);
  CHECK(numeric::auto_lattice({{4, 4, 4}, 48, Ring::QI}) == Lattice::HalfGaussian);
  CHECK(numeric::auto_lattice({{3, 3, 3}, 23, Ring::ZT}) == Lattice::Ternary);
  CHECK(numeric::resolve({{"lattice", "half"}}, {{3, 3, 3}, 23, Ring::Q}).lattice == Lattice::Half);
}

TEST_CASE("finds 2x2 rank 7 over Q from random starts and offers only verified schemes", "[fast]") {
  auto e = tdisc::search::make_engine("numeric");
  test::RecordingReporter rep(Ring::Q, 60);
  e->run(config({2, 2, 2}, 7, Ring::Q, 42), rep);
  CHECK(rep.invalid.empty());
  REQUIRE_FALSE(rep.valid.empty());
  CHECK(rep.valid.front().rank() <= 7);
  CHECK(verify(rep.valid.front(), Ring::Q).valid);
  CHECK(rep.counters["restarts"] >= 1);
  CHECK(rep.valid.front().provenance.method == "numeric");
}

TEST_CASE("finds 2x2 rank 7 over Q(i) with complex factors on the half-Gaussian lattice", "[fast]") {
  auto e = tdisc::search::make_engine("numeric");
  test::RecordingReporter rep(Ring::QI, 60);
  e->run(config({2, 2, 2}, 7, Ring::QI, 5), rep);
  CHECK(rep.invalid.empty());
  REQUIRE_FALSE(rep.valid.empty());
  CHECK(verify(rep.valid.front(), Ring::QI).valid);
}

TEST_CASE("nothing is offered when the rank is impossible (2x2 rank 6)", "[fast]") {
  auto e = tdisc::search::make_engine("numeric");
  test::RecordingReporter rep(Ring::Q, 4);
  e->run(config({2, 2, 2}, 6, Ring::Q, 3), rep);
  CHECK(rep.valid.empty());
  CHECK(rep.invalid.empty());
  CHECK(rep.counters["restarts"] >= 1);
  CHECK(rep.counters["residual"] > 0.1);  // rank 6 < border rank 7: never close
}

TEST_CASE("the same seed gives the same run (single thread, restart count bounded)", "[fast]") {
  auto once = [](unsigned long long seed) {
    return trace_of(config({2, 2, 3}, 11, Ring::Q, seed, {{"restarts", 4}, {"als_iterations", 400}}));
  };
  std::string a = once(9), b = once(9);
  CHECK(a == b);
  CHECK(a != once(10));
}

TEST_CASE("complex LM over Q(i): finds 2x2 rank 7, and the same seed gives the same run", "[fast]") {
  auto once = [](unsigned long long seed) {
    return trace_of(config({2, 2, 2}, 7, Ring::QI, seed, {{"method", "lm"}, {"restarts", 3}}));
  };
  std::string a = once(4);
  CHECK(a == once(4));
  CHECK(a != once(5));
  CHECK_THAT(a, Catch::Contains("\"field\":\"complex\"") && Catch::Contains("\"method\":\"lm\""));
  // Seed 3 finds it at its 13th restart; runs are reproducible, so this is fixed. Its time is not: this
  // case took 26 s on the 2-core VM under other builds' load and 47 s pinned to one core beside a busy
  // process, near the 60 s budget it had; the budget is now far beyond any machine's.
  auto e = tdisc::search::make_engine("numeric");
  test::RecordingReporter rep(Ring::QI, 600);
  e->run(config({2, 2, 2}, 7, Ring::QI, 3, {{"method", "lm"}}), rep);
  CHECK(rep.invalid.empty());
  REQUIRE(rep.valid.size() == 1);
  CHECK(verify(rep.valid.front(), Ring::QI).valid);
  CHECK(rep.valid.front().provenance.extra["optimiser"] == "lm");
  CHECK(nlohmann::json::parse(rep.valid.front().provenance.extra["params"]) == nlohmann::json{{"method", "lm"}});
  CHECK(rep.counters["restarts"] == 13);
}

TEST_CASE("checkpoints carry the next restart and seeds; resume continues from them", "[fast]") {
  auto e = tdisc::search::make_engine("numeric");
  test::RecordingReporter rep(Ring::Q, 60);
  rep.checkpoint_every_call = true;
  e->run(config({2, 2, 2}, 6, Ring::Q, 3, {{"restarts", 3}, {"discretise_below", 10.0}, {"als_iterations", 200}}), rep);
  REQUIRE_FALSE(rep.checkpoints.empty());
  const auto& last = rep.checkpoints.back();
  CHECK(last["engine"] == "numeric");
  CHECK(last["next_restart"] == 3);
  CHECK(last["seeds"].size() >= 1);  // rank 6 can only give near-misses: they are kept as seeds
  EngineConfig c = config({2, 2, 2}, 6, Ring::Q, 3, {{"restarts", 5}, {"als_iterations", 200}});
  c.resume = last;
  test::RecordingReporter rep2(Ring::Q, 60);
  e->run(c, rep2);
  CHECK(rep2.counters["restarts"] == 2);  // restarts 3 and 4 only
  CHECK(rep2.events.front()["first_restart"] == 3);
}
