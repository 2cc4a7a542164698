// The portfolio of a flip search (src/search/flip/portfolio.hpp): which lane gets a thread given
// the lanes' drops, and a search with several lanes that records its moves in events.jsonl and run.json.
#include <catch2/catch.hpp>

#include <climits>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "src/search/flip/portfolio.hpp"
#include "tests/support.hpp"

using namespace tdisc;
using namespace tdisc::search::flip;

namespace {
// threads, best rank, seconds of the last drop
LaneState lane(int threads, int rank, double at) { return {threads, rank, at}; }
const PortfolioRule kRule{5, 120};
}  // namespace

TEST_CASE("portfolio: the lane that dropped most recently takes a thread from the one longest without a drop", "[fast]") {
  // lane 1 dropped at 9 s (after the decision at 5 s), lane 0 last at 2 s, lane 2 at 4 s
  auto m = portfolio_move({lane(2, 40, 2), lane(1, 38, 9), lane(2, 39, 4)}, 10, 5, kRule);
  REQUIRE(m);
  CHECK(m->to == 1);
  CHECK(m->from == 0);
  CHECK(m->why.find("lane 1 dropped to rank 38 at 9.0 s") != std::string::npos);
  // the most recent of two recent drops wins
  m = portfolio_move({lane(2, 40, 7), lane(2, 38, 6), lane(2, 41, 1)}, 10, 5, kRule);
  REQUIRE(m);
  CHECK((m->to == 0 && m->from == 2));
}

TEST_CASE("portfolio: no move without a recent drop, and none from a lane that dropped recently too", "[fast]") {
  CHECK_FALSE(portfolio_move({lane(2, 40, 2), lane(2, 38, 4)}, 10, 5, kRule));  // nobody dropped since 5 s
  CHECK_FALSE(portfolio_move({lane(2, 40, 6), lane(2, 38, 7)}, 10, 5, kRule));  // both did: neither gives
}

TEST_CASE("portfolio: a lane keeps its last thread unless it is dead (no drop for long, standing above the receiver)", "[fast]") {
  // one thread each: lane 0 has not dropped for 8 s only
  CHECK_FALSE(portfolio_move({lane(1, 40, 2), lane(1, 38, 9)}, 10, 5, kRule));
  // 200 s without a drop, at 40 above the receiver's 38: dead, its last thread goes
  auto m = portfolio_move({lane(1, 40, 2), lane(1, 38, 201)}, 202, 197, kRule);
  REQUIRE(m);
  CHECK((m->from == 0 && m->to == 1));
  CHECK(m->why.find("dead") != std::string::npos);
  // as long, but lower than the receiver: not dead
  CHECK_FALSE(portfolio_move({lane(1, 36, 2), lane(1, 38, 201)}, 202, 197, kRule));
  // dead_after 0: never
  CHECK_FALSE(portfolio_move({lane(1, 40, 2), lane(1, 38, 201)}, 202, 197, PortfolioRule{5, 0}));
  // a dead lane whose drop is older gives before a lane with two threads
  m = portfolio_move({lane(1, 45, 1), lane(2, 40, 3), lane(1, 38, 201)}, 202, 197, kRule);
  REQUIRE(m);
  CHECK(m->from == 0);
}

TEST_CASE("Portfolio: a decision every `every` seconds moves one walker; the donor's highest walker parks", "[fast]") {
  Portfolio p({2, 2}, {5, 120});
  CHECK(p.walkers() == 4);
  CHECK((p.may_walk(0, 1) && !p.may_walk(0, 2) && p.may_walk(1, 1) && !p.may_walk(1, 2)));
  p.improved(0, 31, 1);
  p.improved(1, 30, 2);
  CHECK_FALSE(p.tick(3));  // not due: the first decision comes at 5 s
  CHECK_FALSE(p.tick(6));  // both dropped since the start: neither gives
  p.improved(1, 29, 8);
  p.improved(0, 35, 8.5);  // no drop: lane 0 stands at 31
  CHECK_FALSE(p.tick(9));  // not due
  auto m = p.tick(11);
  REQUIRE(m);
  CHECK((m->from == 0 && m->to == 1));
  CHECK((p.threads(0) == 1 && p.threads(1) == 3));
  CHECK((p.may_walk(0, 0) && !p.may_walk(0, 1) && p.may_walk(1, 2) && !p.may_walk(1, 3)));
  p.improved(1, 28, 12);
  CHECK_FALSE(p.tick(16));  // lane 0's last thread stays: 15 s without a drop is not dead
  p.improved(1, 27, 130);
  m = p.tick(131);  // 130 s without a drop at 31, above lane 1's 27: dead
  REQUIRE(m);
  CHECK((p.threads(0) == 0 && p.threads(1) == 4));
  CHECK_FALSE(p.may_walk(0, 0));
  const auto s = p.states();
  CHECK((s[0].best_rank == 31 && s[1].best_rank == 27 && s[1].improved_at == 130));
}

TEST_CASE("Portfolio: every 0 never moves a thread", "[fast]") {
  Portfolio p({2, 2}, {0, 120});
  p.improved(1, 29, 8);
  CHECK_FALSE(p.tick(1000));
  CHECK((p.threads(0) == 2 && p.threads(1) == 2));
}

TEST_CASE("a portfolio run on a held-out target records its thread moves in events.jsonl and run.json", "[fast]") {
  // 4x4x4 over Z far below its best known rank 49: no row of the table fits, so the plan runs the
  // portfolio (a ZT lane and a lifted GF2 lane, 2 threads each: no thread left for a recipe lane)
  // for the whole budget. From the standard 64 both lanes keep dropping, each at its own moments,
  // for far longer than the 5 s budget even on a fast machine (a 3x3x4 target stopped dropping
  // within the first decision on the CI's machine, and nothing moved), so with a decision every
  // 0.1 s threads move.
  const std::string dir = test::temp_dir("portfolio") + "/run";
  auto r = test::run_tdisc("search --size 4x4x4 --rank 40 --ring Z --threads 4 --seed 1 --time 5s -q --out " + dir +
                           " --params '{\"portfolio_every\":0.1}'");
  INFO(r.out << r.err);
  REQUIRE(r.code == 3);  // out of reach: the budget ends it
  CHECK(r.out.find("recipe: no row of") != std::string::npos);
  std::istringstream events(test::slurp(dir + "/events.jsonl"));
  std::vector<nlohmann::json> moves;
  nlohmann::json lanes;
  for (std::string line; std::getline(events, line);) {
    const auto e = nlohmann::json::parse(line);
    if (e["event"] == "portfolio_move") moves.push_back(e);
    if (e["event"] == "lanes") lanes = e;
  }
  REQUIRE(lanes.is_object());
  CHECK(lanes["portfolio"]["every"] == 0.1);
  REQUIRE_FALSE(moves.empty());
  for (const auto& m : moves) {
    CHECK(m["from"] != m["to"]);
    CHECK(m["threads"][0].get<int>() + m["threads"][1].get<int>() == 4);
    CHECK(m["why"].get<std::string>().find("dropped to rank") != std::string::npos);
  }
  const auto run = nlohmann::json::parse(test::slurp(dir + "/run.json"));
  CHECK(run["portfolio"]["moves"].size() == moves.size());
  CHECK(run["portfolio"]["moves"][0]["why"] == moves[0]["why"]);
  CHECK(run["portfolio"]["lanes"]["lanes"].size() == 2);
  CHECK(run["recipe"]["id"] == "portfolio");
}

TEST_CASE("portfolio_every 0 keeps the threads where they start", "[fast]") {
  const std::string dir = test::temp_dir("portfolio") + "/run";
  auto r = test::run_tdisc("search --size 3x3x4 --rank 27 --ring Z --threads 4 --seed 1 --time 3s -q --out " + dir +
                           " --params '{\"portfolio_every\":0}'");
  INFO(r.out << r.err);
  REQUIRE(r.code == 3);
  const std::string events = test::slurp(dir + "/events.jsonl");
  CHECK(events.find("\"event\":\"lanes\"") != std::string::npos);
  CHECK(events.find("portfolio_move") == std::string::npos);
  CHECK_FALSE(nlohmann::json::parse(test::slurp(dir + "/run.json"))["portfolio"].contains("moves"));
}

namespace {
std::vector<nlohmann::json> lanes_events(const std::string& dir) {
  std::istringstream events(test::slurp(dir + "/events.jsonl"));
  std::vector<nlohmann::json> out;
  for (std::string line; std::getline(events, line);)
    if (const auto e = nlohmann::json::parse(line); e["event"] == "lanes") out.push_back(e["lanes"]);
  return out;
}
// A lane without its threads (they move; the walk ring, symmetry, recipe and overlay must not).
nlohmann::json walks(nlohmann::json lanes) {
  for (auto& l : lanes) l.erase("threads");
  return lanes;
}
}  // namespace

TEST_CASE("--resume of a portfolio with recipe lanes rebuilds the same lanes, with or without a checkpoint", "[fast]") {
  // 2x3x4 over GF2 below its best rank 20 on 3 threads: the engine's own GF2 lane (2 threads) beside
  // the dead-end recipe's (1).
  const std::string dir = test::temp_dir("portfolio-resume") + "/run";
  auto r = test::run_tdisc("search --size 2x3x4 --rank 19 --ring GF2 --threads 3 --seed 4 --time 2s -q --out " + dir);
  INFO(r.out << r.err);
  REQUIRE(r.code == 3);
  const auto run = nlohmann::json::parse(test::slurp(dir + "/run.json"));
  REQUIRE(run["recipe"]["lanes"].size() == 1);
  CHECK(run["recipe"]["lanes"][0]["id"] == "4x4x4-47-GF2");
  CHECK(run["resolved_params"].size() == 2);
  CHECK(run["resolved_params"][1]["recipe"] == "4x4x4-47-GF2");
  const auto checkpoint = nlohmann::json::parse(test::slurp(dir + "/checkpoint.json"));
  CHECK(checkpoint.dump().find("\"recipe\":\"4x4x4-47-GF2\"") != std::string::npos);
  std::vector<nlohmann::json> first = lanes_events(dir);
  REQUIRE(first.size() == 1);
  REQUIRE(first[0].size() == 2);
  CHECK(first[0][1]["recipe"] == "4x4x4-47-GF2");
  CHECK(first[0][1]["params"]["undo_dead_ends"] == true);
  // from the checkpoint
  r = test::run_tdisc("search --resume " + dir + " --time 1s -q");
  REQUIRE(r.code == 3);
  std::vector<nlohmann::json> again = lanes_events(dir);
  REQUIRE(again.size() == 2);
  CHECK(walks(again[1]) == walks(first[0]));
  // from run.json alone (a run that died before its first checkpoint)
  std::filesystem::remove(dir + "/checkpoint.json");
  r = test::run_tdisc("search --resume " + dir + " --time 1s -q");
  INFO(r.out << r.err);
  REQUIRE(r.code == 3);
  again = lanes_events(dir);
  REQUIRE(again.size() == 3);
  CHECK(walks(again[2]) == walks(first[0]));
}
