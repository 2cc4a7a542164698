// The recipe table (src/search/recipe_table.hpp, algorithms/recipes.json): the plan each committed
// row gives its target with no other flag, overrides key by key, --explain, and refusals of a
// malformed table or an unknown parameter with the file and the row's line.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "base/error.hpp"
#include "src/search/plan.hpp"
#include "src/search/recipe_table.hpp"
#include "tests/support.hpp"

using namespace tdisc;
using namespace tdisc::search;

namespace {

SearchAsk ask(Format f, std::optional<int> rank = std::nullopt, std::optional<Ring> ring = std::nullopt) {
  SearchAsk a;
  a.format = f;
  a.rank = rank;
  a.ring = ring;
  a.catalogue_dir = std::string(TDISC_SOURCE_DIR) + "/algorithms";  // the committed table
  return a;
}

// Every table of a test case in one folder (a new temp_dir of the same tag may remove the last).
std::string write_table(const std::string& name, const std::string& body) {
  static const std::string dir = test::temp_dir("recipes");
  const std::string path = dir + "/" + name;
  std::ofstream(path) << body;
  return path;
}

const char* kHeader = "{\"format\": \"tdisc-recipes\", \"version\": 1,\n \"rows\": [\n";

std::string refusal(const std::string& path) {
  try {
    parse_recipe_table(test::slurp(path), path);
  } catch (const InputError& e) {
    return e.located();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("each committed row's target runs its recipe with no other flag", "[fast][plan][recipes]") {
  SearchPlan p = plan_search(ask({5, 5, 5}, 93));  // ring ZT by default: the GF2 z3 walk, then the lift
  CHECK(p.recipe == "5x5x5-93");
  CHECK(p.engine == "flip");
  CHECK(p.defaults == nlohmann::json{{"walk_ring", "GF2"}, {"symmetry", "z3"}, {"lift_at_target", true}});
  CHECK(p.recipe_why.find("table row 5x5x5-93 (") == 0);
  CHECK(p.recipe_why.find("recipes.json:") != std::string::npos);
  for (Ring r : {Ring::Z, Ring::Q, Ring::GF2}) CHECK(plan_search(ask({5, 5, 5}, 93, r)).recipe == "5x5x5-93");

  SearchPlan gf2 = plan_search(ask({4, 4, 4}, 47, Ring::GF2));
  CHECK(gf2.recipe == "4x4x4-47-GF2");
  CHECK(gf2.defaults.value("undo_dead_ends", false));
  CHECK(gf2.defaults.value("dead_end_restart", 0) == 100000);
  CHECK(gf2.defaults.value("symmetry", "") == "none");

  SearchPlan six = plan_search(ask({6, 6, 6}, 153));
  CHECK(six.recipe == "6x6x6-153");
  CHECK(six.defaults == nlohmann::json{{"walk_ring", "GF2"}, {"symmetry", "s3"}, {"lift_at_target", true}});

  SearchPlan q48 = plan_search(ask({4, 4, 4}, 48));  // ring Q below the integer rank: the ansatz row
  CHECK(q48.recipe == "4x4x4-48-Q");
  CHECK(q48.engine == "numeric");
  CHECK(q48.defaults.value("ansatz", "").find("ansatz/4x4x4-r48-Q-") != std::string::npos);

  SearchPlan q32 = plan_search(ask({2, 4, 5}, 32, Ring::Q));
  CHECK(q32.recipe == "2x4x5-32-Q");
  CHECK(q32.defaults.value("ansatz", "").find("ansatz/2x4x5-r32-Q-") != std::string::npos);

  SearchPlan l23 = plan_search(ask({3, 3, 3}));
  CHECK(l23.recipe == "3x3x3-23");
  CHECK(l23.defaults == nlohmann::json{{"symmetry", "z3"}});
}

TEST_CASE("a target no row fits runs a portfolio, and says so", "[fast][plan][recipes]") {
  for (auto [f, r] : {std::pair<Format, int>{{3, 4, 5}, 47}, {{5, 5, 5}, 94}, {{4, 4, 4}, 49}}) {
    SearchPlan p = plan_search(ask(f, r));
    CHECK(p.recipe == "portfolio");
    CHECK(p.defaults.empty());
    CHECK(p.recipe_why.find("no row of ") == 0);
  }
  CHECK(plan_search(ask({4, 4, 4}, 47, Ring::Z)).recipe == "portfolio");  // the GF2 row is for GF2 only
  SearchAsk none = ask({5, 5, 5}, 93);
  none.catalogue_dir.clear();  // no catalogue, no table
  CHECK(plan_search(none).recipe == "portfolio");
}

TEST_CASE("explicit choices override the row: shorthands key by key, another engine drops it", "[fast][plan][recipes]") {
  SearchAsk a = ask({5, 5, 5}, 93);
  a.symmetry = "none";  // the shorthand wins over the row's symmetry, the walk ring stays
  SearchPlan p = plan_search(a);
  CHECK(p.recipe == "5x5x5-93");
  CHECK(p.params == nlohmann::json{{"symmetry", "none"}});
  CHECK(p.defaults.value("walk_ring", "") == "GF2");
  SearchAsk numeric = ask({5, 5, 5}, 93);
  numeric.engine = "numeric";  // the row is a flip row
  CHECK(plan_search(numeric).recipe == "portfolio");
  CHECK(plan_search(numeric).defaults.empty());
  SearchAsk flip48 = ask({4, 4, 4}, 48);
  flip48.engine = "flip";
  CHECK(plan_search(flip48).recipe == "portfolio");
  SearchAsk llm = ask({5, 5, 5}, 93);
  llm.llm_endpoint = true;  // an endpoint asks for the LLM engine
  CHECK(plan_search(llm).engine == "llm");
  CHECK(plan_search(llm).recipe == "portfolio");
}

TEST_CASE("rank classes, rings and the device select rows in file order", "[fast][recipes]") {
  CHECK(recipe_rank_matches("best", {4, 4, 4}, 49));
  CHECK_FALSE(recipe_rank_matches("best", {4, 4, 4}, 48));
  CHECK(recipe_rank_matches("best+1", {3, 3, 3}, 24));
  CHECK(recipe_rank_matches("best-2", {4, 4, 4}, 47));
  CHECK(recipe_rank_matches("below-best", {4, 4, 4}, 47));
  CHECK_FALSE(recipe_rank_matches("below-best", {4, 4, 4}, 49));
  CHECK(recipe_rank_matches("153", {6, 6, 6}, 153));
  CHECK_FALSE(recipe_rank_matches("best", {6, 6, 6}, 153));  // no best known rank in the built-in table
  const std::string path = write_table("device.json", std::string(kHeader) +
      "  {\"id\": \"gpu\", \"size\": \"3x3\", \"rank\": \"below-best\", \"rings\": [\"Q\"], \"device\": \"gpu\", \"engine\": \"numeric\", \"why\": \"g\"},\n"
      "  {\"id\": \"any\", \"size\": \"3x3\", \"rank\": \"below-best\", \"rings\": [\"Q\"], \"engine\": \"numeric\", \"params\": {\"clip\": 2}, \"why\": \"a\"}\n]}\n");
  const RecipeTable t = read_recipe_table(path);
  REQUIRE(t.rows.size() == 2);
  CHECK(t.rows[1].line == 4);
  const Target q22{{3, 3, 3}, 22, Ring::Q};
  CHECK(match_recipe(t, q22, true)->id == "gpu");
  CHECK(match_recipe(t, q22, false)->id == "any");
  CHECK(match_recipe(t, {{3, 3, 3}, 22, Ring::Z}, false) == nullptr);
  CHECK(parse_recipe_table(recipe_table_text(t), "again").rows.size() == 2);  // written back, read again
  CHECK(parse_recipe_table(recipe_table_text(t), "again").rows[1].to_json() == t.rows[1].to_json());
}

TEST_CASE("a malformed table or an unknown parameter is refused with its file and line", "[fast][recipes]") {
  const std::string row = "  {\"id\": \"r\", \"size\": \"3x3\", \"rank\": \"best\", \"rings\": [\"ZT\"], \"engine\": \"flip\", \"why\": \"w\"";
  const std::string bad_json = write_table("bad.json", std::string(kHeader) + row + ",\n  oops}\n]}\n");
  CHECK(refusal(bad_json).rfind(bad_json + ":4:", 0) == 0);
  const std::string unknown = write_table("unknown.json", std::string(kHeader) + row + "},\n" + row.substr(0, 11) + "2" +
                                                           row.substr(11) + ", \"params\": {\"plus_mni\": 5}}\n]}\n");
  CHECK(refusal(unknown).rfind(unknown + ":4: recipe r2: params.plus_mni: unknown flip parameter", 0) == 0);
  const std::string range = write_table("range.json", std::string(kHeader) + row + ", \"params\": {\"fresh\": 3}}\n]}\n");
  CHECK(refusal(range).find(range + ":3: recipe r: params.fresh: 3 is out of range") == 0);
  const std::string field = write_table("field.json", std::string(kHeader) + row + ", \"lanes\": 2}\n]}\n");
  CHECK(refusal(field).rfind(field + ":3: unknown recipe field \"lanes\"", 0) == 0);
  const std::string twice = write_table("twice.json", std::string(kHeader) + row + "},\n" + row + "}\n]}\n");
  CHECK(refusal(twice).find("recipe id \"r\" is used twice") != std::string::npos);
  const std::string ring = write_table("ring.json", std::string(kHeader) + row.substr(0, row.find("[\"ZT\"]")) + "[\"R\"], \"engine\": \"flip\", \"why\": \"w\"}\n]}\n");
  CHECK(refusal(ring).rfind(ring + ":3: \"rings\": \"R\" is not a ring", 0) == 0);
  const std::string rank = write_table("rank.json", std::string(kHeader) + "  {\"id\": \"r\", \"size\": \"3x3\", \"rank\": \"best+x\", \"rings\": [\"ZT\"], \"engine\": \"flip\", \"why\": \"w\"}\n]}\n");
  CHECK(refusal(rank).find(":3: \"rank\" must be a rank") != std::string::npos);
  const std::string format = write_table("format.json", "{\"format\": \"tdisc-scheme\", \"rows\": []}\n");
  CHECK(refusal(format).find("not a tdisc recipe table") != std::string::npos);
  // The command line: the same message after "tdisc: ", exit 2, nothing run.
  const test::RunResult r = test::run_tdisc("search --size 3x3 --explain --recipes " + unknown);
  INFO(r.out + r.err);
  CHECK(r.code == 2);
  CHECK(r.err.rfind("tdisc: " + unknown + ":4: recipe r2: params.plus_mni", 0) == 0);
}

TEST_CASE("--explain prints the plan and writes nothing; run.json records the recipe", "[fast][recipes]") {
  const std::string dir = test::temp_dir("explain") + "/run";
  test::RunResult r = test::run_tdisc("search --size 5x5 --rank 93 --ring Z --seed 3 --threads 1 --explain --out " + dir);
  CHECK(r.code == 0);
  CHECK(r.out.find("5x5x5 rank 93 over Z, engine flip, 1 thread") != std::string::npos);
  CHECK(r.out.find("walk_ring=GF2 (table row 5x5x5-93)") != std::string::npos);  // the row's values say so
  CHECK(r.out.find("symmetry=z3 (table row 5x5x5-93)") != std::string::npos);
  CHECK(r.out.find("  recipe: table row 5x5x5-93 (") != std::string::npos);
  CHECK(r.out.find("  device: cpu (1 thread)") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir));
  // --params overrides the row key by key: plus_min is replaced, walk_ring and symmetry stay.
  r = test::run_tdisc("search --size 5x5 --rank 93 --explain --params '{\"plus_min\":7,\"walk_ring\":\"ZT\"}' --out " + dir);
  CHECK(r.out.find("walk_ring=ZT (given)") != std::string::npos);
  CHECK(r.out.find("plus_min=7 (given)") != std::string::npos);
  CHECK(r.out.find("symmetry=z3 (table row 5x5x5-93)") != std::string::npos);
  r = test::run_tdisc("search --size 3x4x5 --rank 47 --explain --out " + dir);
  CHECK(r.out.find("  recipe: no row of ") != std::string::npos);
  // A short run: run.json names the row and why.
  r = test::run_tdisc("search --size 3x3 --seed 1 --threads 1 --time 20s -q --out " + dir);
  CHECK(r.code == 0);
  const nlohmann::json run = nlohmann::json::parse(test::slurp(dir + "/run.json"));
  CHECK(run["recipe"]["id"] == "3x3x3-23");
  CHECK(run["recipe"]["row"]["symmetry"] == "z3");
  CHECK(run["params"]["symmetry"] == "z3");
}

TEST_CASE("recipe promote adds an LLM run's winning recipe with its evidence, and refuses without", "[fast][recipes]") {
  const std::string dir = test::temp_dir("promote");
  const std::string run = dir + "/run";
  std::filesystem::create_directories(run);
  std::ofstream(run + "/run.json") << R"J({"format":"tdisc-run","version":1,"command":["search","--engine","llm"],
    "target":{"size":"3x3x4","rank":29,"ring":"ZT"},"engine":"llm","machine":"testhost, 2 cores","tool":"tdisc 0.1.0 (git abc)"})J";
  auto database = [&](int successes) {
    std::ofstream(run + "/llm-database.json") << R"J({"engine":"llm","database":{"programs":[
      {"id":4,"kind":"recipe","body":{"engine":"flip","params":{"walk_ring":"GF2","plus_min":5000,"pool_size":64,"symmetry":"auto"},
       "budget_seconds":10,"seeds":2,"rationale":"a larger pool"},"score":{"seeds":2,"successes":)J" +
                                                    std::to_string(successes) + R"J(,"mean_time":3.5,"fitness":2}}]}})J";
  };
  const std::string table = dir + "/recipes.json";
  std::ofstream(table) << test::slurp(std::string(TDISC_SOURCE_DIR) + "/algorithms/recipes.json");
  database(0);
  test::RunResult r = test::run_tdisc("recipe promote " + run + " --table " + table);
  CHECK(r.code == 2);
  CHECK(r.err.find("no recipe reached the target (rank 29)") != std::string::npos);
  database(2);
  r = test::run_tdisc("recipe promote " + run + " --table " + table);
  CHECK(r.code == 0);
  const RecipeTable t = read_recipe_table(table);
  REQUIRE(t.rows.size() == 7);
  const RecipeRow& row = t.rows.back();
  CHECK(row.id == "3x3x4-29-ZT-llm4");
  CHECK(row.walk_ring == "GF2");
  CHECK(row.symmetry.empty());                                  // auto is the engine's default
  CHECK(row.params == nlohmann::json{{"pool_size", 64}});        // only what differs from the defaults
  CHECK(row.evidence["hits"] == 2);
  CHECK(row.evidence["machine"] == "testhost, 2 cores");
  SearchAsk a = ask({3, 3, 4}, 29);
  a.recipe_file = table;
  CHECK(plan_search(a).recipe == "3x3x4-29-ZT-llm4");
  r = test::run_tdisc("recipe promote " + run + " --table " + table);  // the same id again
  CHECK(r.code == 1);
  std::filesystem::remove(run + "/llm-database.json");
  r = test::run_tdisc("recipe promote " + run + " --table " + table);
  CHECK(r.code == 2);
  CHECK(r.err.find("only an LLM run keeps the recipes") != std::string::npos);
}

namespace {
std::vector<std::string> lane_names(const SearchPlan& p) {
  std::vector<std::string> out;
  for (const LaneRecipe& l : p.lanes) out.push_back(l.name);
  return out;
}
}  // namespace

TEST_CASE("a portfolio draws recipe lanes from the nearest flip rows, nearest format first", "[fast][plan][recipes]") {
  using V = std::vector<std::string>;
  // 2x3x4 over GF2: the symmetric rows need a square format; the dead-end row (4x4x4, distance 3) is left
  SearchPlan gf2 = plan_search(ask({2, 3, 4}, 20, Ring::GF2));
  CHECK(gf2.recipe == "portfolio");
  CHECK(lane_names(gf2) == V{"4x4x4-47-GF2"});
  CHECK(gf2.lanes[0].params == nlohmann::json{{"symmetry", "none"}, {"undo_dead_ends", true}, {"dead_end_restart", 100000}, {"fresh", 1}});
  CHECK(gf2.recipe_why.find("no row of ") == 0);
  CHECK(gf2.recipe_why.find("nearest rows where threads allow: 4x4x4-47-GF2") != std::string::npos);
  // 4x4:49 over Z: the same format first (the dead-end row, though it lists GF2 only), then the 3x3 and
  // 5x5 rows at distance 3 in file order; the 6x6 row is the fourth, past kPortfolioRecipes
  CHECK(lane_names(plan_search(ask({4, 4, 4}, 49, Ring::Z))) == V{"4x4x4-47-GF2", "5x5x5-93", "3x3x3-23"});
  // 3x3x4:29 over Z: only the plain row fits a non-square format
  CHECK(lane_names(plan_search(ask({3, 3, 4}, 29, Ring::Z))) == V{"4x4x4-47-GF2"});
  // over GF3 no GF2 walk serves: the rows without a walk ring are left
  CHECK(lane_names(plan_search(ask({4, 4, 4}, 49, Ring::GF3))) == V{"4x4x4-47-GF2", "3x3x3-23"});
  // a row that runs, another engine, or no table: no recipe lanes
  CHECK(plan_search(ask({5, 5, 5}, 93)).lanes.empty());
  SearchAsk numeric = ask({4, 4, 4}, 49, Ring::Z);
  numeric.engine = "numeric";
  CHECK(plan_search(numeric).lanes.empty());
  SearchAsk none = ask({4, 4, 4}, 49, Ring::Z);
  none.catalogue_dir.clear();
  CHECK(plan_search(none).lanes.empty());
  // deterministic: the same table and target give the same lanes
  CHECK(plan_search(ask({4, 4, 4}, 49, Ring::Z)).lanes == plan_search(ask({4, 4, 4}, 49, Ring::Z)).lanes);
}

TEST_CASE("--explain lists each lane with its recipe and threads; an explicit key wins in every lane", "[fast][recipes]") {
  const std::string dir = test::temp_dir("explain-lanes") + "/run";
  test::RunResult r = test::run_tdisc("search --size 2x3x4 --rank 20 --ring GF2 --threads 3 --seed 1 --explain --params "
                                      "'{\"dead_end_restart\":7}' --out " + dir);
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  const size_t own = r.out.find("  params GF2 none default (2 threads): ");
  const size_t lane = r.out.find("  params GF2 none 4x4x4-47-GF2 (1 thread): ");
  REQUIRE(own != std::string::npos);
  REQUIRE(lane != std::string::npos);
  const std::string own_line = r.out.substr(own, r.out.find('\n', own) - own);
  const std::string lane_line = r.out.substr(lane, r.out.find('\n', lane) - lane);
  CHECK(own_line.find("dead_end_restart=7 (given)") != std::string::npos);
  CHECK(lane_line.find("dead_end_restart=7 (given)") != std::string::npos);  // over the row's 100000
  CHECK(own_line.find("undo_dead_ends") == std::string::npos);
  CHECK(lane_line.find("undo_dead_ends=true (derived: lane 4x4x4-47-GF2)") != std::string::npos);
  CHECK(lane_line.find("fresh=1 (derived: lane 4x4x4-47-GF2)") != std::string::npos);
  CHECK(r.out.find("with the recipes of the nearest rows where threads allow: 4x4x4-47-GF2") != std::string::npos);
  // two threads: the engine's own lane keeps both, no recipe lane
  r = test::run_tdisc("search --size 2x3x4 --rank 20 --ring GF2 --threads 2 --seed 1 --explain --out " + dir);
  CHECK(r.code == 0);
  CHECK(r.out.find("4x4x4-47-GF2 (1 thread)") == std::string::npos);
}

TEST_CASE("a table whose lane recipe names an unknown parameter is refused with its file and line", "[fast][recipes]") {
  // the row serves 4x4:47 only, but a 2x3x4 portfolio would draw it as a lane: refused before anything runs
  const std::string path = write_table("lane-unknown.json", std::string(kHeader) +
      "  {\"id\": \"dead\", \"size\": \"4x4\", \"rank\": \"47\", \"rings\": [\"GF2\"], \"engine\": \"flip\", \"symmetry\": \"none\",\n"
      "   \"params\": {\"undo_dead_end\": true}, \"why\": \"w\"}\n]}\n");
  const test::RunResult r = test::run_tdisc("search --size 2x3x4 --rank 20 --ring GF2 --explain --recipes " + path);
  INFO(r.out + r.err);
  CHECK(r.code == 2);
  CHECK(r.err.rfind("tdisc: " + path + ":4: recipe dead: params.undo_dead_end: unknown flip parameter", 0) == 0);
}
