// Recipes and direct scheme proposals: versioned validation with precise messages, defaults from
// the engine, engine-specific ranges delegated to validate_params, edits applied to a parent.
#include <catch2/catch.hpp>

#include "tests/llm/null_reporter.hpp"

#include "decomposition/native.hpp"
#include "src/llm/evaluator.hpp"
#include "src/llm/recipe.hpp"
#include "tests/llm/harness.hpp"
#include "tests/support.hpp"
#include "verifier/float_residual.hpp"
#include "verifier/verify.hpp"

using namespace tdisc;
using namespace tdisc::llm;
using nlohmann::json;

namespace {

ProposalRules toy_rules() {
  test::register_toy_engine();
  ProposalRules r;
  r.target = {Format{2, 2, 2}, 7, Ring::ZT};
  r.engines = {"toy"};
  r.kinds = {"recipe", "scheme"};
  r.max_budget_seconds = 5;
  r.max_seeds = 3;
  return r;
}

bool has_error(const ProposalCheck& c, const std::string& text) {
  for (const auto& e : c.errors)
    if (e == text) return true;
  return false;
}

}  // namespace

TEST_CASE("a good recipe merges over the engine's defaults", "[fast][llm][recipe]") {
  auto c = check_proposal(json::parse(R"({"version":1,"kind":"recipe","engine":"toy","params":{"delay_ms":50},
                                         "budget_seconds":2,"seeds":2,"rationale":"faster"})"), toy_rules());
  REQUIRE(c.proposal);
  CHECK(c.proposal->recipe.params["delay_ms"] == 50);
  CHECK(c.proposal->recipe.params["restarts"] == 1);  // default kept
  CHECK(c.proposal->recipe.seeds == 2);
  CHECK(c.proposal->recipe.budget_seconds == 2.0);
  CHECK(cell_of(*c.proposal) == "toy/ZT");
  CHECK(default_recipe("toy", 3).params == json::parse(R"({"delay_ms":400,"lattice":"ZT","restarts":1,"noise":0.1})"));
}

TEST_CASE("recipe errors are precise", "[fast][llm][recipe]") {
  auto rules = toy_rules();
  auto bad_version = check_proposal(json::parse(R"({"version":2,"engine":"toy"})"), rules);
  CHECK(has_error(bad_version, "version: unsupported version 2 (this tdisc reads version 1)"));
  auto unknown_engine = check_proposal(json::parse(R"({"version":1,"engine":"warp"})"), rules);
  CHECK(has_error(unknown_engine, "recipe.engine: \"warp\" is not available (one of: toy)"));
  auto wrong = check_proposal(json::parse(R"({"version":1,"engine":"toy","params":{"delay_ms":"fast","speed":3,"noise":1}})"), rules);
  CHECK(has_error(wrong, "recipe.params.delay_ms: must be an integer, got \"fast\""));
  CHECK(has_error(wrong, "recipe.params.speed: unknown parameter of engine toy (known: delay_ms, lattice, noise, restarts)"));
  CHECK(wrong.errors.size() == 2);  // noise:1 is an integer where a real is expected: accepted
  auto range = check_proposal(json::parse(R"({"version":1,"engine":"toy","params":{"delay_ms":99999,"restarts":0}})"), rules);
  CHECK(has_error(range, "recipe.params: delay_ms: 99999 is out of range [0, 5000]"));
  CHECK(has_error(range, "recipe.params: restarts: 0 is out of range [1, 10]"));
  auto budget = check_proposal(json::parse(R"({"version":1,"engine":"toy","budget_seconds":600,"seeds":0})"), rules);
  CHECK(has_error(budget, "recipe.budget_seconds: 600 is out of range (0, 5.0]"));
  CHECK(has_error(budget, "recipe.seeds: 0 is out of range [1, 3]"));
  auto kind = check_proposal(json::parse(R"({"version":1,"kind":"poem"})"), rules);
  CHECK(has_error(kind, "kind: \"poem\" is not accepted here (accepted: recipe, scheme)"));
}

TEST_CASE("the strict schema lists every property and forbids extras", "[fast][llm][recipe]") {
  toy_rules();
  json s = recipe_schema({"toy"});
  CHECK(s["additionalProperties"] == false);
  CHECK(s["required"].size() == s["properties"].size());
  CHECK(s["properties"]["params"]["properties"]["delay_ms"]["type"] == "integer");
  CHECK(s["properties"]["params"]["properties"]["noise"]["type"] == "number");
  CHECK(s["properties"]["params"]["required"].size() == 4);
  json sch = scheme_schema();
  CHECK(sch["required"].size() == sch["properties"].size());
}

TEST_CASE("direct schemes: factors and edits are checked, applied and verified exactly", "[fast][llm][scheme]") {
  auto rules = toy_rules();
  Scheme strassen = test::strassen();
  json native = json::parse(native_text(strassen));
  SECTION("factors") {
    json j = {{"version", 1}, {"kind", "scheme"}, {"mode", "factors"}, {"u", native["u"]}, {"v", native["v"]}, {"w", native["w"]}};
    auto c = check_proposal(j, rules);
    REQUIRE(c.proposal);
    CHECK(verify(*c.proposal->scheme, Ring::ZT).valid);
    CHECK(c.proposal->scheme->rank() == 7);
    j["u"][2] = {"1", "0", "x", "1"};
    j["v"][0] = {"1", "0"};
    auto bad = check_proposal(j, rules);
    CHECK(has_error(bad, "scheme.u[2][2]: \"x\" is not a coefficient (\"1\", \"-1/2\", \"1+i\")"));
    CHECK(has_error(bad, "scheme.v[0]: has 2 coefficients, expected 4"));
  }
  SECTION("edits on a parent: drop one of Strassen's terms, then put it back with add") {
    rules.parent = &strassen;
    json drop = {{"version", 1}, {"kind", "scheme"}, {"mode", "edits"}, {"edits", {{{"op", "drop"}, {"term", 6}}}}};
    auto c = check_proposal(drop, rules);
    REQUIRE(c.proposal);
    CHECK(c.proposal->scheme->rank() == 6);
    CHECK(!verify(*c.proposal->scheme, Ring::ZT).valid);
    CHECK(brent_residual(*c.proposal->scheme) > 0);
    json back = drop;
    back["edits"].push_back({{"op", "add"}, {"u", native["u"][6]}, {"v", native["v"][6]}, {"w", native["w"][6]}});
    auto c2 = check_proposal(back, rules);
    REQUIRE(c2.proposal);
    CHECK(verify(*c2.proposal->scheme, Ring::ZT).valid);
    CHECK(brent_residual(*c2.proposal->scheme) == 0);
    json out_of_range = {{"version", 1}, {"kind", "scheme"}, {"mode", "edits"}, {"edits", {{{"op", "replace"}, {"term", 9}}}}};
    CHECK(has_error(check_proposal(out_of_range, rules), "scheme.edits[0].term: must be a term number in [0, 6]"));
  }
  SECTION("edits without a parent") {
    json j = {{"version", 1}, {"kind", "scheme"}, {"mode", "edits"}, {"edits", json::array()}};
    CHECK(has_error(check_proposal(j, rules), "scheme.mode: \"edits\" needs a parent scheme, and there is none yet"));
  }
}

namespace {
class CountingReporter : public test::NullReporter {
public:
  bool offer(const Scheme& s, const std::string&) override { return verify(s, Ring::Q).valid && ++valid > 0; }
  int valid = 0;
};
}  // namespace

TEST_CASE("a near-miss scheme is handed to the numeric engine and repaired", "[fast][llm][scheme]") {
  REQUIRE(search::make_engine("numeric"));
  Scheme s = test::strassen();
  s.u(0, 0) = 0;  // 4 of 64 Brent equations fail
  EvalContext ctx;
  ctx.target = {Format{2, 2, 2}, 7, Ring::Q};
  ctx.seed = 11;
  CountingReporter outer;
  Evaluation ev = evaluate_scheme(s, ctx, outer, 20);
  INFO(ev.score.note);
  CHECK(ev.score.note.find("invalid: 4 of 64 Brent equations fail") == 0);
  CHECK(ev.score.note.find("handed to numeric repair: reached rank 7") != std::string::npos);
  REQUIRE(ev.best);
  CHECK(verify(*ev.best, Ring::Q).valid);
  CHECK(ev.best->rank() == 7);
  CHECK(outer.valid >= 1);
}
