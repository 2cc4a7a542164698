// The run directory and the search's inputs under the second red team (issue 26): a symlinked
// events.jsonl, --out into someone else's folder, 1e400 in a checkpoint, deep --params @FILE, and
// wrong-typed report and bench inputs. Each failed before the change (docs/reliability.md).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "src/search/request.hpp"
#include "tests/search/process.hpp"
#include "tests/support.hpp"

using tdisc::test::run_tdisc;
using tdisc::test::slurp;
using tdisc::test::temp_dir;
namespace fs = std::filesystem;

namespace {

void write(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::string spent_run(const std::string& tag) {
  std::string dir = temp_dir(tag) + "/run";
  auto r = run_tdisc("search --size 2x2 --rank 6 --ring ZT --threads 1 --seed 1 --time 1s -q --out " + dir);
  REQUIRE(r.code == 3);
  REQUIRE(fs::exists(dir + "/checkpoint.json"));
  return dir;
}

}  // namespace

TEST_CASE("a symlinked events.jsonl is refused; its target is neither cut nor appended to", "[fast][hostile]") {
  const std::string dir = spent_run("hostile-link");
  const std::string outside = fs::path(dir).parent_path().string() + "/precious.txt";
  write(outside, "line one\nline two without newline");
  fs::remove(dir + "/events.jsonl");
  fs::create_symlink(outside, dir + "/events.jsonl");
  auto r = run_tdisc("search --resume " + dir + " --time 1s -q");
  INFO(r.out << r.err);
  CHECK(r.code == 2);
  CHECK(r.err.find("events.jsonl: is a symbolic link") != std::string::npos);
  CHECK(slurp(outside) == "line one\nline two without newline");
  fs::remove_all(fs::path(dir).parent_path());
}

TEST_CASE("--out into a non-empty folder that is not a run directory is refused", "[fast][hostile]") {
  const std::string dir = temp_dir("hostile-out");
  write(dir + "/checkpoint.json", "mine");
  write(dir + "/best-r7.json", "mine too");
  auto r = run_tdisc("search --size 2x2 --rank 7 --ring ZT --threads 1 --seed 1 --time 5s -q --out " + dir);
  INFO(r.out << r.err);
  CHECK(r.code == 1);
  CHECK(r.err.find("not empty and not a tdisc run directory") != std::string::npos);
  CHECK(slurp(dir + "/checkpoint.json") == "mine");
  CHECK(slurp(dir + "/best-r7.json") == "mine too");
  CHECK_FALSE(fs::exists(dir + "/lock"));
  fs::remove_all(dir);
}

TEST_CASE("a checkpoint holding 1e400 is refused with the file, line and column", "[fast][hostile]") {
  const std::string dir = spent_run("hostile-1e400");
  write(dir + "/checkpoint.json", "{\"format\": \"tdisc-checkpoint\",\n \"elapsed\": 1e400}");
  auto r = run_tdisc("search --resume " + dir + " --time 1s -q");
  INFO(r.err);
  CHECK(r.code == 2);
  CHECK(r.err.find("checkpoint.json:2: not a tdisc checkpoint (column 13): the number 1e400 does not fit a double") !=
        std::string::npos);
  CHECK(r.err.find("json.exception") == std::string::npos);
  fs::remove_all(fs::path(dir).parent_path());
}

TEST_CASE("--params @FILE nested 100,000 deep is refused, not a crash", "[fast][hostile]") {
  const std::string dir = temp_dir("hostile-params");
  write(dir + "/p.json", "{\"a\":" + std::string(100000, '[') + std::string(100000, ']') + "}");
  auto r = run_tdisc("search --size 2x2 --rank 7 --ring ZT --time 5s -q --params @" + dir + "/p.json --out " + dir + "/run");
  INFO(r.err);
  CHECK(r.code == 1);
  CHECK(r.err.find("p.json:1: not valid JSON (column 205)") != std::string::npos);
  CHECK(r.err.find("nested deeper than 200 levels") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("wrong-typed report and bench inputs name the file, no library text", "[fast][hostile]") {
  const std::string dir = spent_run("hostile-report");
  write(dir + "/events.jsonl", "{\"event\":\"improved\",\"elapsed\":\"soon\",\"rank\":[7]}\n");
  auto r = run_tdisc("report " + dir + " -o " + dir + "/r.html");
  INFO(r.err);
  CHECK(r.code == 2);
  CHECK(r.err.find(dir + ": not a run directory tdisc can report") != std::string::npos);
  CHECK(r.err.find("[json.exception") == std::string::npos);
  write(dir + "/bench.json", "{\"rows\":[{\"variant\":7,\"leaf\":[],\"dtype\":{}}]}");
  auto b = run_tdisc("bench --results " + dir + "/bench.json --report " + dir + "/b.html");
  INFO(b.err);
  CHECK(b.code == 2);
  CHECK(b.err.find("bench.json: not a bench result tdisc can show") != std::string::npos);
  fs::remove_all(fs::path(dir).parent_path());
}

TEST_CASE("verify /dev/zero stops at the ceiling with a clear message", "[fast][hostile]") {
  auto r = run_tdisc("verify /dev/zero");
  INFO(r.err);
  CHECK(r.code == 2);
  CHECK(r.err.find("/dev/zero: more than 64 MiB, the ceiling for a scheme file") != std::string::npos);
}

TEST_CASE("TDISC_MAX_INPUT_MB sets the read ceilings", "[fast][hostile]") {
  const std::string dir = temp_dir("hostile-ceiling");
  nlohmann::json s = nlohmann::json::parse(slurp(tdisc::test::source_path("algorithms/2x2x2/r8-ZT-12ca34d3.json")));
  s["provenance"]["source"] = std::string(2 << 20, 'x');  // a 2 MiB file
  write(dir + "/big.json", s.dump());
  auto low = run_tdisc("verify " + dir + "/big.json");
  CHECK(low.code == 0);  // under the 64 MiB default
  ::setenv("TDISC_MAX_INPUT_MB", "1", 1);  // inherited by the tdisc the test starts
  auto one = run_tdisc("verify " + dir + "/big.json");
  ::unsetenv("TDISC_MAX_INPUT_MB");
  INFO(one.err);
  CHECK(one.code == 2);
  CHECK(one.err.find("more than 1 MiB, the ceiling for a scheme file") != std::string::npos);
  fs::remove_all(dir);
}

// Found while writing the run-dir fuzz target (tests/fuzz/crashes/run-dir/): an engine reads its state
// back as a resumed run starts, and a field of another type there ended the run with the JSON
// library's raw type_error (exit 1) instead of a refusal that names the checkpoint.
TEST_CASE("a checkpoint whose engine state has a field of another type is refused, naming the file", "[fast][hostile]") {
  const std::string dir = spent_run("hostile-state");
  nlohmann::json c = nlohmann::json::parse(slurp(dir + "/checkpoint.json"));
  REQUIRE(c["state"].contains("lanes"));
  c["state"]["lanes"] = 5;
  write(dir + "/checkpoint.json", c.dump());
  auto r = run_tdisc("search --resume " + dir + " --time 1s -q");
  INFO(r.out << r.err);
  CHECK(r.code == 2);
  CHECK(r.err.find("checkpoint.json: not a checkpoint of this run") != std::string::npos);
  CHECK(r.err.find("[json.exception") == std::string::npos);
  CHECK_FALSE(fs::exists(dir + "/lock"));
  fs::remove_all(fs::path(dir).parent_path());
}

// Found while writing the run-dir fuzz target: a best file whose rank does not fit an int ended
// `tdisc report` with std::stoi's bare "stoi" (exit 1).
TEST_CASE("tdisc report skips a best file whose rank does not fit an int", "[fast][hostile]") {
  const std::string dir = spent_run("hostile-best-name");
  write(dir + "/best-r99999999999.json", "{}");
  auto r = run_tdisc("report " + dir + " -o " + dir + "/report.html");
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK(fs::exists(dir + "/report.html"));
  fs::remove_all(fs::path(dir).parent_path());
}

// Found while writing the run-dir fuzz target: --resume took the LLM engine's run_dir from run.json,
// a path relative to the first session's working directory (or anywhere a changed run.json says), so
// the database and the transcript went outside the run, or the resumed run died on a missing folder.
TEST_CASE("--resume keeps the LLM engine's files in the run directory it resumes", "[fast][hostile]") {
  const std::string dir = temp_dir("hostile-llm-run-dir") + "/run";
  fs::create_directories(dir);
  nlohmann::json run = {{"format", "tdisc-run"}, {"version", 1}, {"engine", "llm"}, {"threads", 1}, {"seed", 1},
                        {"target", {{"size", "2x2x2"}, {"rank", 6}, {"ring", "ZT"}}},
                        {"params", {{"llm", {{"url", "http://127.0.0.1:9/v1"}, {"run_dir", "/tmp/elsewhere"}}}}}};
  write(dir + "/run.json", run.dump());
  write(dir + "/events.jsonl", "");
  tdisc::search::Continuation c = tdisc::search::continue_run(dir);
  CHECK(c.request.params["llm"]["run_dir"] == dir);
  CHECK(c.request.params["llm"]["url"] == "http://127.0.0.1:9/v1");
  fs::remove_all(fs::path(dir).parent_path());
}

// Found by the run-dir fuzz target (tests/fuzz/crashes/run-dir/flip-walker-term-shape): a walker's term
// of the wrong length in checkpoint.json failed an internal requirement, "tdisc: internal error:
// terms_from_json: requirement failed", exit 70, as if tdisc had a bug.
TEST_CASE("a checkpoint whose walker terms have the wrong shape or coefficients is refused", "[fast][hostile]") {
  const std::string dir = spent_run("hostile-term-shape");
  const nlohmann::json c = nlohmann::json::parse(slurp(dir + "/checkpoint.json"));
  REQUIRE(c["state"]["lanes"][0]["state"]["walkers"][0].contains("terms"));
  for (const nlohmann::json& row : {nlohmann::json{1, 2}, nlohmann::json{1e300, 0, 0, 1}}) {
    nlohmann::json bad = c;
    bad["state"]["lanes"][0]["state"]["walkers"][0]["terms"]["u"][0] = row;
    write(dir + "/checkpoint.json", bad.dump());
    auto r = run_tdisc("search --resume " + dir + " --time 1s -q");
    INFO(row.dump() << "\n" << r.out << r.err);
    CHECK(r.code == 2);
    CHECK(r.err.find("checkpoint.json: not a checkpoint of this run (its engine state: a walker's term") != std::string::npos);
    CHECK(r.err.find("internal error") == std::string::npos);
  }
  nlohmann::json bad = c;  // std::stoull's bare "stoull" before
  bad["state"]["lanes"][0]["state"]["walkers"][0]["rng"][0] = "x";
  write(dir + "/checkpoint.json", bad.dump());
  auto r = run_tdisc("search --resume " + dir + " --time 1s -q");
  INFO(r.out << r.err);
  CHECK(r.code == 2);
  CHECK(r.err.find("a walker's random state holds \"x\"") != std::string::npos);
  fs::remove_all(fs::path(dir).parent_path());
}
