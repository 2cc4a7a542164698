// The pipelined loop (issue: "an LLM loop that never idles"): requests go out from the first second,
// several are in flight at once while the search threads evaluate, 429 and 500 answers are retried
// inside the budget, and a recipe without "version" is read as version 1.
#include <catch2/catch.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "src/llm/engine.hpp"
#include "src/llm/proposer/schedule.hpp"
#include "src/llm/recipe.hpp"
#include "tests/llm/harness.hpp"
#include "tests/llm/script_server.hpp"
#include "tests/support.hpp"

using namespace tdisc;
using nlohmann::json;
using test::ScriptServer;
using test::ScriptStep;

namespace {

std::string flip_recipe(int plus_diff) {
  return json{{"version", 1}, {"kind", "recipe"}, {"engine", "flip"}, {"params", {{"plus_diff", plus_diff}}},
              {"budget_seconds", 1.0}, {"seeds", 1}, {"rationale", "pipeline test"}}.dump();
}

std::vector<json> jsonl(const std::string& path, const std::string& event = "") {
  std::vector<json> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    json e = json::parse(line, nullptr, false);
    if (!e.is_discarded() && (event.empty() || e.value("event", "") == event)) out.push_back(e);
  }
  return out;
}

// The most requests the server had open at one moment (arrival to answer).
int most_open_at_once(const std::vector<test::SeenRequest>& seen) {
  int best = 0;
  for (const auto& a : seen) {
    int open = 0;
    for (const auto& b : seen)
      if (b.arrived_s <= a.arrived_s && (b.answered_s < 0 || b.answered_s > a.arrived_s)) ++open;
    best = std::max(best, open);
  }
  return best;
}

}  // namespace

TEST_CASE("the schedule scales evaluation time with the budget", "[fast][llm][pipeline]") {
  CHECK(llm::make_schedule(60, 0, 4, 2).eval_seconds == Approx(3));
  CHECK(llm::make_schedule(36000, 0, 4, 2).eval_seconds == Approx(300));
  CHECK(llm::make_schedule(10, 0, 4, 2).eval_seconds == Approx(2));
  CHECK(llm::make_schedule(0, 0, 4, 2).eval_seconds == Approx(30));
  CHECK(llm::make_schedule(60, 7.5, 4, 2).eval_seconds == Approx(7.5));
  CHECK_FALSE(llm::make_schedule(60, 7.5, 4, 2).automatic);
  CHECK(llm::make_schedule(60, 0, 4, 2).describe().find("4 requests in flight") == 0);
}

TEST_CASE("a recipe without version is version 1; unknown keys are still refused", "[fast][llm][pipeline]") {
  llm::ProposalRules rules;
  rules.target = {Format{2, 2, 2}, 7, Ring::ZT};
  rules.engines = {"flip"};
  rules.kinds = {"recipe"};
  auto ok = llm::check_proposal(json::parse(R"({"kind":"recipe","engine":"flip","params":{},"budget_seconds":1,"seeds":1})"), rules);
  CHECK(ok.proposal.has_value());
  auto extra = llm::check_proposal(json::parse(R"({"kind":"recipe","engine":"flip","params":{},"colour":"red"})"), rules);
  CHECK_FALSE(extra.proposal.has_value());
  CHECK(extra.summary().find("colour") != std::string::npos);
}

TEST_CASE("a 60 s run retries a 429 and a 500 and keeps asking", "[slow][llm][pipeline]") {
  ScriptServer server([](size_t i) {
    if (i == 0) return ScriptServer::error(429, R"({"error":{"message":"slow down","type":"rate_limit_exceeded"}})", {"Retry-After: 1"});
    if (i == 1) return ScriptServer::error(500, R"({"error":{"message":"boom"}})");
    return ScriptServer::completion(flip_recipe(static_cast<int>(i % 5)));
  }, 90000);
  std::string dir = test::temp_dir("llm-pipe60") + "/run";
  ::setenv("TDISC_PIPE_TEST_KEY", "sk-pipe", 1);
  auto r = test::run_tdisc("search --size 2x2 --rank 6 --ring ZT --threads 1 -q --engine llm --time 60s --seed 5"
                           " --llm-url " + server.base_url() + " --llm-model scripted --llm-key-env TDISC_PIPE_TEST_KEY"
                           " --llm-max-calls 40 --params '{\"llm\":{\"engines\":\"flip\",\"retry_base\":0.2}}' --out " + dir);
  INFO(r.out << r.err);
  CHECK(r.code == 3);  // rank 6 does not exist: the budget ends the run, normally
  auto seen = server.requests();
  CHECK(seen.size() >= 3);
  REQUIRE_FALSE(seen.empty());
  CHECK(seen.front().arrived_s < 5);  // asked from the first seconds, not after the defaults
  auto calls = jsonl(dir + "/calls.jsonl");
  int retried_ok = 0;
  for (const auto& c : calls) retried_ok += c["attempts"].get<int>() >= 2 && c["outcome"] == "accepted";
  CHECK(retried_ok >= 2);  // the call that met the 429 and the one that met the 500
  CHECK(jsonl(dir + "/events.jsonl", "llm_summary").size() == 1);
  std::filesystem::remove_all(std::filesystem::path(dir).parent_path());
}

TEST_CASE("slow answers overlap while the search threads keep evaluating", "[slow][llm][pipeline]") {
  ScriptServer server([](size_t i) {
    ScriptStep s = ScriptServer::completion(flip_recipe(static_cast<int>(i % 5)));
    s.delay_ms = 5000;
    return s;
  }, 60000);
  test::register_toy_engine();
  llm::register_llm_engine();
  std::string dir = test::temp_dir("llm-overlap");
  search::EngineConfig c;
  c.target = {Format{2, 2, 2}, 6, Ring::ZT};  // unreachable: the run lasts its budget
  c.seed = 77;
  c.seconds = 20;
  c.params = {{"llm", {{"url", server.base_url()}, {"model", "scripted"}, {"engines", "flip"}, {"timeout", 10.0},
                       {"run_dir", dir}, {"concurrency", 4}, {"max_calls", 12}}}};
  test::RunDirReporter reporter(dir, c.target, c.seconds, false);
  auto engine = search::make_engine("llm");
  REQUIRE(engine->validate_params(c.params).empty());
  engine->run(c, reporter);

  auto seen = server.requests();
  INFO("requests seen " << seen.size());
  CHECK(most_open_at_once(seen) >= 3);
  // Evaluations (programs stored, or fallbacks cut short by an answer) happened while calls were out.
  auto calls = jsonl(dir + "/calls.jsonl");
  auto events = reporter.events();
  int during = 0;
  for (const auto& e : events) {
    std::string kind = e.value("event", "");
    if (kind != "llm_program" && kind != "llm_fallback_yielded") continue;
    double at = e.value("at", -1.0);
    for (const auto& call : calls)
      if (call["sent_at"].get<double>() < at && at < call["finished_at"].get<double>()) {
        ++during;
        break;
      }
  }
  CHECK(during >= 1);
  std::filesystem::remove_all(dir);
}
