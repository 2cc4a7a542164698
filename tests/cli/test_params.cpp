// The parameter tables: conversion and checks of one value, the effective settings, and every table
// of every command and engine (no name with two meanings, every default inside its range).
#include <catch2/catch.hpp>
#include <cstdlib>
#include <map>
#include <set>

#include "base/error.hpp"
#include "base/params/help.hpp"
#include "base/params/settings.hpp"
#include "src/cli/options.hpp"
#include "src/cli/tables.hpp"
#include "src/llm/engine.hpp"
#include "tests/support.hpp"

using namespace tdisc;
using params::Kind;

namespace {

const params::Table& toy() {
  static const params::Table t{
      "toy", "tdisc toy [--threads N]", "A table for the tests.",
      {params::integer("threads", 0, 0, 64, "threads"), params::duration("time", "10m", 0, 3600, "budget"),
       params::seed("seed", nullptr, "seed"), params::choice("ring", nullptr, {"ZT", "GF2"}, "ring"),
       params::flag("quiet,q", "quiet"), params::number("adopt", 0.5, 0, 1, "chance")},
      "", "TDISC_TOY_"};
  return t;
}

std::string usage_message(const params::Param& p, const std::string& text) {
  try {
    params::from_text(p, text, "--" + p.long_name());
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a value out of range is refused with the range, never clamped", "[fast][params]") {
  const auto& t = toy();
  CHECK(params::from_text(*t.find("threads"), "64", "--threads") == 64);
  CHECK(usage_message(*t.find("threads"), "65") == "--threads: 65 is out of range [0..64]");
  CHECK(usage_message(*t.find("threads"), "-1") == "--threads: -1 is out of range [0..64]");
  CHECK(usage_message(*t.find("threads"), "99999999999999999999") == "--threads: 99999999999999999999 is out of range [0..64]");
  CHECK(usage_message(*t.find("threads"), "2x") == "--threads: \"2x\" is not an integer");
  CHECK(usage_message(*t.find("adopt"), "1.5") == "--adopt: 1.5 is out of range [0..1]");
  CHECK(usage_message(*t.find("time"), "2h") == "--time: 2h is out of range [0s..3600s]");
  CHECK(params::from_text(*t.find("time"), "90s", "--time") == 90.0);
  CHECK(params::from_text(*t.find("time"), "1.5m", "--time") == 90.0);
  CHECK(usage_message(*t.find("time"), "soon").find("is not a duration") != std::string::npos);
}

TEST_CASE("a seed takes all of 0..2^64-1 and refuses more digits instead of clamping", "[fast][params]") {
  const params::Param& s = *toy().find("seed");
  CHECK(params::from_text(s, "18446744073709551615", "--seed").get<unsigned long long>() == 18446744073709551615ULL);
  CHECK(usage_message(s, "18446744073709551616").find("is beyond 2^64") != std::string::npos);
  CHECK(usage_message(s, "-3") == "--seed: \"-3\" is not a non-negative integer");
  CHECK(params::check_value(s, nlohmann::json(-3), "seed") != "");
}

TEST_CASE("choices match in any case and by alias, and are stored as the table spells them", "[fast][params]") {
  params::Param ring = params::with_aliases(*toy().find("ring"), {{"MOD2", "GF2"}});
  CHECK(params::from_text(ring, "gf2", "--ring") == "GF2");
  CHECK(params::from_text(ring, "mod2", "--ring") == "GF2");
  CHECK(usage_message(ring, "FOO") == "--ring: unknown ring \"FOO\" (known: ZT, GF2)");
}

TEST_CASE("a JSON object is checked key by key with one message per problem", "[fast][params]") {
  auto problems = params::check_object(toy(), {{"threads", 2.5}, {"adopt", 7}, {"colour", 1}, {"ring", "GF2"}}, "params.");
  REQUIRE(problems.size() == 3);
  CHECK(problems[0] == "params.adopt: 7 is out of range [0..1]");
  CHECK(problems[1].rfind("params.colour: unknown toy parameter (known: threads, time, seed, ring, quiet, adopt)", 0) == 0);
  CHECK(problems[2] == "params.threads: expected an integer, got 2.5");
  auto m = params::merged(toy(), {{"time", "2m"}});
  CHECK(m["time"] == 120.0);
  CHECK(m["threads"] == 0);
}

TEST_CASE("a setting comes from the flag, else the environment, else the default, and says which", "[fast][params]") {
  ::setenv("TDISC_TOY_THREADS", "3", 1);
  ::setenv("TDISC_TOY_TIME", "1m", 1);
  auto s = cli::parse_options(toy(), {"--time", "30s", "-q"});
  ::unsetenv("TDISC_TOY_THREADS");
  ::unsetenv("TDISC_TOY_TIME");
  CHECK(s.integer("threads") == 3);
  CHECK(s.origin("threads") == "env TDISC_TOY_THREADS");
  CHECK(s.number("time") == 30.0);
  CHECK(s.origin("time") == "flag");
  CHECK(s.flag("quiet"));
  CHECK_FALSE(s.has("seed"));
  CHECK(s.effective() == "threads=3 (env TDISC_TOY_THREADS) time=30s quiet=true adopt=0.5 (default)");
  CHECK(s.to_json()["threads"] == nlohmann::json({{"value", 3}, {"from", "env TDISC_TOY_THREADS"}}));
  ::setenv("TDISC_TOY_THREADS", "300", 1);
  CHECK_THROWS_WITH(cli::parse_options(toy(), {}), Catch::Contains("TDISC_TOY_THREADS (--threads): 300 is out of range"));
  ::unsetenv("TDISC_TOY_THREADS");
}

namespace {

std::vector<const params::Table*> every_table() {
  llm::register_llm_engine();
  auto all = cli::command_tables();
  for (auto* t : cli::engine_tables()) all.push_back(t);
  return all;
}

bool same_meaning(const params::Param& a, const params::Param& b) {
  return a.kind == b.kind && a.fallback == b.fallback && a.help == b.help;
}

}  // namespace

TEST_CASE("every default of every table lies inside its range and choices", "[fast][params]") {
  for (const params::Table* t : every_table()) {
    for (const params::Param& p : t->params) {
      INFO(t->name << " " << p.name);
      CHECK(!p.help.empty());
      if (p.kind == Kind::Integer || p.kind == Kind::Number || p.kind == Kind::Duration) CHECK(p.lo <= p.hi);
      if (p.kind == Kind::Choice) CHECK(!p.choices.empty());
      if (p.kind == Kind::Flag) CHECK(p.fallback.is_null());
      if (!p.fallback.is_null()) CHECK(params::check_value(p, p.fallback, p.name) == "");
    }
  }
}

TEST_CASE("no flag is given twice in a table, and no environment name has two meanings", "[fast][params]") {
  std::map<std::string, std::pair<const params::Table*, const params::Param*>> env_owner;
  for (const params::Table* t : every_table()) {
    std::set<std::string> names;
    std::set<char> shorts;
    for (const params::Param& p : t->params) {
      INFO(t->name << " " << p.name);
      CHECK(names.insert(p.long_name()).second);
      if (p.short_name()) CHECK(shorts.insert(p.short_name()).second);
      CHECK(p.long_name() != "help");
      const std::string env = t->env_of(p);
      if (env.empty()) continue;
      auto [it, fresh] = env_owner.try_emplace(env, t, &p);
      if (!fresh) {
        INFO(env << " is also " << it->second.first->name << " --" << it->second.second->name);
        CHECK(same_meaning(*it->second.second, p));
      }
    }
  }
  CHECK(env_owner.count("TDISC_CATALOG_DIR") == 1);  // the catalogue folder, one meaning everywhere
}

TEST_CASE("docs/parameters.md is what 'tdisc help --markdown' generates", "[fast][params]") {
  llm::register_llm_engine();
  const std::string want = cli::parameters_markdown();
  const std::string have = test::slurp(test::source_path("docs/parameters.md"));
  INFO("docs/parameters.md is stale: run 'build/ci/tdisc help --markdown > docs/parameters.md'");
  CHECK(have == want);
  auto r = test::run_tdisc("help --markdown");
  CHECK(r.code == 0);
  CHECK(r.out == want);
}

TEST_CASE("search --help-params lists each engine's parameters with default and range", "[fast][params]") {
  auto r = test::run_tdisc("search --help-params --engine numeric");
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK(r.out.find("numeric parameters") != std::string::npos);
  CHECK(r.out.find("round_fraction") != std::string::npos);
  CHECK(r.out.find("[default: 0.08] [1e-06..1]") != std::string::npos);
  CHECK(r.out.find("flip parameters") == std::string::npos);
}

namespace {

// The message parsing `flags` on the search table throws ("" when they parse).
std::string search_refuses(const std::vector<std::string>& flags) {
  try {
    cli::parse_options(cli::search_table(), flags);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("search's --size, --ring, --time and --device are table kinds with one message each", "[fast][params]") {
  CHECK(search_refuses({"--size", "3y3"}) == "--size: \"3y3\" is not a format (e.g. 3x3, 2x3x4); every dimension must be ≥ 1");
  CHECK(search_refuses({"--size", "0x3"}).find("is not a format") != std::string::npos);
  CHECK(search_refuses({"--size", "2x3x4"}).empty());
  CHECK(search_refuses({"--ring", "R7"}).find("--ring: unknown ring \"R7\"") == 0);
  const params::Settings f2 = cli::parse_options(cli::search_table(), {"--ring", "F2"});  // the aliases of verify and catalog
  CHECK(f2.text("ring") == "GF2");
  CHECK(search_refuses({"--time", "0"}) == "--time: \"0\" is no budget; give a positive duration, or unlimited");
  CHECK(search_refuses({"--time", "31d"}) == "--time: \"31d\" is more than 30 days; give a shorter budget, or unlimited");
  CHECK(search_refuses({"--time", "soon"}) == "--time: \"soon\" is not a duration (e.g. 90s, 10m, 2h) or unlimited");
  const params::Settings unlimited = cli::parse_options(cli::search_table(), {"--time", "unlimited"});
  CHECK(unlimited.number("time") == 0);
  CHECK(unlimited.effective().find("time=unlimited ") != std::string::npos);
  CHECK(cli::parse_options(cli::search_table(), {}).number("time") == 600);  // 10m, shown as given
  CHECK(search_refuses({"--device", "gpu"}).find("--device: unknown device \"gpu\"") == 0);
  CHECK(search_refuses({"--device", "cuda:1024"}).find("unknown device") != std::string::npos);
  CHECK(search_refuses({"--device", "cuda:x"}).find("unknown device") != std::string::npos);
  CHECK(search_refuses({"--device", "cuda:3"}).empty());
  CHECK(params::cuda_index("cuda:3") == 3);
  CHECK(params::cuda_index("cuda") == 0);
  CHECK(!params::cuda_index("cpu"));
}
