// Parameters bound through the table (base/params/bind.hpp): a row fills its struct member,
// the struct's initialiser is the row's default, a bad value or key is refused with where it came
// from, and Engine::resolve says of each value whether it was given, a default, or derived by a rule.
#include <catch2/catch.hpp>
#include <fstream>

#include "base/error.hpp"
#include "src/llm/engine.hpp"
#include "src/llm/proposer/settings.hpp"
#include "src/search/engine.hpp"
#include "src/search/flip/lanes.hpp"
#include "src/search/flip/meta_params.hpp"
#include "src/search/flip/params.hpp"
#include "src/search/numeric/params.hpp"
#include "tests/support.hpp"

using namespace tdisc;
using namespace tdisc::search;

namespace {

std::string bind_error(const nlohmann::json& given, const std::string& where) {
  try {
    params::bind<flip::FlipParams>(flip::flip_table(), given, where);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

EngineConfig config(Format f, int rank, Ring ring, nlohmann::json params) {
  EngineConfig c;
  c.target = {f, rank, ring};
  c.params = std::move(params);
  return c;
}

const params::Settings& only(const std::vector<ResolvedParams>& blocks) {
  REQUIRE(blocks.size() == 1);
  return blocks.front().settings;
}

}  // namespace

TEST_CASE("a row fills its member, and the struct's initialiser is the row's default", "[fast][params]") {
  const auto b = params::bind<flip::FlipParams>(flip::flip_table(),
                                                {{"plus_min", 77}, {"pick", "factor"}, {"symmetry", "s3"}, {"pool_size", 5}}, "");
  CHECK(b.value.walk.plus_min == 77);
  CHECK(b.value.walk.pick == flip::Pick::Factor);
  CHECK(b.value.symmetry == flip::Symmetry::S3);
  CHECK(b.value.pool_size == 5);
  CHECK(b.value.walk.plus_max == flip::WalkParams{}.plus_max);  // not given: the initialiser's
  CHECK(flip::flip_table().find("plus_max")->fallback == flip::WalkParams{}.plus_max);
  CHECK(flip::flip_table().find("pick")->fallback == "pair");
  // numeric: one struct default per row, "auto" included
  const auto n = numeric::resolve_params(nlohmann::json::object(), {{2, 2, 2}, 7, Ring::ZT});
  CHECK(numeric::numeric_table().find("method")->fallback == "auto");
  CHECK(numeric::numeric_table().find("gpu_seed_threads")->fallback == "512");
  CHECK(n.value.gpu_seed_threads == 512);
  CHECK(n.value.method == numeric::Method::Als);
}

TEST_CASE("every row of every engine table is bound to its engine's struct", "[fast][params]") {
  // bind refuses (TDISC_REQUIRE) a table with a row that fills nothing, or fills another struct
  CHECK_NOTHROW(params::bind<flip::FlipParams>(flip::flip_table(), nlohmann::json::object(), ""));
  CHECK_NOTHROW(params::bind<numeric::Params>(numeric::numeric_table(), nlohmann::json::object(), ""));
  CHECK_NOTHROW(params::bind<llm::LlmSettings>(llm::llm_table(), nlohmann::json::object(), ""));
  const auto meta = flip::bind_meta_params({{"catalogue", "algorithms"}, {"meta_slice", 2.5}, {"plus_min", 9}});
  CHECK(meta.value.catalogue == "algorithms");
  CHECK(meta.value.slice == 2.5);
  CHECK(meta.settings.origin("meta_detour") == "default");
  CHECK_THROWS_AS(params::bind<flip::MetaParams>(flip::flip_table(), nlohmann::json::object(), ""), ContractError);  // the wrong struct
  const auto l = llm::resolve_llm_settings({{"llm", {{"url", "u"}, {"model", "a:1,b:3"}, {"proposals", "recipe,scheme"}}}});
  CHECK(l.value.proposals == std::vector<std::string>{"recipe", "scheme"});
  CHECK(l.value.models.size() == 2);
  CHECK(llm::resolve_llm_settings({{"llm", {{"url", "u"}, {"model", "m"}}}}).value.proposals == std::vector<std::string>{"recipe"});
}

TEST_CASE("binding a value of the wrong type names where it came from and the key", "[fast][params]") {
  CHECK(bind_error({{"plus_min", "many"}}, "recipe.json") == "recipe.json: params.plus_min: expected an integer, got \"many\"");
  CHECK(bind_error({{"symmetry", "z4"}}, "--params") == "--params: params.symmetry: expected one of auto, none, z3, s3, got \"z4\"");
  CHECK(bind_error({{"fresh", 2}}, "x.json") == "x.json: params.fresh: 2 is out of range [0..1]");
  // through the command line: a file given as --params @FILE is named in the message
  const std::string dir = test::temp_dir("bind");
  std::ofstream(dir + "/p.json") << R"({"plus_min": "many"})";
  auto r = test::run_tdisc("search --size 2x2 --rank 7 --ring ZT --engine flip --time 1s --params @" + dir + "/p.json --out " + dir + "/run");
  CHECK(r.code == 1);
  CHECK(r.err.find(dir + "/p.json: params.plus_min: expected an integer, got \"many\"") != std::string::npos);
}

TEST_CASE("binding an unknown key is refused, with the known ones", "[fast][params]") {
  const std::string m = bind_error({{"plus_mni", 3}}, "");
  CHECK(m.rfind("params.plus_mni: unknown flip parameter (known: walk_ring, plus_min,", 0) == 0);
  CHECK_THROWS_AS(llm::bind_llm_settings({{"llm", {{"modle", "m"}}}}), UsageError);
}

TEST_CASE("resolve tells given, default and derived values apart, with the rule", "[fast][params]") {
  auto flip_engine = make_engine("flip");
  // 5x5 z3: the anchor policy sets restart_after and the plus period, unless given
  const auto blocks = flip_engine->resolve(config({5, 5, 5}, 93, Ring::GF2, {{"symmetry", "z3"}, {"plus_min", 100}, {"plus_max", 200}}));
  const params::Settings& s = only(blocks);
  CHECK(blocks.front().walk == "GF2 z3");
  CHECK(s.origin("plus_min") == "given");
  CHECK(s.value("plus_min") == 100);
  CHECK(s.origin("batch") == "default");
  CHECK(s.origin("restart_after") == "derived: anchor policy");
  CHECK(s.value("restart_after") == 33333333);
  CHECK(s.origin("fresh") == "derived: symmetric walk");
  CHECK(s.origin("plus_diff") == "derived: anchor plus limit");
  CHECK(s.origin("walk_ring") == "derived: lane");
  // the same rows given explicitly stay given
  const auto mine = flip_engine->resolve(config({5, 5, 5}, 93, Ring::GF2, {{"symmetry", "z3"}, {"restart_after", 1000}}));
  CHECK(only(mine).origin("restart_after") == "given");
  CHECK(only(mine).value("restart_after") == 1000);
  // a two-lane search resolves each lane on its own
  EngineConfig two = config({3, 3, 3}, 23, Ring::Z, nlohmann::json::object());
  two.threads = 2;
  const auto lanes = flip_engine->resolve(two);
  REQUIRE(lanes.size() == 2);
  CHECK(lanes[0].walk == "ZT z3");
  CHECK(lanes[0].settings.origin("fresh") == "derived: symmetric walk");
  CHECK(lanes[1].walk == "GF2 none");
  CHECK(lanes[1].settings.origin("fresh") == "default");
  // numeric: the auto lattice and the size rule
  auto numeric_engine = make_engine("numeric");
  const auto n = numeric_engine->resolve(config({2, 2, 2}, 7, Ring::ZT, {{"clip", 3}}));
  CHECK(only(n).origin("clip") == "given");
  CHECK(only(n).origin("lattice") == "derived: auto lattice");
  CHECK(only(n).value("lattice") == "ternary");
  CHECK(only(n).origin("als_iterations").rfind("derived: by size", 0) == 0);
  CHECK(only(n).value("als_iterations") == 3000);
  CHECK(only(n).origin("reg_end") == "default");
  const auto given = numeric_engine->resolve(config({2, 2, 2}, 7, Ring::ZT, {{"lattice", "half"}}));
  CHECK(only(given).origin("lattice") == "given");
  CHECK(only(given).origin("field") == "derived: the lattice's field");
}

TEST_CASE("bind_params binds once: resolve and run read that value, and only for those parameters", "[fast][params]") {
  auto flip_engine = make_engine("flip");
  const nlohmann::json given = {{"plus_min", 100}, {"plus_max", 200}};
  const long before = params::bind_count();
  flip_engine->bind_params(given, "--params");
  CHECK(params::bind_count() - before == 1);
  EngineConfig two = config({3, 3, 3}, 23, Ring::Z, given);
  two.threads = 2;
  const auto lanes = flip_engine->resolve(two);
  REQUIRE(lanes.size() == 2);
  CHECK(lanes[1].settings.value("plus_min") == 100);
  CHECK(params::bind_count() - before == 1);  // the lanes are typed copies
  // other parameters than those bound (or no bind_params): resolve binds config.params itself, once
  two.params["plus_min"] = 101;
  CHECK(flip_engine->resolve(two)[1].settings.value("plus_min") == 101);
  CHECK(params::bind_count() - before == 2);
  CHECK(make_engine("flip")->resolve(two)[0].settings.value("plus_min") == 101);
  CHECK(params::bind_count() - before == 3);
  try {
    make_engine("flip")->bind_params({{"plus_min", 300}, {"plus_max", 200}, {"diagonal", "x"}}, "x.json");
    FAIL("accepted");
  } catch (const UsageError& e) {
    CHECK(std::string(e.what()) == "x.json: params.diagonal: must be \"auto\" or a partition of the diagonal such as \"0,1|2\"");
  }
}

TEST_CASE("search prints the resolved parameters after its settings and stores them in run.json", "[fast][params]") {
  const std::string dir = test::temp_dir("resolved") + "/run";
  auto r = test::run_tdisc("search --size 2x2 --rank 7 --ring ZT --engine flip --symmetry none --threads 1 --seed 3 --time 20s "
                           "--params '{\"plus_min\":300,\"plus_max\":900}' -q --out " + dir);
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  const auto settings = r.out.find("  settings: "), params = r.out.find("  params: ");
  REQUIRE(params != std::string::npos);
  CHECK(settings < params);
  CHECK(r.out.find("plus_min=300 (given) plus_max=900 (given)") != std::string::npos);
  CHECK(r.out.find("at their defaults") != std::string::npos);
  const nlohmann::json run = nlohmann::json::parse(test::slurp(dir + "/run.json"));
  const nlohmann::json& p = run.at("resolved_params").at(0).at("params");
  CHECK(p.at("plus_min") == nlohmann::json{{"value", 300}, {"from", "given"}});
  CHECK(p.at("batch").at("from") == "default");
}

TEST_CASE("the meta and llm engines bind once in bind_params; resolve reads that value", "[fast][params]") {
  auto meta = make_engine("meta");
  REQUIRE(meta);
  const nlohmann::json given = {{"meta_slice", 2.5}, {"plus_min", 100}, {"plus_max", 200}};
  long before = params::bind_count();
  meta->bind_params(given, "--params");
  CHECK(params::bind_count() - before == 2);  // its own rows and the walk's flip rows, one bind each
  EngineConfig c = config({3, 3, 3}, 23, Ring::ZT, given);
  c.catalogue_dir = "algorithms";
  const auto blocks = meta->resolve(c);
  REQUIRE(blocks.size() == 2);
  CHECK(blocks[0].settings.value("meta_slice") == 2.5);
  CHECK(blocks[0].settings.origin("catalogue") == "derived: the run's catalogue");
  CHECK(blocks[1].settings.value("plus_min") == 100);
  CHECK(params::bind_count() - before == 2);
  c.params["meta_slice"] = 3.5;  // other parameters: bound again, once per table
  CHECK(meta->resolve(c)[0].settings.value("meta_slice") == 3.5);
  CHECK(params::bind_count() - before == 4);
  try {
    make_engine("meta")->bind_params({{"symmetry", "z3"}}, "r.json");
    FAIL("accepted");
  } catch (const UsageError& e) {
    CHECK(std::string(e.what()).find("r.json: params.symmetry: z3 walks start from symmetric schemes") == 0);
  }

  llm::register_llm_engine();
  auto llm_engine = make_engine("llm");
  REQUIRE(llm_engine);
  const nlohmann::json asked = {{"llm", {{"url", "http://127.0.0.1:9/v1"}, {"model", "m:1"}, {"max_calls", 3}}}};
  before = params::bind_count();
  llm_engine->bind_params(asked, "--params");
  CHECK(params::bind_count() - before == 1);
  const auto settings = llm_engine->resolve(config({2, 2, 2}, 7, Ring::ZT, asked));
  CHECK(only(settings).value("max_calls") == 3);
  CHECK(params::bind_count() - before == 1);
  try {
    make_engine("llm")->bind_params({{"llm", {{"url", "http://127.0.0.1:9/v1"}, {"model", "m:1"}, {"proposals", "poem"}}}}, "r.json");
    FAIL("accepted");
  } catch (const UsageError& e) {
    CHECK(std::string(e.what()) == "r.json: llm.proposals: \"poem\" is not \"recipe\" or \"scheme\"");
  }
}
