// Settings of the "llm" engine from the search CLI's --llm-* flags and the OpenAI environment.
#include "src/llm/proposer/settings.hpp"
#include "decomposition/json_input.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>

namespace tdisc::llm {

using nlohmann::json;

std::vector<WeightedModel> parse_models(const std::string& spec) {
  std::vector<WeightedModel> out;
  std::stringstream ss(spec);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) return {};
    WeightedModel m{item, 1.0};
    size_t colon = item.rfind(':');
    if (colon != std::string::npos) {
      std::string tail = item.substr(colon + 1);
      char* end = nullptr;
      double w = std::strtod(tail.c_str(), &end);
      if (!tail.empty() && end && *end == '\0') {
        if (!(w > 0)) return {};
        m = {item.substr(0, colon), w};
      }
    }
    if (m.name.empty()) return {};
    out.push_back(m);
  }
  return out;
}

namespace {

// A comma-separated text row into a list ("recipe,scheme"), empty items dropped.
std::function<void(LlmSettings&, const json&)> store_list(std::vector<std::string> LlmSettings::*member) {
  return [member](LlmSettings& s, const json& v) {
    std::stringstream items(v.get<std::string>());
    (s.*member).clear();
    for (std::string item; std::getline(items, item, ',');)
      if (!item.empty()) (s.*member).push_back(item);
  };
}

}  // namespace

const params::Table& llm_table() {
  using namespace params;
  static const Table t{
      "llm", "", "An LLM proposes search strategies (JSON recipes) or schemes; a program database keeps the best.\n"
      "Read from params[\"llm\"] (the search command's --llm-* flags); url and model fall back to\n"
      "OPENAI_BASE_URL and OPENAI_MODEL; the key is read from the variable named by key_env.",
      {text("url", field(&LlmSettings::url), "OpenAI-compatible endpoint, e.g. http://127.0.0.1:8080/v1 (else $OPENAI_BASE_URL)"),
       text("model", field(&LlmSettings::model), "model, or a weighted mix \"a:0.8,b:0.2\" (else $OPENAI_MODEL)"),
       text("key_env", field(&LlmSettings::key_env), "environment variable holding the API key"),
       text("run_dir", field(&LlmSettings::run_dir), "where the database and the transcript are kept (the search's run directory)"),
       bound<LlmSettings>(text("proposals", "recipe", "what the LLM proposes: recipe, scheme or recipe,scheme"), store_list(&LlmSettings::proposals)),
       bound<LlmSettings>(text("engines", "", "engines a recipe may use, comma-separated (empty: every built-in one)"), store_list(&LlmSettings::engines)),
       integer("max_calls", field(&LlmSettings::max_calls), 0, 1e9, "most LLM calls in this run (0: no limit)"),
       integer("max_tokens", field(&LlmSettings::max_tokens), 0, 1e15, "most tokens in this run (0: no limit)"),
       integer("call_max_tokens", field(&LlmSettings::call_max_tokens), 16, 1e6, "most completion tokens per call"),
       number("temperature", field(&LlmSettings::temperature), 0, 2, "sampling temperature"),
       number("timeout", field(&LlmSettings::timeout_s), 0.1, 3600, "seconds per HTTP call"),
       integer("retries", field(&LlmSettings::retries), 1, 20, "attempts per call (exponential back-off)"),
       number("retry_base", field(&LlmSettings::retry_base_s), 0, 60, "first back-off in seconds"),
       number("eval_seconds", field(&LlmSettings::eval_seconds), 0, 86400,
              "budget per seed when a recipe is evaluated (0: --time/20 within 2..300 s; 30 s without --time)"),
       number("repair_seconds", field(&LlmSettings::repair_seconds), 0, 86400, "numeric repair of a near-miss proposed scheme, per seed"),
       integer("max_seeds", field(&LlmSettings::max_seeds), 1, 64, "seeds a recipe is evaluated on"),
       integer("islands", field(&LlmSettings::islands), 1, 64, "islands of the program database"),
       integer("migrate_every", field(&LlmSettings::migrate_every), 1, 1e6, "proposals between migrations of the best between islands"),
       integer("inspirations", field(&LlmSettings::inspirations), 0, 16, "other programs shown in a prompt"),
       integer("failures_shown", field(&LlmSettings::failures_shown), 0, 32, "recent failures shown in a prompt"),
       number("exploit", field(&LlmSettings::exploit), 0, 1, "chance that the parent is an island's best (else a random cell)"),
       number("price_in", field(&LlmSettings::price_in), 0, 1e6, "USD per million prompt tokens (for the cost report)"),
       number("price_out", field(&LlmSettings::price_out), 0, 1e6, "USD per million completion tokens"),
       integer("concurrency", field(&LlmSettings::concurrency), 1, 64, "requests in flight while the search threads evaluate"),
       number("max_cost", field(&LlmSettings::max_cost), 0, 1e6, "USD; no new request once this much was spent (0: no limit; needs prices)")},
      "",
      ""};
  return t;
}

json llm_default_params() { return params::defaults(llm_table()); }

namespace {

// params["llm"] (or params itself), keys with '-' read as '_', numbers given as text ("--llm-max-calls 5" arrives as "5")
// turned into numbers, so that the range checks see what the user meant.
json section(const json& params) {
  const json& given = params.contains("llm") && params["llm"].is_object() ? params["llm"] : params;
  json p = json::object();
  for (auto it = given.begin(); it != given.end(); ++it) {  // "max-calls" (flag spelling) = "max_calls"
    std::string key = it.key();
    std::replace(key.begin(), key.end(), '-', '_');
    p[key] = it.value();
  }
  for (auto it = p.begin(); it != p.end(); ++it) {
    if (!it.value().is_string() || !llm_default_params().contains(it.key()) || !llm_default_params()[it.key()].is_number())
      continue;
    JsonParsed n = try_parse_json_input(it.value().get<std::string>(), JsonSource{"--params", "a number"});
    if (n.value && n.value->is_number()) it.value() = *n.value;
  }
  return p;
}

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

// The section without nulls (the CLI passes null for flags not given).
json given(const json& params) {
  json out = json::object();
  const json s = section(params);
  for (const auto& [key, value] : s.items())
    if (!value.is_null()) out[key] = value;
  return out;
}

}  // namespace

// The rules across the bound settings (an endpoint and a model from the parameters or the environment).
std::vector<std::string> llm_problems(const LlmSettings& s) {
  std::vector<std::string> errors;
  if (s.url.empty()) errors.push_back("llm.url: no endpoint (give --llm-url or set OPENAI_BASE_URL, e.g. http://127.0.0.1:8080/v1)");
  if (s.model.empty()) errors.push_back("llm.model: no model (give --llm-model or set OPENAI_MODEL)");
  else if (s.models.empty()) errors.push_back("llm.model: \"" + s.model + "\" is not a list NAME[:WEIGHT],… with positive weights");
  for (const auto& k : s.proposals)
    if (k != "recipe" && k != "scheme") errors.push_back("llm.proposals: \"" + k + "\" is not \"recipe\" or \"scheme\"");
  if (s.proposals.empty()) errors.push_back("llm.proposals: empty (use recipe, scheme or recipe,scheme)");
  return errors;
}

std::vector<std::string> validate_llm_params(const json& params) {
  std::vector<std::string> errors = params::check_object(llm_table(), given(params), "llm.");
  if (!errors.empty()) return errors;
  return llm_problems(read_llm_settings(params));
}

params::Bound<LlmSettings> bind_llm_settings(const json& params, const std::string& where) {
  params::refuse(where, params::check_object(llm_table(), given(params), "llm."));
  params::Bound<LlmSettings> b = resolve_llm_settings(params);
  params::refuse(where, llm_problems(b.value));
  return b;
}

params::Bound<LlmSettings> resolve_llm_settings(const json& params) {
  params::Bound<LlmSettings> b = params::bind_checked<LlmSettings>(llm_table(), given(params));
  if (b.value.url.empty() && !env_or("OPENAI_BASE_URL", "").empty()) b.derive("url", env_or("OPENAI_BASE_URL", ""), "$OPENAI_BASE_URL");
  if (b.value.model.empty() && !env_or("OPENAI_MODEL", "").empty()) b.derive("model", env_or("OPENAI_MODEL", ""), "$OPENAI_MODEL");
  if (b.value.key_env.empty()) b.derive("key_env", "OPENAI_API_KEY", "empty key_env");
  b.value.models = parse_models(b.value.model);
  return b;
}

LlmSettings read_llm_settings(const json& params) { return resolve_llm_settings(params).value; }

}  // namespace tdisc::llm
