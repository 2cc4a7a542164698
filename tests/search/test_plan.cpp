// The planning of a search in the library (src/search/plan.hpp): what a bare ask becomes, which
// engine auto picks, and the shorthands — the same answers the command line gets.
#include <catch2/catch.hpp>

#include "base/error.hpp"
#include "src/search/plan.hpp"

using namespace tdisc;
using namespace tdisc::search;

namespace {
SearchAsk ask(Format f, std::optional<int> rank = std::nullopt, std::optional<Ring> ring = std::nullopt) {
  SearchAsk a;
  a.format = f;
  a.rank = rank;
  a.ring = ring;
  return a;
}
}  // namespace

TEST_CASE("a bare ask targets the best known integer rank over ZT with the flip engine", "[fast][plan]") {
  SearchPlan p = plan_search(ask({3, 3, 3}));
  CHECK(p.target.rank == 23);
  CHECK(p.target.ring == Ring::ZT);
  CHECK(p.engine == "flip");
  CHECK(p.params.empty());
}

TEST_CASE("auto picks numeric below the best integer rank over Q, flip at or above it, llm with an endpoint", "[fast][plan]") {
  SearchPlan below = plan_search(ask({4, 4, 4}, 48));
  CHECK(below.target.ring == Ring::Q);  // below the integer rank 49 the default ring is Q
  CHECK(below.engine == "numeric");
  CHECK(plan_search(ask({4, 4, 4}, 48, Ring::Z)).engine == "flip");
  CHECK(plan_search(ask({4, 4, 4}, 49, Ring::Q)).engine == "flip");
  CHECK(plan_search(ask({4, 4, 4}, 47, Ring::GF2)).engine == "flip");
  SearchAsk llm = ask({4, 4, 4}, 48);
  llm.llm_endpoint = true;
  CHECK(plan_search(llm).engine == "llm");
  llm.symmetry = "z3";  // only flip walks symmetric schemes, even with an endpoint
  CHECK(plan_search(llm).engine == "flip");
  CHECK(plan_search(llm).params == nlohmann::json{{"symmetry", "z3"}});
}

TEST_CASE("the shorthands become engine parameters, or a usage error naming the flag", "[fast][plan]") {
  SearchAsk a = ask({4, 4, 4}, 48);
  a.lattice = "half";
  CHECK(plan_search(a).params == nlohmann::json{{"lattice", "half"}});
  a.engine = "flip";
  CHECK_THROWS_WITH(plan_search(a), Catch::StartsWith("--lattice: only the numeric engine"));
  SearchAsk z3 = ask({2, 3, 4}, 20);
  z3.symmetry = "z3";
  CHECK_THROWS_WITH(plan_search(z3), Catch::Contains("needs a square format"));
  SearchAsk none = ask({3, 3, 3});
  none.symmetry = "none";
  CHECK(plan_search(none).params == nlohmann::json{{"symmetry", "none"}});
  CHECK_THROWS_WITH(plan_search(ask({3, 3, 3}, 28)), "--rank: 28 is out of range [1..27] (the classical rank of 3x3x3)");
  CHECK_THROWS_WITH(plan_search(ask({7, 7, 7})), Catch::StartsWith("--rank: required for 7x7x7"));
}

TEST_CASE("the numeric engine runs on the first GPU when one is present and no device is named", "[fast][plan]") {
  SearchAsk a = ask({4, 4, 4}, 48);
  a.gpus = 2;
  CHECK(plan_search(a).engine == "numeric");
  CHECK(plan_search(a).params == nlohmann::json{{"device", "cuda"}, {"gpu", 0}});
  a.gpus = 0;
  CHECK(plan_search(a).params == nlohmann::json::object());  // no GPU: the CPU engine's default
  a.gpus = 2;
  a.device = "cpu";
  CHECK(plan_search(a).params == nlohmann::json{{"device", "cpu"}});  // --device cpu keeps the CPU
  a.device = "cuda:1";
  CHECK(plan_search(a).params == nlohmann::json{{"device", "cuda"}, {"gpu", 1}});
  SearchAsk flip = ask({3, 3, 3});
  flip.gpus = 2;
  CHECK(plan_search(flip).engine == "flip");
  CHECK(plan_search(flip).params == nlohmann::json::object());  // only the numeric engine runs on a GPU
}

TEST_CASE("4x4:48 over Q runs inside the catalogued ansatz by default; other targets and rings do not",
          "[fast][plan]") {
  SearchAsk a = ask({4, 4, 4}, 48);
  a.catalogue_dir = std::string(TDISC_SOURCE_DIR) + "/algorithms";
  SearchPlan p = plan_search(a);
  CHECK(p.engine == "numeric");
  REQUIRE(p.defaults.contains("ansatz"));
  CHECK(p.defaults["ansatz"].get<std::string>().find("ansatz/4x4x4-r48-Q-") != std::string::npos);
  CHECK(p.route.find("inside the ansatz") == 0);
  CHECK(p.params.find("ansatz") == p.params.end());  // a default, so --params can override it
  a.ring = Ring::QI;  // the catalogued group is real: no route over Q(i)
  CHECK(plan_search(a).route.empty());
  SearchAsk twofive = ask({2, 4, 5}, 32, Ring::Q);  // AlphaEvolve's group: 8 of 10 seeds within 38 s
  twofive.catalogue_dir = a.catalogue_dir;
  CHECK(plan_search(twofive).defaults.value("ansatz", "").find("ansatz/2x4x5-r32-Q-") != std::string::npos);
  SearchAsk other = ask({3, 3, 3}, 22, Ring::Q);
  other.catalogue_dir = a.catalogue_dir;
  CHECK(plan_search(other).defaults.empty());
  a.ring = Ring::Q;
  a.catalogue_dir.clear();  // no catalogue, no route
  CHECK(plan_search(a).route.empty());
}
