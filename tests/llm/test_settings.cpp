// Settings of the llm engine: weighted model lists (with Ollama-style tags) and the environment.
#include <catch2/catch.hpp>

#include "src/llm/proposer/settings.hpp"

using namespace tdisc::llm;

TEST_CASE("model lists with weights, and names that contain colons", "[fast][llm][settings]") {
  auto m = parse_models("a:0.8,b:0.2");
  REQUIRE(m.size() == 2);
  CHECK(m[0].name == "a");
  CHECK(m[0].weight == 0.8);
  CHECK(m[1].weight == 0.2);
  auto tag = parse_models("qwen2.5-coder:7b");
  REQUIRE(tag.size() == 1);
  CHECK(tag[0].name == "qwen2.5-coder:7b");
  CHECK(tag[0].weight == 1);
  auto both = parse_models("llama3.1:8b:3,gpt-4o-mini");
  REQUIRE(both.size() == 2);
  CHECK(both[0].name == "llama3.1:8b");
  CHECK(both[0].weight == 3);
  CHECK(parse_models("a:0").empty());
  CHECK(parse_models("a,,b").empty());
  CHECK(parse_models(":2").empty());
}

TEST_CASE("settings come from params['llm'], null meaning unset", "[fast][llm][settings]") {
  nlohmann::json p = {{"llm", {{"url", "http://x/v1"}, {"model", "m"}, {"max_calls", 7}, {"max_tokens", nullptr},
                               {"proposals", "recipe,scheme"}}}};
  CHECK(validate_llm_params(p).empty());
  LlmSettings s = read_llm_settings(p);
  CHECK(s.url == "http://x/v1");
  CHECK(s.max_calls == 7);
  CHECK(s.max_tokens == 0);
  CHECK(s.proposals == std::vector<std::string>{"recipe", "scheme"});
  CHECK(s.key_env == "OPENAI_API_KEY");
  nlohmann::json text = {{"llm", {{"url", "u"}, {"model", "m"}, {"max_calls", "5"}, {"eval_seconds", "2.5"}}}};
  CHECK(validate_llm_params(text).empty());  // the CLI passes flag values as text
  CHECK(read_llm_settings(text).max_calls == 5);
  CHECK(read_llm_settings(text).eval_seconds == 2.5);
  CHECK(validate_llm_params({{"llm", {{"url", "u"}, {"model", "m"}, {"max_calls", "many"}}}}).size() == 1);
}
