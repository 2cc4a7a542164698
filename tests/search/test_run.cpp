// search::run (src/search/run.hpp): one search from an ask to its outcome, for callers beside the
// command line (tdisc campaign); and the meta engine as a registered engine.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/params/bind.hpp"
#include "src/search/run.hpp"
#include "tests/support.hpp"

using namespace tdisc;

namespace {
// An ask for 2x2:7 over ring within 20 s, into a fresh temporary run directory.
search::RunAsk ask_2x2(Ring ring, int threads, int seed, const std::string& dir, nlohmann::json params) {
  search::RunAsk a;
  a.plan.format = {2, 2, 2};
  a.plan.rank = 7;
  a.plan.ring = ring;
  a.threads = threads;
  a.seconds = 20;
  a.seed = seed;
  a.out_dir = test::temp_dir(dir) + "/run";
  a.params = std::move(params);
  return a;
}
}  // namespace

TEST_CASE("search::run runs an ask to its outcome and records the parameters with their origins", "[fast]") {
  search::RunAsk a = ask_2x2(Ring::GF2, 1, 4, "run-api", {{"plus_min", 123}});
  a.plan.symmetry = "none";
  const search::SearchOutcome out = search::run(a, nullptr);
  CHECK(out.reached);
  CHECK(out.best_rank == 7);
  const nlohmann::json run = nlohmann::json::parse(test::slurp(a.out_dir + "/run.json"));
  CHECK(run["seed"] == 4);
  REQUIRE(run["resolved_params"].is_array());
  REQUIRE(!run["resolved_params"].empty());
  for (const nlohmann::json& block : run["resolved_params"]) {
    INFO(block.dump());
    CHECK(block["params"]["plus_min"]["value"] == 123);
    CHECK(block["params"]["plus_min"]["from"] == "given");
    CHECK(block["params"]["symmetry"]["value"] == "none");
  }
}

// The bind is the validation (prepare), and resolve (the printout, run.json) and run (the walk) read
// the value it bound: one bind for a two-lane search, each lane a typed copy with its rules applied.
TEST_CASE("a search binds its parameters once, in prepare", "[fast][params]") {
  search::RunAsk a = ask_2x2(Ring::Z, 2, 5, "run-binds", {{"plus_min", 123}, {"plus_max", 456}});
  a.plan.engine = "flip";
  const long before = params::bind_count();
  search::PreparedRun p = search::prepare(a);
  CHECK(params::bind_count() - before == 1);
  const auto blocks = search::resolve(p);
  REQUIRE(blocks.size() == 2);  // two lanes, neither bound again
  for (const auto& b : blocks) CHECK(b.settings.value("plus_min") == 123);
  CHECK(params::bind_count() - before == 1);
  CHECK(search::run(p, nullptr).reached);
  CHECK(params::bind_count() - before == 1);
}

TEST_CASE("search::prepare refuses what the engine refuses, naming where the parameters came from", "[fast]") {
  search::RunAsk a;
  a.plan.format = {2, 2, 2};
  a.plan.rank = 7;
  a.check_out_dir = false;
  a.params = {{"plus_min", -1}};
  a.params_source = "recipe.json";
  try {
    search::prepare(a);
    FAIL("accepted");
  } catch (const UsageError& e) {
    CHECK(std::string(e.what()).find("recipe.json: params.plus_min") == 0);
  }
  a.plan.engine = "flip";
  a.params = {{"plus_min", 300}, {"plus_max", 200}};  // a rule across keys, checked in the same bind
  try {
    search::prepare(a);
    FAIL("accepted");
  } catch (const UsageError& e) {
    CHECK(std::string(e.what()) == "recipe.json: params.plus_min (300) must not exceed plus_max (200)");
  }
}

TEST_CASE("meta is an engine of the registry and finds its catalogue in the config", "[fast]") {
  auto meta = search::make_engine("meta");
  REQUIRE(meta);
  search::EngineConfig c;
  c.target = {{2, 3, 3}, 15, Ring::ZT};
  c.catalogue_dir = "some/catalogue";
  const auto blocks = meta->resolve(c);
  REQUIRE(blocks.size() == 2);
  CHECK(blocks[0].settings.value("catalogue") == "some/catalogue");
  CHECK(blocks[0].settings.origin("catalogue") == "derived: the run's catalogue");
  c.params = {{"catalogue", "elsewhere"}};
  CHECK(meta->resolve(c)[0].settings.origin("catalogue") == "given");
  c = {};
  c.target = {{2, 3, 3}, 15, Ring::ZT};
  CHECK_THROWS_AS(meta->resolve(c), UsageError);
}
