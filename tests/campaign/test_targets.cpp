// The targets file of tdisc campaign: what a line means (defaults from the best-known table, from=
// relative to the file, params= to the end of the line) and every refusal naming FILE:LINE.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "base/error.hpp"
#include "src/campaign/targets.hpp"
#include "tests/support.hpp"

using tdisc::campaign::parse_targets;
using tdisc::campaign::TargetSources;
namespace fs = std::filesystem;

namespace {

TargetSources sources() {
  TargetSources s;
  s.known_path = tdisc::test::source_path("algorithms/best-known/rings.tsv");
  s.known = tdisc::read_known_table(s.known_path);
  s.start_catalogue = tdisc::test::source_path("algorithms");
  return s;
}

// The message of the InputError that parsing `text` (as FILE) throws, "" when none.
std::string refusal(const std::string& text, const std::string& file = "/x/targets.txt") {
  try {
    parse_targets(text, file, sources());
  } catch (const tdisc::InputError& e) {
    return e.located();
  }
  return "";
}

}  // namespace

TEST_CASE("a target line: format, ring, and the rank to beat from rings.tsv unless given", "[fast]") {
  auto list = parse_targets("# comment\n\n5x5x5 GF2 reach=92 time=2m symmetry=z3\n3x3 ZT   # best known 23: look for 22\n"
                            "2x3x4 Q beat=20 engine=flip params={\"plus_min\": 3, \"x\": [1, 2]}\n",
                            "/x/t.txt", sources());
  REQUIRE(list.targets.size() == 3);
  const auto& a = list.targets[0];
  CHECK(a.line == 3);
  CHECK(a.format.str() == "5x5x5");
  CHECK(a.ring == tdisc::Ring::GF2);
  CHECK(a.reach == 92);
  CHECK(a.beat == 93);  // rings.tsv: no GF2 value below 93
  CHECK(a.share == Approx(120));
  CHECK(a.symmetry == "z3");
  const auto& b = list.targets[1];
  CHECK(b.format.str() == "3x3x3");
  CHECK(b.beat == 23);
  CHECK(b.reach == 22);
  CHECK(!b.share);
  const auto& c = list.targets[2];
  CHECK(c.beat == 20);
  CHECK(c.reach == 19);
  CHECK(c.engine == "flip");
  CHECK(c.params.at("plus_min") == 3);
  CHECK(c.params.at("x").size() == 2);
  CHECK(b.name(1) == "t2-3x3x3-ZT-r22");
  CHECK(b.start_rank == 27);  // the standard algorithm
}

TEST_CASE("from=: relative to the targets file, or the best catalogued start usable over the ring", "[fast]") {
  const std::string dir = tdisc::test::temp_dir("campaign-from");
  fs::create_directories(dir + "/inputs");
  std::ofstream(dir + "/inputs/s.json") << "{}";
  auto list = parse_targets("2x2x2 ZT reach=7 from=inputs/s.json\n3x3x3 GF2 reach=22 from=catalogue\n", dir + "/t.txt", sources());
  REQUIRE(list.targets.size() == 2);
  CHECK(list.targets[0].from == dir + "/inputs/s.json");
  CHECK(list.targets[1].from.find(tdisc::test::source_path("algorithms/3x3x3/r23-")) == 0);
  CHECK(list.targets[1].start_rank == 23);  // declared in the start file's header
  CHECK(list.targets[0].start_rank == 0);   // "{}" declares none

  CHECK(refusal("2x2x2 ZT reach=7 from=inputs/none.json\n", dir + "/t.txt") ==
        dir + "/t.txt:1: from=inputs/none.json: no such file (" + dir + "/inputs/none.json)");
  TargetSources skipping = sources();
  skipping.skip_missing = true;
  auto skipped = parse_targets("2x2x2 ZT reach=7\n2x2x3 ZT reach=11 from=inputs/none.json\n", dir + "/t.txt", skipping);
  CHECK(skipped.targets.size() == 1);
  REQUIRE(skipped.notes.size() == 1);
  CHECK(skipped.notes[0].find(dir + "/t.txt:2: skipped 2x2x3 ZT r11") == 0);
  auto with_recipes = parse_targets("2x2x2 ZT reach=7 recipes=inputs/s.json\n", dir + "/t.txt", sources());
  CHECK(with_recipes.targets[0].recipes == dir + "/inputs/s.json");
  CHECK(refusal("2x2x2 ZT reach=7 recipes=r.json\n", dir + "/t.txt") == dir + "/t.txt:1: recipes=: no such file (" + dir + "/r.json)");
  CHECK(refusal("7x7x7 GF2 reach=200 from=catalogue\n").find("/x/targets.txt:1: from=catalogue: ") == 0);
}

TEST_CASE("every bad line is refused with FILE:LINE and what is wrong", "[fast]") {
  const std::string ok = "2x2x2 GF2 reach=7\n";
  CHECK(refusal(ok + "2x2x3 ZT rank=11\n") == "/x/targets.txt:2: unknown key \"rank\" (reach, beat, time, from, engine, symmetry, recipes, params)");
  CHECK(refusal(ok + "2y2 ZT\n") == "/x/targets.txt:2: \"2y2\" is not a format (e.g. 3x3, 2x3x4)");
  CHECK(refusal(ok + "2x2 R\n") == "/x/targets.txt:2: \"R\" is not a ring (ZT, Z, Q, QI, GF2, GF3)");
  CHECK(refusal(ok + "2x2x2\n") == "/x/targets.txt:2: a target needs a format and a ring (e.g. \"5x5x5 GF2 reach=92\")");
  CHECK(refusal(ok + ok) == "/x/targets.txt:2: the same target (2x2x2 GF2 r7) as line 1");
  CHECK(refusal("2x2x2 GF2 reach=9\n") == "/x/targets.txt:1: rank 9 to reach is outside 1..8 for 2x2x2");
  CHECK(refusal("2x2x2 GF2 reach=seven\n") == "/x/targets.txt:1: reach=seven: not a rank (a whole number from 1 to 1000000)");
  CHECK(refusal("2x2x2 GF2 reach=7 reach=6\n") == "/x/targets.txt:1: reach= given twice");
  CHECK(refusal("2x2x2 GF2 time=0s\n") == "/x/targets.txt:1: time=0s: not a duration from 1s to 30d (e.g. 90s, 10m, 2h)");
  CHECK(refusal("2x2x2 GF2 engine=llm\n") == "/x/targets.txt:1: engine=llm: not one of auto, flip, numeric");
  CHECK(refusal("\n\n2x2x2 GF2 params={\"a\": \n").find("/x/targets.txt:3: params={\"a\":: not a JSON object") == 0);
  CHECK(refusal("2x2x2 GF2 reach\n") == "/x/targets.txt:1: \"reach\" is not key=value");
  CHECK(refusal("17x17x17 GF2\n").find("/x/targets.txt:1: no best known rank of 17x17x17 over GF2 in ") == 0);
  CHECK(refusal("# nothing\n") == "/x/targets.txt: no targets (one a line: FORMAT RING [key=value …])");
}

TEST_CASE("tdisc campaign refuses a bad targets file with FILE:LINE, exit 2, and writes nothing", "[fast]") {
  const std::string dir = tdisc::test::temp_dir("campaign-refuse");
  const std::string file = dir + "/targets.txt";
  std::ofstream(file) << "# two targets\n2x2x2 GF2 reach=7\n3x3 GF2 reach=23 time=forever\n";
  auto r = tdisc::test::run_tdisc("campaign " + file + " --dir " + dir + "/c --time 10s");
  CHECK(r.code == 2);
  CHECK(r.err == "tdisc: " + file + ":3: time=forever: not a duration from 1s to 30d (e.g. 90s, 10m, 2h)\n");
  CHECK(!fs::exists(dir + "/c"));
  auto missing = tdisc::test::run_tdisc("campaign " + dir + "/none.txt --dir " + dir + "/c");
  CHECK(missing.code == 1);
  CHECK(!fs::exists(dir + "/c"));
  auto foreign = tdisc::test::run_tdisc("campaign " + tdisc::test::source_path("tests/data/campaign/quick.txt") + " --dir " +
                                        tdisc::test::source_path("tests/data/campaign") + " --time 5s");
  CHECK(foreign.code == 1);
  CHECK(foreign.err.find("is not empty and holds no campaign.json") != std::string::npos);
}
