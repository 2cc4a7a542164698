// `tdisc search --engine llm` end to end: the binary talks to the scripted server, records every
// call in the run directory, keeps the key out of it, and `--resume` continues the database.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/llm/script_server.hpp"
#include "tests/support.hpp"

using namespace tdisc;
using nlohmann::json;
using test::ScriptServer;

using tdisc::test::slurp;

namespace {

const char* kKey = "sk-cli-KEY-MUST-NOT-LEAK-77";

std::string flip_recipe(int plus_diff) {
  return json{{"version", 1}, {"kind", "recipe"}, {"engine", "flip"}, {"params", {{"plus_diff", plus_diff}}},
              {"budget_seconds", 0.5}, {"seeds", 1}, {"rationale", "test"}}.dump();
}

std::vector<json> events_of(const std::string& dir, const std::string& kind) {
  std::vector<json> out;
  std::ifstream in(dir + "/events.jsonl");
  for (std::string line; std::getline(in, line);) {
    json e = json::parse(line, nullptr, false);
    if (!e.is_discarded() && e.value("event", "") == kind) out.push_back(e);
  }
  return out;
}

bool run_dir_contains(const std::string& dir, const std::string& needle) {
  for (const auto& f : std::filesystem::recursive_directory_iterator(dir))
    if (f.is_regular_file() && slurp(f.path().string()).find(needle) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("tdisc search --engine llm records calls, never the key, and resumes", "[slow][llm][cli]") {
  ScriptServer server({ScriptServer::completion(flip_recipe(2)), ScriptServer::completion("not json at all"),
                       ScriptServer::error(500, R"({"message":"flat failure"})"), ScriptServer::error(500, R"({"message":"flat failure"})"),
                       ScriptServer::completion("```json\n" + flip_recipe(6) + "\n```")});
  std::string dir = test::temp_dir("llm-cli") + "/run";
  ::setenv("TDISC_CLI_TEST_KEY", kKey, 1);
  std::string common = "--size 2x2 --rank 6 --ring ZT --threads 1 -q --params '{\"llm\":{\"eval_seconds\":0.5,"
                       "\"engines\":\"flip\",\"retries\":2,\"retry_base\":0.05,\"timeout\":2,\"concurrency\":1}}'";
  auto r = test::run_tdisc("search " + common + " --engine llm --llm-url " + server.base_url() +
                           " --llm-model scripted --llm-key-env TDISC_CLI_TEST_KEY --llm-max-calls 4 --time 6s --seed 3 --out " + dir);
  INFO(r.out << r.err);
  CHECK(r.code == 3);  // rank 6 is impossible: the budget is spent
  auto calls = events_of(dir, "llm_call");
  REQUIRE(calls.size() == 4);
  CHECK(calls[0]["outcome"] == "accepted");
  CHECK(calls[1]["outcome"] == "invalid_json");
  CHECK(calls[2]["outcome"] == "http");
  CHECK(calls[2]["error"] == "HTTP 500: flat failure (after 2 attempts)");
  CHECK(calls[3]["outcome"] == "accepted");
  // events.jsonl keeps the summary; the whole exchange (prompt and reply) lives in calls.jsonl.
  CHECK_FALSE(calls[0].contains("messages"));
  std::istringstream full(slurp(dir + "/calls.jsonl"));
  std::string first;
  REQUIRE(std::getline(full, first));
  json call0 = json::parse(first);
  CHECK(call0["messages"][1]["content"].get<std::string>().find("rank 6 for <2,2,2>") != std::string::npos);
  json checkpoint = json::parse(slurp(dir + "/checkpoint.json"));
  REQUIRE(checkpoint["state"].contains("database"));
  size_t programs = checkpoint["state"]["database"]["programs"].size();
  CHECK(programs >= 5);  // two defaults (flip, and numeric is excluded) … one per step
  CHECK(server.requests()[0].headers.find(std::string("Bearer ") + kKey) != std::string::npos);
  CHECK(!run_dir_contains(dir, kKey));

  auto again = test::run_tdisc("search --resume " + dir + " --time 2s -q");
  INFO(again.out << again.err);
  CHECK(again.code == 3);
  json after = json::parse(slurp(dir + "/checkpoint.json"));
  CHECK(after["state"]["calls"] == 4);  // the call budget was spent before: no new calls
  CHECK(after["state"]["database"]["programs"].size() > programs);
  CHECK(server.served() == 5);
  CHECK(!run_dir_contains(dir, kKey));
  std::filesystem::remove_all(std::filesystem::path(dir).parent_path());
}
