// Meta flips (Kauers–Wood 2025): every move carries catalogued schemes to a scheme of the target
// format that the exact verifier accepts; a meta search reaches a small target from a neighbour;
// a catalogue without neighbours is refused with a clear message.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>

#include "decomposition/native.hpp"
#include "src/catalog/catalogue.hpp"
#include "src/search/flip/meta_moves.hpp"
#include "src/search/flip/meta_params.hpp"
#include "tests/support.hpp"
#include "verifier/verify.hpp"

using namespace tdisc;
using namespace tdisc::search::flip;
namespace fs = std::filesystem;

namespace {

// A catalogue folder holding copies of the repository's files `relative` (<format>/<file>.json).
std::string small_catalogue(const std::vector<std::string>& relative) {
  const std::string dir = test::temp_dir("meta-catalogue");
  for (const auto& r : relative) {
    fs::create_directories(fs::path(dir) / fs::path(r).parent_path());
    fs::copy_file(test::source_path("algorithms/" + r), fs::path(dir) / r);
  }
  return dir;
}

}  // namespace

TEST_CASE("every meta move gives a scheme the exact verifier accepts in the new format", "[fast]") {
  const auto catalogue = read_catalogue(test::source_path("algorithms"));
  std::map<std::string, int> moves_seen;
  for (Format target : {Format{2, 2, 3}, Format{2, 3, 4}, Format{3, 3, 4}, Format{2, 4, 5}, Format{4, 4, 4}, Format{3, 4, 5}}) {
    const Shelf shelf(catalogue, Ring::ZT, target);
    const std::vector<MetaStart> starts = meta_starts(target, shelf, 2);
    REQUIRE(!starts.empty());
    for (size_t k = 1; k < starts.size(); ++k) REQUIRE(starts[k - 1].rank <= starts[k].rank);
    for (const MetaStart& s : starts)
      for (std::uint64_t seed : {1u, 2u, 3u}) {
        Rng rng(seed);
        const Scheme built = s.build(rng);
        INFO(target.str() << " " << s.describe << " seed " << seed);
        REQUIRE(built.format == target);
        const Verdict v = verify(built, Ring::ZT);
        INFO(v.why_not);
        REQUIRE(v.valid);
        if (s.move != "project") CHECK(built.rank() == s.rank);  // projections drop a drawn number of terms
        ++moves_seen[s.move];
        if (s.move != "project") break;  // only projections draw
      }
  }
  for (const char* move : {"extend", "project", "merge", "product"}) {
    INFO(move);
    CHECK(moves_seen[move] > 0);
  }
}

namespace {

// A run that never stops by itself: the detour's own clock ends its walk.
struct OpenRun : tdisc::search::Reporter {
  bool offer(const Scheme&, const std::string&) override { return true; }
  void event(const nlohmann::json&) override {}
  void add(const std::string&, double) override {}
  void set(const std::string&, double) override {}
  bool stop_requested() const override { return false; }
  int best_rank() const override { return 1 << 30; }
  bool checkpoint_due() const override { return false; }
  void checkpoint(const nlohmann::json&) override {}
};

}  // namespace

TEST_CASE("a detour goes out one index, walks, and comes back to a valid scheme of the format", "[fast]") {
  const Scheme best = join(test::strassen(), classical_scheme({2, 2, 1}), Axis::P);  // 2x2x3:11
  tdisc::search::EngineConfig walk;
  walk.target = {{2, 2, 3}, 11, Ring::ZT};
  walk.params = {{"walk_ring", "ZT"}, {"symmetry", "none"}};
  OpenRun run;
  for (Axis axis : {Axis::N, Axis::M, Axis::P})
    for (std::uint64_t seed : {1u, 2u}) {
      walk.seed = seed;
      Rng rng(seed);
      const Scheme back = detour(best, axis, walk, 0.2, run, rng);
      INFO("axis " << meta_axis_name(axis) << " seed " << seed);
      REQUIRE(back.format == Format{2, 2, 3});
      const Verdict v = verify(back, Ring::ZT);
      INFO(v.why_not);
      CHECK(v.valid);
    }
}

TEST_CASE("the shelf never offers the target format, and rotates schemes to the orientation asked for", "[fast]") {
  const auto catalogue = read_catalogue(test::source_path("algorithms"));
  const Shelf shelf(catalogue, Ring::ZT, {2, 3, 4});
  CHECK(!shelf.rank({4, 3, 2}));
  CHECK(!shelf.scheme({3, 2, 4}));
  auto s = shelf.scheme({3, 2, 2});  // catalogued as 2x2x3
  REQUIRE(s);
  CHECK(s->format == Format{3, 2, 2});
  CHECK(verify(*s, Ring::ZT).valid);
  CHECK(shelf.rank({1, 3, 4}) == 12);  // classical: n·m·p is optimal with a dimension 1
}

TEST_CASE("meta parameters: bad values are named, nothing is clamped", "[fast]") {
  CHECK(check_meta_params({{"catalogue", "x"}}).empty());
  CHECK(check_meta_params(nlohmann::json::object()).empty());  // the run's catalogue (EngineConfig::catalogue_dir)
  auto bad = check_meta_params({{"catalogue", "x"}, {"meta_slice", 0}, {"meta_project_depth", 9}, {"meta_best_start", 2},
                                {"meta_detour", -1}});
  CHECK(bad.size() == 4);
  CHECK(flip_part({{"catalogue", "x"}, {"meta_slice", 1}, {"plus_diff", 3}}) == nlohmann::json{{"plus_diff", 3}});
}

TEST_CASE("a meta search reaches 2x3x3:15 from 2x2x3:11 (extend, then flip walks)", "[fast]") {
  const std::string cat = small_catalogue({"2x2x3/r11-ZT-7d7f43be.json"});
  const std::string out = test::temp_dir("meta-run");
  // 2 s on the loaded 2-core VM: the budget is headroom for a slower machine, not a bound to meet.
  auto r = test::run_tdisc("search --size 2x3x3 --rank 15 --meta --catalog-dir " + cat +
                           " --time 120s --threads 1 --seed 7 --quiet --out " + out + "/run");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("extend 2x2x3:11") != std::string::npos);
  CHECK(r.out.find("seed 7") != std::string::npos);
  const Scheme best = read_native(out + "/run/best-r15.json");
  CHECK(verify(best, Ring::ZT).valid);
  CHECK(best.provenance.extra.at("meta_start").find("2x2x3:11") != std::string::npos);
  CHECK(best.provenance.extra.at("meta_run_seed") == "7");
}

TEST_CASE("a meta search of 2x2x3:11 takes Strassen's 2x2x2:7 and its extension at once", "[fast]") {
  const std::string cat = small_catalogue({"2x2x2/r7-ZT-02268ba0.json"});
  const std::string out = test::temp_dir("meta-run");
  auto r = test::run_tdisc("search --size 2x2x3 --rank 11 --meta --catalog-dir " + cat +
                           " --time 10s --threads 1 --seed 3 --quiet --out " + out + "/run");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("extend 2x2x2:7") != std::string::npos);
}

TEST_CASE("a meta search without a neighbour in the catalogue says so", "[fast]") {
  const std::string cat = small_catalogue({"5x5x5/r93-ZT-1d8d8d38.json"});
  auto r = test::run_tdisc("search --size 2x2x2 --rank 7 --meta --catalog-dir " + cat + " --time 5s --threads 1 --seed 1 --quiet --out " +
                           test::temp_dir("meta-run") + "/run");
  INFO(r.out << r.err);
  CHECK(r.code == 2);
  CHECK(r.err.find("no catalogued scheme usable over ZT neighbours 2x2x2") != std::string::npos);
  CHECK(r.err.find(cat) != std::string::npos);

  auto missing = test::run_tdisc("search --size 2x2x2 --rank 7 --meta --catalog-dir " + cat + "/nowhere --time 5s --quiet");
  CHECK(missing.code == 1);  // not a folder: an I/O error
  CHECK(missing.err.find("nowhere") != std::string::npos);

  auto from = test::run_tdisc("search --size 2x2x2 --rank 7 --meta --from " + cat + "/5x5x5/r93-ZT-1d8d8d38.json --time 5s --quiet");
  CHECK(from.code == 1);
  CHECK(from.err.find("--meta") != std::string::npos);
}
