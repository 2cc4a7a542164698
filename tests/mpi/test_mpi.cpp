// The parts of an MPI search that need no mpirun: how a checkpoint's per-rank states are dealt to a
// new number of ranks, each rank's seed and parameters, the messages' round trips (the progress line
// of an MPI run is the CLI's: tests/cli/test_progress.cpp).
// Whole runs under mpirun are in run_mpi.sh (tests.cmake).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <set>

#include "base/error.hpp"
#include "decomposition/native.hpp"
#include "src/search/mpi/rank_config.hpp"
#include "src/search/mpi/redistribute.hpp"
#include "src/search/mpi/report.hpp"
#include "src/search/mpi/setup.hpp"
#include "src/search/mpi/world.hpp"
#include "tests/support.hpp"

using namespace tdisc;
using namespace tdisc::search;
using nlohmann::json;

namespace {

// A flip lane state with walkers named w<rank>.<i> and pool entries p<rank>.<i> (terms are opaque here).
json flip_rank_state(int rank, int walkers, int pool, int pool_rank) {
  json ws = json::array(), ps = json::array();
  for (int i = 0; i < walkers; ++i) ws.push_back({{"terms", "w" + std::to_string(rank) + "." + std::to_string(i)}, {"rng", {"1", "2", "3", "4"}}});
  for (int i = 0; i < pool; ++i) ps.push_back("p" + std::to_string(rank) + "." + std::to_string(i));
  json walk = {{"engine", "flip"}, {"walk_ring", "ZT"}, {"walkers", ws}, {"pool", ps}, {"pool_rank", pool_rank}};
  return {{"engine", "flip"}, {"lanes", json::array({{{"walk_ring", "ZT"}, {"symmetry", "z3"}, {"threads", 1}, {"state", walk}}})}};
}

std::multiset<std::string> walker_names(const std::vector<json>& states) {
  std::multiset<std::string> names;
  for (const json& s : states)
    for (const json& w : s["lanes"][0]["state"]["walkers"]) names.insert(w["terms"].get<std::string>());
  return names;
}

}  // namespace

TEST_CASE("a 3-rank flip checkpoint dealt to 2 ranks keeps every walker once and merges the pools", "[fast]") {
  const json combined = mpi::combine_states({flip_rank_state(0, 2, 1, 30), flip_rank_state(1, 2, 2, 29), flip_rank_state(2, 2, 1, 31)}, "flip");
  REQUIRE(mpi::is_combined(combined));
  const std::vector<json> two = mpi::redistribute(combined, 2);
  REQUIRE(two.size() == 2);
  CHECK(walker_names(two) == std::multiset<std::string>{"w0.0", "w0.1", "w1.0", "w1.1", "w2.0", "w2.1"});
  CHECK(two[0]["lanes"][0]["state"]["walkers"].size() == 3);
  for (const json& s : two) {
    CHECK(s["lanes"][0]["state"]["pool"].size() == 4);  // the union of the three pools
    CHECK(s["lanes"][0]["state"]["pool_rank"] == 29);
    CHECK(s["lanes"][0]["symmetry"] == "z3");
  }
}

TEST_CASE("more ranks than walkers: a rank without walkers starts from the pool, with its own random streams", "[fast]") {
  const json combined = mpi::combine_states({flip_rank_state(0, 1, 2, 30)}, "flip");
  const std::vector<json> three = mpi::redistribute(combined, 3);
  REQUIRE(three.size() == 3);
  CHECK(three[0]["lanes"][0]["state"]["walkers"].size() == 1);
  const json& spare = three[2]["lanes"][0]["state"]["walkers"];
  REQUIRE(spare.size() == 2);
  CHECK(spare[0]["terms"] == "p0.0");
  CHECK_FALSE(spare[0].contains("rng"));
}

TEST_CASE("the same number of ranks gets each rank its own state back; a fresh run gets nothing", "[fast]") {
  const json a = flip_rank_state(0, 1, 1, 30), b = flip_rank_state(1, 1, 1, 30);
  const std::vector<json> same = mpi::redistribute(mpi::combine_states({a, b}, "flip"), 2);
  CHECK(same[0] == a);
  CHECK(same[1] == b);
  const std::vector<json> fresh = mpi::redistribute(std::nullopt, 2);
  CHECK(fresh[0].is_null());
  CHECK(fresh[1].is_null());
}

TEST_CASE("a single-process checkpoint spread over 2 ranks, and an MPI one gathered into 1", "[fast]") {
  const json single = flip_rank_state(0, 4, 1, 30);
  const std::vector<json> two = mpi::redistribute(single, 2);
  CHECK(walker_names(two) == std::multiset<std::string>{"w0.0", "w0.1", "w0.2", "w0.3"});
  const std::vector<json> one = mpi::redistribute(mpi::combine_states(two, "flip"), 1);
  REQUIRE(one.size() == 1);
  CHECK(walker_names(one) == walker_names(two));
}

TEST_CASE("an MPI checkpoint resumed without mpirun: one state, no per-rank progress counters", "[fast]") {
  json checkpoint = {{"format", "tdisc-checkpoint"}, {"counters", {{"flips", 9}, {"ranks", 3}, {"slowest_rank", 1}, {"slowest_rate", 2}}},
                     {"state", mpi::combine_states({flip_rank_state(0, 1, 1, 30), flip_rank_state(1, 1, 1, 30)}, "flip")}};
  const json one = mpi::gather_checkpoint(checkpoint);
  CHECK_FALSE(mpi::is_combined(one["state"]));
  CHECK(one["state"]["lanes"][0]["state"]["walkers"].size() == 2);
  CHECK(one["counters"] == json{{"flips", 9}});
  const json plain = {{"state", flip_rank_state(0, 1, 1, 30)}, {"counters", {{"ranks", 1}}}};
  CHECK(mpi::gather_checkpoint(plain) == plain);
}

TEST_CASE("numeric restarts resume at the lowest unfinished index, split anew, seed pools merged", "[fast]") {
  json s0 = {{"engine", "numeric"}, {"version", 1}, {"next_restart", 30}, {"best_residual", 0.5}, {"best_exact_fraction", 0.2}, {"seeds", {"a"}}};
  json s1 = {{"engine", "numeric"}, {"version", 1}, {"next_restart", 25}, {"best_residual", 0.1}, {"best_exact_fraction", 0.4}, {"seeds", {"b"}}};
  json s2 = {{"engine", "numeric"}, {"version", 1}, {"next_restart", 29}, {"best_residual", -1}, {"best_exact_fraction", 0.0}, {"seeds", json::array()}};
  const std::vector<json> two = mpi::redistribute(mpi::combine_states({s0, s1, s2}, "numeric"), 2);
  CHECK(two[0]["next_restart"] == 25);
  CHECK(two[1]["next_restart"] == 26);
  CHECK(two[0]["best_residual"] == 0.1);
  CHECK(two[1]["best_exact_fraction"] == 0.4);
  CHECK(two[0]["seeds"].size() == 2);
}

TEST_CASE("numeric ranks split the restart indices and take their host's GPU; flip ranks get their own seeds", "[fast]") {
  const mpi::World w{2, 4, 1, 2};  // rank 2 of 4, second rank of its host
  const json p = mpi::rank_params("numeric", json::object(), w);
  CHECK(p["restart_offset"] == 2);
  CHECK(p["restart_stride"] == 4);
  CHECK(p["gpu"] == 1);
  CHECK(mpi::rank_params("flip", json::object(), w) == json::object());
  CHECK(mpi::rank_seed(42, "numeric", 3) == 42);
  std::set<unsigned long long> seeds;
  for (int r = 0; r < 64; ++r) seeds.insert(mpi::rank_seed(42, "flip", r));
  CHECK(seeds.size() == 64);
  CHECK(mpi::rank_seed(42, "flip", 0) == 42);
  CHECK(mpi::threads_per_rank(16, {0, 8, 0, 4}) == 4);
  CHECK(mpi::threads_per_rank(2, {0, 3, 0, 3}) == 1);
}

TEST_CASE("a report carries offers as native schemes, counters, events and the checkpoint state", "[fast]") {
  mpi::Report r;
  r.offers.push_back({test::strassen(), "flip"});
  r.added["flips"] = 1000;
  r.set["rank"] = 7;
  r.events.push_back({{"event", "lift_failed"}});
  r.checkpoint = json{{"engine", "flip"}};
  mpi::Report later;
  later.added["flips"] = 500;
  later.done = true;
  r.merge(later);
  const mpi::Report back = mpi::Report::parse(r.text());
  REQUIRE(back.offers.size() == 1);
  CHECK(back.offers[0].scheme.rank() == 7);
  CHECK(back.offers[0].method == "flip");
  CHECK(back.added.at("flips") == 1500);
  CHECK(back.set.at("rank") == 7);
  CHECK(back.events.size() == 1);
  CHECK(back.checkpoint == json{{"engine", "flip"}});
  CHECK(back.done);
  CHECK_THROWS_AS(mpi::Report::parse("{\"offers\":3}"), InputError);
}

TEST_CASE("a report leaves out counters JSON cannot hold (a numeric run's residual before its first restart)", "[fast]") {
  mpi::Report r;
  r.set["residual"] = INFINITY;
  r.set["exact_fraction"] = 0.25;
  const mpi::Report back = mpi::Report::parse(r.text());
  CHECK(back.set.count("residual") == 0);
  CHECK(back.set.at("exact_fraction") == 0.25);
}

TEST_CASE("the setup message round-trips the engine configuration and a rank's state", "[fast]") {
  mpi::Setup s;
  s.engine = "numeric";
  s.config.target = {Format{3, 3, 3}, 23, Ring::Q};
  s.config.threads = 2;
  s.config.seed = 12345678901234ull;
  s.config.seconds = 90;
  s.config.params = {{"lattice", "half"}};
  s.config.start = test::classical(Format{3, 3, 3});
  s.config.resume = json{{"engine", "numeric"}, {"next_restart", 4}};
  s.settings.exchange_seconds = 0.5;
  const mpi::Setup back = mpi::parse_setup(mpi::setup_text(s));
  CHECK(back.engine == "numeric");
  CHECK(back.config.target.format == Format{3, 3, 3});
  CHECK(back.config.target.rank == 23);
  CHECK(back.config.target.ring == Ring::Q);
  CHECK(back.config.seed == 12345678901234ull);
  CHECK(back.config.params == s.config.params);
  REQUIRE(back.config.start);
  CHECK(back.config.start->rank() == 27);
  CHECK(back.config.resume == s.config.resume);
  CHECK(back.settings.exchange_seconds == 0.5);
  mpi::Setup cancel;
  cancel.cancelled = 2;
  CHECK(mpi::parse_setup(mpi::setup_text(cancel)).cancelled == 2);
}

TEST_CASE("tdisc search rejects a negative exchange period and a timeout under a second", "[fast]") {
  auto r = test::run_tdisc("search --size 2x2 --rank 7 --mpi-exchange -1s --time 1s -q");
  CHECK(r.code == 1);
  r = test::run_tdisc("search --size 2x2 --rank 7 --mpi-timeout 0.5s --time 1s -q");
  CHECK(r.code == 1);
  CHECK(r.err.find("mpi-timeout") != std::string::npos);
}

// docs/mpi.md "Scaling to 1,000 ranks": rank 0's CPU cost of decoding one report, a heartbeat (counters
// only) and one carrying a rank's checkpoint state (4x4 flip walkers and pool). Prints, asserts only
// that both were decoded; run with: tests_mpi "[.bench]" -s
TEST_CASE("rank 0's cost per report: a heartbeat and a state-carrying report", "[.bench]") {
  mpi::Report beat;
  beat.added = {{"flips", 123456}, {"restarts", 1}};
  beat.set = {{"rank", 51}};
  mpi::Report state = beat;
  json walkers = json::array();
  const Scheme s = test::classical(Format{4, 4, 4});
  for (int w = 0; w < 2; ++w) walkers.push_back({{"terms", json::parse(native_text(s))["u"]}, {"rng", {"1", "2", "3", "4"}}});
  state.checkpoint = json{{"engine", "flip"}, {"walkers", walkers}, {"pool", walkers}};
  for (const mpi::Report* r : {&beat, &state}) {
    const std::string text = r->text();
    const int n = 2000;
    const double t0 = mpi::thread_cpu_time();
    size_t decoded = 0;
    for (int i = 0; i < n; ++i) decoded += mpi::Report::parse(text).added.size();
    const double per = (mpi::thread_cpu_time() - t0) / n;
    std::printf("report of %zu bytes: %.1f us CPU to decode\n", text.size(), 1e6 * per);
    CHECK(decoded == 2u * n);
  }
}
