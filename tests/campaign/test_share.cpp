// How a campaign shares threads and seeds, and its state file read back (pure functions).
#include <catch2/catch.hpp>

#include <numeric>
#include <set>

#include "base/error.hpp"
#include "src/campaign/share.hpp"
#include "src/campaign/state.hpp"
#include "tests/support.hpp"

using namespace tdisc::campaign;

TEST_CASE("threads split evenly over the targets that may run, one thread each at least", "[fast]") {
  for (int threads : {1, 2, 3, 7, 16})
    for (int candidates : {1, 2, 3, 5, 20}) {
      const auto s = even_split(threads, candidates);
      INFO(threads << " over " << candidates);
      CHECK(static_cast<int>(s.size()) == std::min(threads, candidates));
      CHECK(std::accumulate(s.begin(), s.end(), 0) == threads);
      CHECK(*std::min_element(s.begin(), s.end()) >= 1);
      CHECK(*std::max_element(s.begin(), s.end()) - *std::min_element(s.begin(), s.end()) <= 1);
    }
  CHECK(even_split(16, 3) == std::vector<int>{6, 5, 5});
  CHECK(worth_rebalancing({8}, 16));         // the other target finished: its 8 threads are idle
  CHECK(worth_rebalancing({5, 5}, 16));
  CHECK_FALSE(worth_rebalancing({8, 8}, 16));
  CHECK_FALSE(worth_rebalancing({1}, 1));
  CHECK_FALSE(worth_rebalancing({}, 4));
}

TEST_CASE("per-target seeds derive from the campaign seed; the state reads back as written", "[fast]") {
  std::set<unsigned long long> seeds;
  for (int k = 0; k < 100; ++k) seeds.insert(target_seed(42, k));
  CHECK(seeds.size() == 100);
  CHECK(target_seed(42, 3) == target_seed(42, 3));
  CHECK(target_seed(42, 3) != target_seed(43, 3));

  CampaignTarget t;
  t.format = {2, 2, 3};
  t.ring = tdisc::Ring::GF2;
  t.reach = 11;
  t.beat = 11;
  CampaignState s = fresh_state({t, t}, "/d", 42);
  s.targets[1].status = Status::reached;
  s.targets[1].best_rank = 11;
  s.targets[1].seconds = 3.5;
  s.targets[1].filed = "cat/2x2x3/r11-GF2-x.json";
  s.targets[1].filed_rank = 11;
  const CampaignState back = state_from_json(state_json(s), "campaign.json");
  REQUIRE(back.targets.size() == 2);
  CHECK(back.seed == 42);
  CHECK(back.targets[0].run_dir == "/d/t1-2x2x3-GF2-r11");
  CHECK(back.targets[0].best_rank == INT_MAX);
  CHECK(back.targets[0].seed == target_seed(42, 0));
  CHECK(back.targets[1].status == Status::reached);
  CHECK(back.targets[1].best_rank == 11);
  CHECK(back.targets[1].seconds == 3.5);
  CHECK(back.targets[1].filed_rank == 11);
  CHECK_THROWS_AS(state_from_json(nlohmann::json{{"format", "tdisc-checkpoint"}}, "c.json"), tdisc::InputError);

  CampaignTarget other = t;
  other.reach = 10;
  other.line = 7;
  CHECK_NOTHROW(check_same_targets(s, {t, t}, "f.txt"));
  try {
    check_same_targets(s, {t, other}, "f.txt");
    FAIL("a different target list was accepted");
  } catch (const tdisc::InputError& e) {
    CHECK(e.located() == "f.txt:7: target 2 is 2x2x3 GF2 r10, the campaign state's is 2x2x3 GF2 r11; give another --dir for another list");
  }
}
