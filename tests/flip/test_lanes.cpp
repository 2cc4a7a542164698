// Which walks a flip search runs side by side (lanes.hpp): auto gives a Z3-symmetric lane where the
// format is square and a lifted GF2 lane for characteristic-0 targets; explicit choices give one.
#include <catch2/catch.hpp>

#include <atomic>

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
