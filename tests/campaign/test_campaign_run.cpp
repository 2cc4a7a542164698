// tdisc campaign end to end: quick targets reached and filed with provenance; the best-known table and
// catalogue it reads are those TDISC_CATALOG_* (or --rings, --catalog-dir) name; a finished target's
// threads go to the others and a time share ends a target; a campaign killed with SIGKILL mid-run and
// started again loses nothing (targets done stay done, seconds and best ranks kept, searches resumed).
#include <catch2/catch.hpp>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <thread>

#include "decomposition/native.hpp"
#include "src/catalog/catalogue.hpp"
#include "tests/search/process.hpp"
#include "tests/support.hpp"
#include "verifier/verify.hpp"

using tdisc::test::run_tdisc;
using tdisc::test::slurp;
namespace fs = std::filesystem;

namespace {

nlohmann::json state_of(const std::string& dir) { return nlohmann::json::parse(slurp(dir + "/campaign.json")); }

const nlohmann::json& target(const nlohmann::json& state, int k) { return state.at("targets").at(k); }

std::string write_targets(const std::string& dir, const std::string& text) {
  const std::string file = dir + "/targets.txt";
  std::ofstream(file) << text;
  return file;
}

// Waits until `ready` holds for the campaign state in dir (a state being renamed into place is re-read).
template <class Ready>
bool wait_for_state(const std::string& dir, double seconds, Ready ready) {
  auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < until) {
    auto j = nlohmann::json::parse(slurp(dir + "/campaign.json"), nullptr, false);
    if (!j.is_discarded() && j.is_object() && ready(j)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

}  // namespace

TEST_CASE("a campaign of three quick targets reaches them all and files each, verified, with provenance", "[campaign]") {
  const std::string dir = tdisc::test::temp_dir("campaign-quick");
  const std::string file = write_targets(dir, "2x2x2 GF2 reach=7\n3x3 GF2 reach=23\n2x2x3 ZT reach=11\n");
  auto r = run_tdisc("campaign " + file + " --threads 2 --time 150s --seed 5 --dir " + dir + "/c --catalog " + dir + "/cat");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("seed 5") != std::string::npos);
  const nlohmann::json s = state_of(dir + "/c");
  CHECK(s.at("seed") == 5);
  const auto entries = tdisc::read_catalogue(dir + "/cat");
  CHECK(entries.size() == 3);
  const int ranks[] = {7, 23, 11};
  for (int k = 0; k < 3; ++k) {
    const auto& t = target(s, k);
    INFO(t.dump());
    CHECK(t.at("status") == "reached");
    CHECK(t.at("best_rank") == ranks[k]);
    CHECK(t.at("seconds").get<double>() > 0);
    CHECK(t.at("seed") != target(s, (k + 1) % 3).at("seed"));
    const tdisc::Scheme filed = tdisc::read_native(t.at("filed").get<std::string>());
    CHECK(filed.rank() == ranks[k]);
    CHECK(tdisc::verify(filed, filed.ring).valid);
    CHECK(filed.provenance.extra.at("campaign") == dir + "/c");
    CHECK(filed.provenance.extra.at("target") == t.at("key"));
    CHECK(filed.provenance.extra.at("campaign_seed") == "5");
    CHECK(!filed.provenance.extra.at("commit").empty());
    CHECK(filed.provenance.extra.at("command").find("tdisc campaign " + file) == 0);
    CHECK(filed.provenance.seed == t.at("seed").get<unsigned long long>());
  }
  const std::string index = slurp(dir + "/cat/INDEX.md");
  for (const auto& e : entries) CHECK(index.find(e.relative) != std::string::npos);
  auto status = run_tdisc("campaign --status " + dir + "/c");
  CHECK(status.code == 0);
  CHECK(status.out.find("t2-3x3x3-GF2-r23") != std::string::npos);
  CHECK(status.out.find("reached") != std::string::npos);
}

TEST_CASE("a campaign reads the best-known table and catalogue that TDISC_CATALOG_* or its flags name, as tdisc catalog does", "[campaign]") {
  const std::string dir = tdisc::test::temp_dir("campaign-paths");
  // A best-known table of our own: 2x2x2 over ZT known at 8 (the repository's says 7), so the campaign looks for 7.
  std::ofstream(dir + "/rings.tsv") << "# a test table\n2x2x2\tZT\t8\ttest\t2026-11-26\n";
  const std::string file = write_targets(dir, "2x2x2 ZT\n");
  ::setenv("TDISC_CATALOG_RINGS", (dir + "/rings.tsv").c_str(), 1);
  auto env = run_tdisc("campaign " + file + " --threads 1 --time 60s --seed 3 --dir " + dir + "/env");
  ::unsetenv("TDISC_CATALOG_RINGS");
  INFO(env.out << env.err);
  REQUIRE(env.code == 0);
  CHECK(target(state_of(dir + "/env"), 0).at("beat") == 8);
  CHECK(target(state_of(dir + "/env"), 0).at("best_rank") == 7);
  auto flag = run_tdisc("campaign " + file + " --rings " + dir + "/rings.tsv --threads 1 --time 60s --seed 3 --dir " + dir + "/flag");
  CHECK(flag.code == 0);
  CHECK(target(state_of(dir + "/flag"), 0).at("beat") == 8);
  // Without either, the source tree's table: 7 is the best known, so the target is 6 (not reached in 1s).
  auto tree = run_tdisc("campaign " + file + " --threads 1 --time 1s --seed 3 --dir " + dir + "/tree");
  CHECK(tree.code == 3);
  CHECK(target(state_of(dir + "/tree"), 0).at("beat") == 7);

  // from=catalogue starts from the catalogue of TDISC_CATALOG_DIR (or --catalog-dir): an empty one has
  // none, and says which folder it looked in; one holding a rank-7 scheme gives a start of rank 7.
  fs::create_directories(dir + "/empty");
  fs::create_directories(dir + "/cat/2x2x2");
  fs::copy_file(tdisc::test::source_path("algorithms/2x2x2/r7-ZT-02268ba0.json"), dir + "/cat/2x2x2/r7-ZT-02268ba0.json");
  const std::string from = write_targets(dir, "2x2x2 ZT reach=7 from=catalogue\n");
  ::setenv("TDISC_CATALOG_DIR", (dir + "/empty").c_str(), 1);
  auto none = run_tdisc("campaign " + from + " --time 10s --dir " + dir + "/none");
  ::unsetenv("TDISC_CATALOG_DIR");
  CHECK(none.code == 2);
  CHECK(none.err.find("from=catalogue: " + dir + "/empty has no 2x2x2 scheme") != std::string::npos);
  auto found = run_tdisc("campaign " + from + " --catalog-dir " + dir + "/cat --threads 1 --time 60s --dir " + dir + "/found");
  INFO(found.out << found.err);
  CHECK(found.code == 0);
  CHECK(target(state_of(dir + "/found"), 0).at("start_rank") == 7);
}

TEST_CASE("a finished target's threads go to the others; a time share ends its target", "[campaign]") {
  const std::string dir = tdisc::test::temp_dir("campaign-share");
  const std::string file = write_targets(dir, "2x2x2 ZT reach=7\n3x3 ZT reach=19 time=8s\n");
  // An 8 s share inside a 120 s campaign: the bounds below sit far from both (a share that did not end
  // its target would run on to 120 s), so a slow or loaded machine cannot cross them.
  auto r = run_tdisc("campaign " + file + " --threads 2 --time 120s --seed 1 --checkpoint-every 1s --dir " + dir + "/c");
  INFO(r.out << r.err);
  CHECK(r.code == 3);
  CHECK(r.out.find("[t2-3x3x3-ZT-r19] started on 1 thread") != std::string::npos);
  CHECK(r.out.find("[t2-3x3x3-ZT-r19] interrupted to take the threads of a finished target") != std::string::npos);
  // resumed from its checkpoint, or started afresh when it was interrupted before it wrote run.json
  CHECK(std::regex_search(r.out, std::regex(R"(\[t2-3x3x3-ZT-r19\] (resumed|started) on 2 threads)")));
  const nlohmann::json s = state_of(dir + "/c");
  CHECK(target(s, 0).at("status") == "reached");
  CHECK(target(s, 1).at("status") == "spent");
  CHECK(target(s, 1).at("seconds").get<double>() >= 7.5);
  CHECK(target(s, 1).at("seconds").get<double>() < 40);
  CHECK(s.at("elapsed").get<double>() < 60);  // the campaign ended with its last target, not at --time
}

TEST_CASE("a campaign killed with SIGKILL mid-run and started again loses nothing", "[campaign]") {
  const std::string dir = tdisc::test::temp_dir("campaign-kill");
  const std::string file = write_targets(dir, "2x2x2 GF2 reach=7\n3x3 ZT reach=19\n");
  const std::string args = "campaign " + file + " --threads 2 --time 14s --seed 9 --checkpoint-every 1s --dir " + dir +
                           "/c --catalog " + dir + "/cat";
  const pid_t pid = tdisc::test::spawn(args, dir + "/first.log");
  const std::string run2 = dir + "/c/t2-3x3x3-ZT-r19";
  // After the first checkpoint of the long target, and once the quick one is reached and filed.
  const bool ready = wait_for_state(dir + "/c", 60, [&](const nlohmann::json& j) {
    return target(j, 0).at("status") == "reached" && !target(j, 0).at("filed").get<std::string>().empty() &&
           fs::exists(run2 + "/checkpoint.json") && target(j, 1).at("seconds").get<double>() > 2;
  });
  INFO(slurp(dir + "/first.log"));
  REQUIRE(ready);
  const nlohmann::json before = state_of(dir + "/c");
  REQUIRE(kill(pid, SIGKILL) == 0);
  CHECK(tdisc::test::wait_exit(pid) == -SIGKILL);
  const std::string filed = target(before, 0).at("filed").get<std::string>();
  const std::string filed_text = slurp(filed);
  const int best_before = target(before, 1).at("best_rank").get<int>();

  auto again = run_tdisc(args);
  INFO(again.out << again.err);
  CHECK(again.code == 3);
  CHECK(again.out.find("(continuing)") != std::string::npos);
  CHECK(again.out.find("[t1-2x2x2-GF2-r7] started") == std::string::npos);  // done stays done
  CHECK(again.out.find("[t2-3x3x3-ZT-r19] resumed") != std::string::npos);
  const nlohmann::json after = state_of(dir + "/c");
  CHECK(after.at("seed") == 9);
  CHECK(after.at("sessions") == 2);
  CHECK(target(after, 0).at("status") == "reached");
  CHECK(target(after, 0).at("seconds") == target(before, 0).at("seconds"));
  CHECK(target(after, 0).at("filed") == filed);
  CHECK(slurp(filed) == filed_text);
  CHECK(target(after, 1).at("seconds").get<double>() > target(before, 1).at("seconds").get<double>());
  CHECK(target(after, 1).at("best_rank").get<int>() <= best_before);
  CHECK(target(after, 1).at("seed") == target(before, 1).at("seed"));
  CHECK(after.at("elapsed").get<double>() >= before.at("elapsed").get<double>());
  CHECK(after.at("elapsed").get<double>() < 14 + 30);  // the budget counts both sessions
  CHECK(slurp(run2 + "/events.jsonl").find("\"resumed\"") != std::string::npos);  // the search continued, not restarted
  CHECK(tdisc::read_catalogue(dir + "/cat").size() == 1);
}
