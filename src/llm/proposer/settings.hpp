// The settings of the "llm" engine: endpoint, models with weights, spending limits, proposal kinds,
// evaluation budgets and database shape. Read from EngineConfig.params["llm"] (the search CLI's
// --llm-* flags), falling back to OPENAI_BASE_URL / OPENAI_MODEL. The key is read from the
// environment variable named by key_env at call time and is never part of the settings.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/params/bind.hpp"
#include "base/params/table.hpp"

namespace tdisc::llm {

struct WeightedModel {
  std::string name;
  double weight = 1;
};

// "a:0.8,b:0.2" → {a,0.8},{b,0.2}. A suffix that is not a number stays part of the name, so
// Ollama tags work: "qwen2.5-coder:7b". Empty on a malformed list.
std::vector<WeightedModel> parse_models(const std::string& spec);

struct LlmSettings {
  std::string url, model, key_env = "OPENAI_API_KEY", run_dir;
  std::vector<WeightedModel> models;
  std::vector<std::string> proposals;            // "recipe", "scheme" (the table's default: recipe)
  std::vector<std::string> engines;              // engines recipes may use (empty: every built-in one)
  long max_calls = 50, max_tokens = 0;           // 0: no limit
  int call_max_tokens = 2048;
  double temperature = 0.8, timeout_s = 120, retry_base_s = 1.0;
  int retries = 4;
  double eval_seconds = 0, repair_seconds = 5;   // per seed (0: derived from --time, schedule.hpp); numeric repair
  int concurrency = 4;                           // requests in flight
  double max_cost = 0;                           // USD; 0: no limit
  int max_seeds = 2, islands = 3, migrate_every = 8, inspirations = 3, failures_shown = 5;
  double exploit = 0.7;
  double price_in = 0, price_out = 0;            // USD per million prompt / completion tokens
};

// Every setting: default, range, help (the engine's parameter table).
const params::Table& llm_table();
// Defaults as JSON (the engine's default_params()).
nlohmann::json llm_default_params();
// One message per problem; empty when the params can be used.
std::vector<std::string> validate_llm_params(const nlohmann::json& params);
// Binds params (params["llm"] when present, else params itself) through the table over the defaults;
// url and model fall back to the environment ("derived: $OPENAI_BASE_URL"). params must have passed
// validate_llm_params (this binds without checking).
params::Bound<LlmSettings> resolve_llm_settings(const nlohmann::json& params);
// The check and the bind in one: throws UsageError "WHERE: llm.KEY: what is wrong; …" (where empty: no
// prefix) for what validate_llm_params reports, else the bound settings. One bind.
params::Bound<LlmSettings> bind_llm_settings(const nlohmann::json& params, const std::string& where = "");
LlmSettings read_llm_settings(const nlohmann::json& params);

}  // namespace tdisc::llm
