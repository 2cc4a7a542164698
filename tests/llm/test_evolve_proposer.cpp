// The LLM as a proposer for tdisc evolve (src/llm/evolve_proposer.hpp): the reply merged onto the best
// recipe and clamped; a tiny evolve whose later generation takes the LLM's recipes from a scripted server;
// a failed call proposes nothing and the generation is still full.
#include <catch2/catch.hpp>

#include "src/llm/evolve_proposer.hpp"
#include "tests/llm/script_server.hpp"

using namespace tdisc;

namespace {

search::evolve::EvolveConfig tiny(const std::string& url) {
  search::evolve::EvolveConfig c;
  c.trial.target = {Format{2, 2, 2}, 7, Ring::Q};
  c.trial.seed = 5;
  c.trial.seconds = 0.4;
  c.base = {{"ansatz", "z3"}, {"device", "cpu"}, {"adam_steps", 1500}, {"adam_lr", 0.02}};
  c.generations = 2;
  c.population = 2;
  c.seed = 3;
  llm::EvolveProposerConfig p;
  p.client.base_url = url;
  p.client.retry.max_attempts = 1;
  p.target = "2x2x2 rank 7 over Q";
  c.proposer = llm::evolve_proposer(p);
  return c;
}

}  // namespace

TEST_CASE("evolve proposer: a reply's recipes merged onto the best, clamped, unknown keys dropped",
          "[fast][llm][evolve]") {
  const nlohmann::json best{{"ansatz", "z3"}, {"adam_lr", 0.02}};
  std::string why;
  const auto r = llm::recipes_from_reply(
      R"(Here: {"recipes": [{"adam_lr": 0.03}, {"adam_lr": 1e9, "nonsense": 4}, {"nonsense": 1}, 7]})", best, 8, why);
  REQUIRE(r.size() == 2);
  CHECK(r[0]["adam_lr"] == 0.03);
  CHECK(r[0]["ansatz"] == "z3");
  CHECK(r[1]["adam_lr"].get<double>() < 1e9);  // clamped to the table's range
  CHECK_FALSE(r[1].contains("nonsense"));
  CHECK(why.empty());
  CHECK(llm::recipes_from_reply("no json at all", best, 8, why).empty());
  CHECK_FALSE(why.empty());
  CHECK(llm::recipes_from_reply(R"({"recipes": [{"adam_lr": 0.03}, {"adam_lr": 0.04}]})", best, 1, why).size() == 1);
}

TEST_CASE("evolve proposer: a later generation scores the LLM's recipe; the request shows the genes",
          "[fast][llm][evolve]") {
  test::ScriptServer server(
      [](size_t) { return test::ScriptServer::completion(R"({"recipes": [{"adam_lr": 0.031}]})"); });
  const auto r = search::evolve::evolve(tiny(server.base_url()));
  bool llm_scored = false;
  for (const auto& s : r.history) llm_scored = llm_scored || (s.origin == "proposer" && s.params["adam_lr"] == 0.031);
  CHECK(llm_scored);
  REQUIRE(server.requests().size() >= 1);
  CHECK(server.requests()[0].body.find("cull_residual") != std::string::npos);
  CHECK(static_cast<int>(r.history.size()) == 4);  // 2 generations × 2
}

TEST_CASE("evolve proposer: a failing endpoint proposes nothing and mutation fills the generation",
          "[fast][llm][evolve]") {
  test::ScriptServer server([](size_t) { return test::ScriptServer::error(500, "down"); });
  const auto r = search::evolve::evolve(tiny(server.base_url()));
  CHECK(static_cast<int>(r.history.size()) == 4);
  for (const auto& s : r.history) CHECK(s.origin != "proposer");
}
