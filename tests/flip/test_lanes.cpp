// Which walks a flip search runs side by side (lanes.hpp): auto gives a Z3-symmetric lane where the
// format is square and a lifted GF2 lane for characteristic-0 targets; explicit choices give one.
#include <catch2/catch.hpp>

#include <atomic>
#include <mutex>
#include <set>

#include "src/search/flip/lanes.hpp"
#include "tests/numeric/recording_reporter.hpp"
#include "tests/support.hpp"

using namespace tdisc;
using namespace tdisc::search;
using flip::Lane;
using S = flip::Symmetry;

namespace {
EngineConfig config(Format f, int rank, Ring ring, int threads, nlohmann::json params = nlohmann::json::object()) {
  EngineConfig c;
  c.target = {f, rank, ring};
  c.threads = threads;
  c.params = params;
  return c;
}
}  // namespace

TEST_CASE("auto lanes: square characteristic-0 targets get a symmetric ZT walk and a lifted GF2 walk", "[fast]") {
  using V = std::vector<Lane>;
  CHECK(flip::lanes_for(config({3, 3, 3}, 23, Ring::Z, 2)) == V{{Ring::ZT, S::Z3, 1}, {Ring::GF2, S::None, 1}});
  CHECK(flip::lanes_for(config({4, 4, 4}, 49, Ring::Q, 3)) == V{{Ring::ZT, S::Z3, 2}, {Ring::GF2, S::None, 1}});
  CHECK(flip::lanes_for(config({3, 3, 4}, 29, Ring::Z, 2)) == V{{Ring::ZT, S::None, 1}, {Ring::GF2, S::None, 1}});
  CHECK(flip::lanes_for(config({4, 4, 4}, 49, Ring::ZT, 2)) == V{{Ring::ZT, S::Z3, 1}, {Ring::ZT, S::None, 1}});
  CHECK(flip::lanes_for(config({2, 3, 4}, 20, Ring::ZT, 2)) == V{{Ring::ZT, S::None, 2}});
  CHECK(flip::lanes_for(config({4, 4, 4}, 47, Ring::GF2, 2)) == V{{Ring::GF2, S::Z3, 1}, {Ring::GF2, S::None, 1}});
  CHECK(flip::lanes_for(config({3, 3, 3}, 23, Ring::Z, 1)) == V{{Ring::ZT, S::Z3, 1}});
}

TEST_CASE("explicit walk ring, symmetry or a --from start narrow the lanes", "[fast]") {
  using V = std::vector<Lane>;
  CHECK(flip::lanes_for(config({3, 3, 3}, 23, Ring::Z, 2, {{"walk_ring", "GF2"}, {"symmetry", "none"}})) ==
        V{{Ring::GF2, S::None, 2}});
  CHECK(flip::lanes_for(config({3, 3, 3}, 23, Ring::Z, 2, {{"symmetry", "none"}})) ==
        V{{Ring::ZT, S::None, 1}, {Ring::GF2, S::None, 1}});
  CHECK(flip::lanes_for(config({3, 3, 3}, 23, Ring::ZT, 2, {{"symmetry", "z3"}})) == V{{Ring::ZT, S::Z3, 2}});
  EngineConfig from = config({3, 3, 3}, 23, Ring::ZT, 2);
  from.start = test::classical({3, 3, 3});
  CHECK(flip::lanes_for(from) == V{{Ring::ZT, S::None, 2}});
}

TEST_CASE("a two-lane search over Z reaches 3x3:23 and its result verifies over Z", "[fast]") {
  std::string dir = test::temp_dir("lanes") + "/run";
  auto r = test::run_tdisc("search --size 3x3 --rank 23 --ring Z --threads 2 --seed 3 --time 60s -q --out " + dir);
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(test::slurp(dir + "/events.jsonl").find("\"event\":\"lanes\"") != std::string::npos);
  auto v = test::run_tdisc("verify " + dir + "/best-r23.json --ring Z");
  INFO(v.out << v.err);
  CHECK(v.code == 0);
}

namespace {
// Refuses the first offer it gets (each lane offers its start scheme first): that lane fails at once,
// the other would walk on until the budget.
class FailingFirstOffer : public test::RecordingReporter {
public:
  using RecordingReporter::RecordingReporter;
  bool offer(const Scheme& s, const std::string& method) override {
    if (!thrown_.exchange(true)) throw std::runtime_error("a lane failed");
    return RecordingReporter::offer(s, method);
  }

private:
  std::atomic<bool> thrown_{false};
};
}  // namespace

TEST_CASE("a lane that fails stops the other lanes at once, and its error comes out", "[fast]") {
  EngineConfig c = config({3, 3, 4}, 20, Ring::Z, 2);  // out of reach: only the failure can end it early
  c.seed = 5;
  REQUIRE(flip::lanes_for(c) == std::vector<Lane>{{Ring::ZT, S::None, 1}, {Ring::GF2, S::None, 1}});
  FailingFirstOffer reporter(Ring::Z, 60);
  CHECK_THROWS_WITH(flip::run_lanes(c, reporter), "a lane failed");
  INFO("seconds until both lanes ended: " << reporter.elapsed());
  CHECK(reporter.elapsed() < 10);
}

namespace {
const LaneRecipe kDeadEnd{"dead", {{"symmetry", "none"}, {"undo_dead_ends", true}, {"dead_end_restart", 100000}, {"fresh", 1}}};
const LaneRecipe kGF2z3{"gf2z3", {{"walk_ring", "GF2"}, {"symmetry", "z3"}, {"lift_at_target", true}}};
const LaneRecipe kZ3{"z3", {{"symmetry", "z3"}}};
}  // namespace

TEST_CASE("recipe lanes run on the threads beyond two per own lane, each with its overlay", "[fast]") {
  using V = std::vector<Lane>;
  EngineConfig c = config({4, 4, 4}, 49, Ring::Z, 6);
  c.lane_recipes = {kDeadEnd, kZ3, kGF2z3};
  // kZ3 walks as the engine's first lane (ZT z3, nothing of its own): left out
  CHECK(flip::lanes_for(c) == V{{Ring::ZT, S::Z3, 2}, {Ring::GF2, S::None, 2}, {Ring::ZT, S::None, 1, "dead", kDeadEnd.params},
                                {Ring::GF2, S::Z3, 1, "gf2z3", kGF2z3.params}});
  c.threads = 5;  // room for one: the nearest
  CHECK(flip::lanes_for(c) == V{{Ring::ZT, S::Z3, 2}, {Ring::GF2, S::None, 2}, {Ring::ZT, S::None, 1, "dead", kDeadEnd.params}});
  c.threads = 4;  // two threads per own lane first: no room for a recipe
  CHECK(flip::lanes_for(c) == V{{Ring::ZT, S::Z3, 2}, {Ring::GF2, S::None, 2}});
  c.threads = 9;  // a thread for each recipe lane; the own lanes split the rest
  CHECK(flip::lanes_for(c) == V{{Ring::ZT, S::Z3, 4}, {Ring::GF2, S::None, 3}, {Ring::ZT, S::None, 1, "dead", kDeadEnd.params},
                                {Ring::GF2, S::Z3, 1, "gf2z3", kGF2z3.params}});
  c.threads = 1;
  CHECK(flip::lanes_for(c) == V{{Ring::ZT, S::Z3, 1}});
  // a non-square format cannot walk z3: that recipe is left out; over GF3 a GF2 walk is too
  EngineConfig odd = config({3, 3, 4}, 29, Ring::Z, 5);
  odd.lane_recipes = {kGF2z3, kDeadEnd};
  CHECK(flip::lanes_for(odd) == V{{Ring::ZT, S::None, 2}, {Ring::GF2, S::None, 2}, {Ring::ZT, S::None, 1, "dead", kDeadEnd.params}});
  EngineConfig gf3 = config({3, 3, 3}, 23, Ring::GF3, 5);
  gf3.lane_recipes = {kGF2z3, kDeadEnd};
  CHECK(flip::lanes_for(gf3) == V{{Ring::GF3, S::Z3, 2}, {Ring::GF3, S::None, 2}, {Ring::GF3, S::None, 1, "dead", kDeadEnd.params}});
  // an explicit key applies to every lane: with the run's own symmetry none, the z3 recipe walks plain,
  // a lane of its own only through its lift_at_target
  EngineConfig plain = config({4, 4, 4}, 49, Ring::Z, 5, {{"symmetry", "none"}});
  plain.lane_recipes = {kZ3, kGF2z3};
  CHECK(flip::lanes_for(plain) == V{{Ring::ZT, S::None, 2}, {Ring::GF2, S::None, 2}, {Ring::GF2, S::None, 1, "gf2z3", kGF2z3.params}});
  const auto bound = flip::lane_params(plain, flip::lanes_for(plain)[2]);
  CHECK(bound.value.symmetry == S::None);
  CHECK(bound.settings.origin("symmetry") == "given");
  CHECK(bound.value.lift_at_target);
  CHECK(bound.settings.origin("lift_at_target") == "derived: lane gf2z3");
}

TEST_CASE("a lane's overlay reaches its walkers, under the run's own keys", "[fast]") {
  // Two GF2 lanes on 3 threads; the recipe lane's max_flips stops its walker early while the
  // engine's own lane walks until the budget.
  EngineConfig c = config({3, 3, 4}, 20, Ring::GF2, 3, {{"adopt", 0.25}});
  c.seed = 7;
  c.lane_recipes = {{"short", {{"max_flips", 3000}, {"adopt", 0.75}}}};
  REQUIRE(flip::lanes_for(c) == std::vector<Lane>{{Ring::GF2, S::None, 2}, {Ring::GF2, S::None, 1, "short", c.lane_recipes[0].params}});
  const auto bound = flip::lane_params(c, flip::lanes_for(c)[1]);
  CHECK(bound.value.max_flips == 3000);
  CHECK(bound.settings.origin("max_flips") == "derived: lane short");
  CHECK(bound.value.adopt == 0.25);  // the run's key wins over the overlay's
  CHECK(bound.settings.origin("adopt") == "given");
  CHECK(flip::lane_params(c, flip::lanes_for(c)[0]).value.max_flips == 0);
  test::RecordingReporter reporter(Ring::GF2, 2);
  flip::run_lanes(c, reporter);
  REQUIRE_FALSE(reporter.checkpoints.empty());
  const nlohmann::json& last = reporter.checkpoints.back();
  REQUIRE(last["lanes"].size() == 2);
  CHECK(last["lanes"][1]["recipe"] == "short");
  CHECK(last["lanes"][1]["params"] == c.lane_recipes[0].params);
  auto most_flips = [&](int lane) {
    long most = 0;
    for (const auto& w : last["lanes"][lane]["state"]["walkers"]) most = std::max(most, w["flips"].get<long>());
    return most;
  };
  INFO("lane 0 flips " << most_flips(0) << ", lane 1 flips " << most_flips(1));
  CHECK(most_flips(1) >= 3000);  // a walker stops at the first batch (4096 moves) past its max_flips
  CHECK(most_flips(1) < 3000 + 4096);
  CHECK(most_flips(0) > 100000);  // the engine's own lane: no limit
}

namespace {
// The MPI facet as a recorder: every island name a walk asks about or exchanges on; nothing arrives.
class IslandRecorder : public search::Ranks {
public:
  bool exchange_due(const std::string& walk) const override {
    std::lock_guard lock(m_);
    names_.insert(walk);
    return true;
  }
  std::vector<nlohmann::json> exchange(const std::string& walk, const nlohmann::json&) override {
    std::lock_guard lock(m_);
    exchanged_.insert(walk);
    return {};
  }
  std::set<std::string> exchanged() const {
    std::lock_guard lock(m_);
    return exchanged_;
  }

private:
  mutable std::mutex m_;
  mutable std::set<std::string> names_;
  std::set<std::string> exchanged_;
};

class IslandReporter : public test::RecordingReporter {
public:
  using test::RecordingReporter::RecordingReporter;
  search::Ranks* ranks() override { return &islands; }
  IslandRecorder islands;
};
}  // namespace

TEST_CASE("two lanes of one field and symmetry exchange pools on islands of their own", "[fast]") {
  // The engine's own GF2 lane and a recipe's GF2 lane, both plain: one island name would mix their
  // pools across MPI ranks.
  EngineConfig c = config({3, 3, 4}, 20, Ring::GF2, 3);
  c.seed = 3;
  c.lane_recipes = {{"short", {{"max_flips", 3000}}}};
  REQUIRE(flip::lanes_for(c).size() == 2);
  IslandReporter reporter(Ring::GF2, 1.5);
  flip::run_lanes(c, reporter);
  CHECK(reporter.islands.exchanged() == std::set<std::string>{"GF2/none", "GF2/none/short"});
}
