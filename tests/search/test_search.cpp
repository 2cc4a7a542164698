// tdisc search end to end: results pass the independent verifier, the exit-code contract, bad flags,
// checkpoints on SIGTERM, --resume after kill -9, lifting of modular walks, reproducible seeds.
#include <catch2/catch.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "decomposition/native.hpp"
#include "tests/search/process.hpp"
#include "tests/support.hpp"
#include "verifier/verify.hpp"

using tdisc::test::run_tdisc;
using tdisc::test::temp_dir;
namespace fs = std::filesystem;

using tdisc::test::slurp;
using tdisc::test::spawn;
using tdisc::test::wait_exit;
using tdisc::test::wait_until;

namespace {

std::vector<nlohmann::json> events(const std::string& dir) {
  std::vector<nlohmann::json> out;
  std::istringstream in(slurp(dir + "/events.jsonl"));
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  return out;
}

int count_events(const std::string& dir, const std::string& kind) {
  int n = 0;
  for (auto& e : events(dir)) n += e.value("event", "") == kind;
  return n;
}

}  // namespace

TEST_CASE("search 3x3 rank 23 over ZT reaches the target and the result verifies", "[fast]") {
  std::string dir = temp_dir("search") + "/run";
  auto r = run_tdisc("search --size 3x3 --rank 23 --ring ZT --threads 2 --seed 3 --time 60s --out " + dir);
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  tdisc::Scheme s = tdisc::read_native(dir + "/best-r23.json");
  CHECK(s.rank() == 23);
  CHECK(tdisc::verify(s, tdisc::Ring::ZT).valid);
  CHECK(s.provenance.seed == 3ULL);
  CHECK(count_events(dir, "improved") >= 1);
  CHECK(count_events(dir, "finished") == 1);
  CHECK(fs::exists(dir + "/run.json"));
}

TEST_CASE("a bare tdisc search runs the embedded default and finishes in seconds", "[fast]") {
  std::string dir = temp_dir("bare");
  auto r = run_tdisc("search --seed 1 --out " + dir + "/run");
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK(r.out.find("3x3x3 rank 23 over ZT, engine flip") != std::string::npos);
}

TEST_CASE("every search result passes the independent verifier, over every target ring", "[fast]") {
  struct Case { const char* args; const char* file; tdisc::Ring ring; };
  const Case cases[] = {
      {"--size 2x2 --rank 7 --ring GF2", "best-r7.json", tdisc::Ring::GF2},
      {"--size 2x2 --rank 7 --ring GF3", "best-r7.json", tdisc::Ring::GF3},
      {"--size 2x2x3 --rank 11 --ring Z", "best-r11.json", tdisc::Ring::Z},
      {"--size 2x3x3 --rank 15 --ring Q", "best-r15.json", tdisc::Ring::Q},
      {"--size 2x2 --rank 7 --ring Z --params '{\"walk_ring\":\"GF2\"}'", "best-r7.json", tdisc::Ring::Z},
  };
  for (const Case& c : cases) {
    std::string dir = temp_dir("rings") + "/run";
    auto r = run_tdisc(std::string("search ") + c.args + " --threads 2 --seed 5 --time 60s --out " + dir);
    INFO(c.args << "\n" << r.out << r.err);
    REQUIRE(r.code == 0);
    tdisc::Scheme s = tdisc::read_native(dir + "/" + c.file);
    CHECK(tdisc::verify(s, c.ring).valid);
    CHECK(tdisc::verify(s, s.ring).valid);
  }
}

TEST_CASE("walkers that restart from the start scheme (fresh) still reach a verified target", "[fast]") {
  std::string dir = temp_dir("fresh") + "/run";
  // 3.5 s on the loaded 2-core VM (restarts make it the slowest of these): the budget leaves room for
  // a machine many times slower, and ends the run only if the walk is broken.
  auto r = run_tdisc("search --size 2x3x3 --rank 15 --ring ZT --threads 2 --seed 3 --time 300s -q --params "
                     "'{\"fresh\":1,\"restart_after\":20000}' --out " + dir);
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(tdisc::verify(tdisc::read_native(dir + "/best-r15.json"), tdisc::Ring::Z).valid);
}

TEST_CASE("a modular walk for an integer target is lifted, never reported as characteristic 0", "[fast]") {
  std::string dir = temp_dir("lift") + "/run";
  auto r = run_tdisc("search --size 2x2 --rank 7 --ring Z --params '{\"walk_ring\":\"GF2\"}' --threads 1 --seed 2 --time 60s --out " + dir);
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  tdisc::Scheme s = tdisc::read_native(dir + "/best-r7.json");
  CHECK(tdisc::verify(s, tdisc::Ring::Z).valid);
  CHECK(s.provenance.method == "flip+lift");
  for (auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().rfind("best-r", 0) == 0)
      CHECK(tdisc::verify(tdisc::read_native(e.path().string()), tdisc::Ring::Z).valid);
}

TEST_CASE("the budget ends first: exit 3, the best scheme saved", "[fast]") {
  std::string dir = temp_dir("budget") + "/run";
  auto r = run_tdisc("search --size 3x3 --rank 19 --ring ZT --threads 1 --seed 1 --time 1s --out " + dir);
  INFO(r.out << r.err);
  CHECK(r.code == 3);
  CHECK(r.out.find("budget spent") != std::string::npos);
  bool found = false;
  for (auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().rfind("best-r", 0) == 0) {
      found = true;
      CHECK(tdisc::verify(tdisc::read_native(e.path().string()), tdisc::Ring::ZT).valid);
    }
  CHECK(found);
  CHECK(fs::exists(dir + "/checkpoint.json"));  // a final checkpoint, so --resume can go on
}

TEST_CASE("bad flags get a clear message and exit 1", "[fast]") {
  struct Case { const char* args; const char* says; };
  const Case cases[] = {
      {"--size 3x3 --rank 28", "out of range"},
      {"--size 3x3 --rank 0", "out of range"},
      {"--size 0x3", "--size"},
      {"--size 3xx3", "--size"},
      {"--ring FOO", "unknown ring"},
      {"--engine bogus", "unknown engine"},
      {"--threads -1", "out of range"},
      {"--checkpoint-every soon", "not a duration"},
      {"--params '{\"plus_min\":\"x\"}'", "plus_min"},
      {"--params '{\"no_such\":1}'", "unknown flip parameter"},
      {"--params '{\"fresh\":1.5}'", "params.fresh: 1.5 is out of range [0..1]"},
      {"--params 'not json'", "not valid JSON"},
      {"--size 7x7", "--rank: required"},
      {"--engine numeric --lattice thirds", "--lattice: unknown lattice \"thirds\""},
      {"--lattice half", "only the numeric engine rounds onto a lattice"},
  };
  for (const Case& c : cases) {
    auto r = run_tdisc(std::string("search ") + c.args + " --time 1s --out " + temp_dir("bad") + "/run");
    INFO(c.args << "\n" << r.err);
    CHECK(r.code == 1);
    CHECK(r.err.find(c.says) != std::string::npos);
  }
  // --resume: a path that does not exist, and a directory that is not a run (left as it was).
  const std::string empty = temp_dir("not-a-run"), missing = empty + "/no-such-run";
  auto r = run_tdisc("search --resume " + missing);
  INFO(r.err);
  CHECK(r.code == 1);
  CHECK(r.err.find("--resume: " + missing + " does not exist") != std::string::npos);
  r = run_tdisc("search --resume " + empty);
  INFO(r.err);
  CHECK(r.code == 1);
  CHECK(r.err.find("has no run.json") != std::string::npos);
  CHECK(fs::is_empty(empty));
}

// Every walker of every lane in a flip checkpoint.
std::vector<nlohmann::json> walkers_of(const nlohmann::json& checkpoint) {
  std::vector<nlohmann::json> out;
  for (const auto& lane : checkpoint.at("state").at("lanes"))
    for (const auto& w : lane.at("state").at("walkers")) out.push_back(w);
  return out;
}

TEST_CASE("SIGTERM writes a checkpoint and ends with exit 3", "[fast]") {
  std::string base = temp_dir("term"), dir = base + "/run";
  pid_t pid = spawn("search --size 4x4 --rank 40 --ring GF2 --threads 1 --seed 4 --time 60s --checkpoint-every 1h --out " + dir, base + "/log");
  // Once the walker has improved on the standard 64 the search is walking, its signal handlers in
  // place (a condition, not a fixed sleep: a slow machine only waits longer).
  const bool walking = wait_until(60, [&] {
    std::istringstream in(slurp(dir + "/events.jsonl"));
    for (std::string line; std::getline(in, line);) {
      const auto e = nlohmann::json::parse(line, nullptr, false);  // the line being written may be torn
      if (e.is_object() && e.value("event", "") == "improved" && e.value("rank", 64) < 64) return true;
    }
    return false;
  });
  kill(pid, walking ? SIGTERM : SIGKILL);
  int code = wait_exit(pid);
  INFO(slurp(base + "/log"));
  REQUIRE(walking);
  CHECK(code == 3);
  REQUIRE(fs::exists(dir + "/checkpoint.json"));
  auto c = nlohmann::json::parse(slurp(dir + "/checkpoint.json"));
  REQUIRE(c.at("state").at("lanes").size() == 1);
  CHECK(walkers_of(c).size() == 1);
}

TEST_CASE("--resume continues a run killed with kill -9 from its last checkpoint", "[fast]") {
  std::string base = temp_dir("resume"), dir = base + "/run";
  // two lanes (a ZT walk and a GF2 walk lifted to Z), one thread each: both must come back
  pid_t pid = spawn("search --size 4x4 --rank 40 --ring Z --symmetry none --threads 2 --seed 8 --time 60s --checkpoint-every 1s --out " + dir, base + "/log");
  // Killed once a checkpoint holds both lanes' walkers after some flips (waited for, not slept for).
  const bool checkpointed = wait_until(60, [&] {
    try {
      const auto c = nlohmann::json::parse(slurp(dir + "/checkpoint.json"));
      return c.at("state").at("lanes").size() == 2 && walkers_of(c).size() == 2 && c.at("counters").value("flips", 0.0) > 0;
    } catch (const nlohmann::json::exception&) {
      return false;  // none yet, or one of another shape: wait for the next
    }
  });
  kill(pid, SIGKILL);
  wait_exit(pid);
  INFO(slurp(base + "/log"));
  REQUIRE(checkpointed);
  auto before = nlohmann::json::parse(slurp(dir + "/checkpoint.json"));
  REQUIRE(before["state"]["lanes"].size() == 2);
  REQUIRE(walkers_of(before).size() == 2);
  int walker_rank = 0;
  for (auto& w : walkers_of(before)) walker_rank = std::max<int>(walker_rank, w["terms"]["u"].size());
  const double flips_before = before["counters"].value("flips", 0.0);
  REQUIRE(flips_before > 0);

  auto r = run_tdisc("search --resume " + dir + " --time 2s --checkpoint-every 1s");
  INFO(r.out << r.err);
  CHECK(r.code == 3);
  CHECK(r.out.find("resuming") != std::string::npos);
  CHECK(count_events(dir, "resumed") == 1);
  auto after = nlohmann::json::parse(slurp(dir + "/checkpoint.json"));
  CHECK(after.value("elapsed", 0.0) > before.value("elapsed", 0.0));
  CHECK(after["counters"].value("flips", 0.0) > flips_before);  // counters carried over
  CHECK(after.value("best_rank", 1000) <= before.value("best_rank", 1000));
  // the walkers went on from the checkpointed schemes, not from the standard algorithm (rank 64)
  REQUIRE(walkers_of(after).size() == 2);
  for (auto& w : walkers_of(after)) CHECK(static_cast<int>(w["terms"]["u"].size()) <= walker_rank + 8);
  tdisc::Scheme best = tdisc::read_native(after.value("best_file", std::string()));
  CHECK(tdisc::verify(best, tdisc::Ring::Z).valid);
}

TEST_CASE("the same seed gives the same walk on one thread", "[fast]") {
  auto run = [](const std::string& dir) {
    auto r = run_tdisc("search --size 3x3 --rank 15 --ring ZT --threads 1 --seed 77 --time 60s -q --params '{\"max_flips\":300000}' --out " + dir);
    REQUIRE(r.code == 3);
    auto c = nlohmann::json::parse(slurp(dir + "/checkpoint.json"));
    return c["state"]["walkers"].dump();
  };
  std::string a = run(temp_dir("seedA") + "/run"), b = run(temp_dir("seedB") + "/run");
  CHECK(a == b);
}

TEST_CASE("--from starts the walk from a given scheme", "[fast]") {
  std::string dir = temp_dir("from");
  tdisc::Scheme s = tdisc::test::strassen();
  s.provenance.source = "test";
  tdisc::write_native(dir + "/strassen.json", s);
  auto r = run_tdisc("search --size 2x2 --rank 7 --ring ZT --from " + dir + "/strassen.json --seed 1 --time 30s --out " + dir + "/run");
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  tdisc::Scheme best = tdisc::read_native(dir + "/run/best-r7.json");
  CHECK(best.provenance.method == "start");
  auto bad = run_tdisc("search --size 3x3 --from " + dir + "/strassen.json --time 1s --out " + dir + "/bad");
  CHECK(bad.code == 1);
  CHECK(bad.err.find("is a 2x2x2 scheme") != std::string::npos);
}

TEST_CASE("search --catalog files bests in the catalogue 'tdisc catalog' reads, only when better", "[fast]") {
  const std::string base = temp_dir("catalogue"), cat = base + "/catalogue";
  ::setenv("TDISC_CATALOG_DIR", cat.c_str(), 1);  // the mirror every catalog verb and search share
  auto first = run_tdisc("search --size 2x2 --rank 7 --ring ZT --threads 1 --seed 1 --time 30s -q --catalog --out " + base + "/a");
  auto listed = run_tdisc("catalog list --size 2x2");
  ::unsetenv("TDISC_CATALOG_DIR");
  INFO(first.out << first.err << listed.out << listed.err);
  REQUIRE(first.code == 0);
  CHECK(count_events(base + "/a", "catalogued") >= 1);
  CHECK(listed.out.find(" rank 7 ") != std::string::npos);  // `tdisc catalog` sees what search filed
  CHECK(listed.out.find(cat) != std::string::npos);
  CHECK_FALSE(fs::exists("algorithms/2x2x2"));  // nothing under the working directory
  // A second run finds the catalogue as good and files nothing (as catalog add --if-better).
  auto second = run_tdisc("search --size 2x2 --rank 7 --ring ZT --threads 1 --seed 2 --time 30s -q --catalog --catalog-dir " + cat +
                          " --out " + base + "/b");
  INFO(second.out << second.err);
  REQUIRE(second.code == 0);
  CHECK(count_events(base + "/b", "catalogued") == 0);
  size_t files = 0;
  for (auto& e : fs::recursive_directory_iterator(cat)) files += e.is_regular_file();
  CHECK(files == static_cast<size_t>(count_events(base + "/a", "catalogued")));
}

TEST_CASE("run.json records every effective setting and where it came from", "[fast]") {
  const std::string dir = temp_dir("settings") + "/run";
  ::setenv("TDISC_SEARCH_THREADS", "1", 1);
  auto r = run_tdisc("search --size 2x2 --rank 7 --seed 18446744073709551615 --time 30s -q --out " + dir);
  ::unsetenv("TDISC_SEARCH_THREADS");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("settings: size=2x2 rank=7 ring=ZT (derived)") != std::string::npos);
  const auto run = nlohmann::json::parse(slurp(dir + "/run.json"));
  const auto& s = run.at("settings");
  CHECK(s.at("threads") == nlohmann::json({{"value", 1}, {"from", "env TDISC_SEARCH_THREADS"}}));
  CHECK(s.at("seed").at("value").get<unsigned long long>() == 18446744073709551615ULL);
  CHECK(s.at("engine") == nlohmann::json({{"value", "flip"}, {"from", "derived (auto)"}}));
  CHECK(s.at("time").at("value") == "30s");  // as given: --time takes a duration or "unlimited"
  auto beyond = run_tdisc("search --size 2x2 --rank 7 --seed 18446744073709551616 --time 1s -q --out " + dir + "2");
  CHECK(beyond.code == 1);
  CHECK(beyond.err.find("--seed: 18446744073709551616 is beyond 2^64") != std::string::npos);
}
