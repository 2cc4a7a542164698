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

const params::Table& llm_table() {
  using namespace params;
  const LlmSettings d;
  static const Table t{
      "llm", "", "An LLM proposes search strategies (JSON recipes) or schemes; a program database keeps the best.\n"
      "Read from params[\"llm\"] (the search command's --llm-* flags); url and model fall back to\n"
      "OPENAI_BASE_URL and OPENAI_MODEL; the key is read from the variable named by key_env.",
      {text("url", "", "OpenAI-compatible endpoint, e.g. http://127.0.0.1:8080/v1 (else $OPENAI_BASE_URL)"),
       text("model", "", "model, or a weighted mix \"a:0.8,b:0.2\" (else $OPENAI_MODEL)"),
       text("key_env", d.key_env, "environment variable holding the API key"),
       text("run_dir", "", "where the database and the transcript are kept (the search's run directory)"),
       text("proposals", "recipe", "what the LLM proposes: recipe, scheme or recipe,scheme"),
       text("engines", "", "engines a recipe may use, comma-separated (empty: every built-in one)"),
       integer("max_calls", d.max_calls, 0, 1e9, "most LLM calls in this run (0: no limit)"),
       integer("max_tokens", d.max_tokens, 0, 1e15, "most tokens in this run (0: no limit)"),
       integer("call_max_tokens", d.call_max_tokens, 16, 1e6, "most completion tokens per call"),
       number("temperature", d.temperature, 0, 2, "sampling temperature"),
       number("timeout", d.timeout_s, 0.1, 3600, "seconds per HTTP call"),
       integer("retries", d.retries, 1, 20, "attempts per call (exponential back-off)"),
       number("retry_base", d.retry_base_s, 0, 60, "first back-off in seconds"),
       number("eval_seconds", d.eval_seconds, 0, 86400,
              "budget per seed when a recipe is evaluated (0: --time/20 within 2..300 s; 30 s without --time)"),
       number("repair_seconds", d.repair_seconds, 0, 86400, "numeric repair of a near-miss proposed scheme, per seed"),
       integer("max_seeds", d.max_seeds, 1, 64, "seeds a recipe is evaluated on"),
       integer("islands", d.islands, 1, 64, "islands of the program database"),
       integer("migrate_every", d.migrate_every, 1, 1e6, "proposals between migrations of the best between islands"),
       integer("inspirations", d.inspirations, 0, 16, "other programs shown in a prompt"),
       integer("failures_shown", d.failures_shown, 0, 32, "recent failures shown in a prompt"),
       number("exploit", d.exploit, 0, 1, "chance that the parent is an island's best (else a random cell)"),
       number("price_in", d.price_in, 0, 1e6, "USD per million prompt tokens (for the cost report)"),
       number("price_out", d.price_out, 0, 1e6, "USD per million completion tokens"),
       integer("concurrency", d.concurrency, 1, 64, "requests in flight while the search threads evaluate"),
       number("max_cost", d.max_cost, 0, 1e6, "USD; no new request once this much was spent (0: no limit; needs prices)")},
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

// A value, or the fallback when the key is absent or null (the CLI passes null for unset flags).
template <class T>
T get(const json& p, const char* key, T fallback) {
  return p.contains(key) && !p[key].is_null() ? p[key].get<T>() : fallback;
}

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

}  // namespace

std::vector<std::string> validate_llm_params(const json& params) {
  const json p = section(params);
  json given = json::object();  // null means unset (the CLI passes null for flags not given)
  for (auto it = p.begin(); it != p.end(); ++it)
    if (!it.value().is_null()) given[it.key()] = it.value();
  std::vector<std::string> errors = params::check_object(llm_table(), given, "llm.");
  if (!errors.empty()) return errors;
  LlmSettings s = read_llm_settings(params);
  if (s.url.empty()) errors.push_back("llm.url: no endpoint (give --llm-url or set OPENAI_BASE_URL, e.g. http://127.0.0.1:8080/v1)");
  if (s.model.empty()) errors.push_back("llm.model: no model (give --llm-model or set OPENAI_MODEL)");
  else if (s.models.empty()) errors.push_back("llm.model: \"" + s.model + "\" is not a list NAME[:WEIGHT],… with positive weights");
  for (const auto& k : s.proposals)
    if (k != "recipe" && k != "scheme") errors.push_back("llm.proposals: \"" + k + "\" is not \"recipe\" or \"scheme\"");
  if (s.proposals.empty()) errors.push_back("llm.proposals: empty (use recipe, scheme or recipe,scheme)");
  return errors;
}

LlmSettings read_llm_settings(const json& params) {
  const json p = section(params);
  LlmSettings s;
  s.url = get(p, "url", std::string(""));
  if (s.url.empty()) s.url = env_or("OPENAI_BASE_URL", "");
  s.model = get(p, "model", std::string(""));
  if (s.model.empty()) s.model = env_or("OPENAI_MODEL", "");
  s.models = parse_models(s.model);
  s.key_env = get(p, "key_env", s.key_env);
  if (s.key_env.empty()) s.key_env = "OPENAI_API_KEY";
  s.run_dir = get(p, "run_dir", std::string(""));
  s.proposals.clear();
  std::stringstream kinds(get(p, "proposals", std::string("recipe")));
  for (std::string k; std::getline(kinds, k, ',');)
    if (!k.empty()) s.proposals.push_back(k);
  std::stringstream engines(get(p, "engines", std::string("")));
  for (std::string e; std::getline(engines, e, ',');)
    if (!e.empty()) s.engines.push_back(e);
  s.max_calls = get(p, "max_calls", s.max_calls);
  s.max_tokens = get(p, "max_tokens", s.max_tokens);
  s.call_max_tokens = get(p, "call_max_tokens", s.call_max_tokens);
  s.temperature = get(p, "temperature", s.temperature);
  s.timeout_s = get(p, "timeout", s.timeout_s);
  s.retries = get(p, "retries", s.retries);
  s.retry_base_s = get(p, "retry_base", s.retry_base_s);
  s.eval_seconds = get(p, "eval_seconds", s.eval_seconds);
  s.repair_seconds = get(p, "repair_seconds", s.repair_seconds);
  s.max_seeds = get(p, "max_seeds", s.max_seeds);
  s.islands = get(p, "islands", s.islands);
  s.migrate_every = get(p, "migrate_every", s.migrate_every);
  s.inspirations = get(p, "inspirations", s.inspirations);
  s.failures_shown = get(p, "failures_shown", s.failures_shown);
  s.exploit = get(p, "exploit", s.exploit);
  s.price_in = get(p, "price_in", s.price_in);
  s.price_out = get(p, "price_out", s.price_out);
  s.concurrency = get(p, "concurrency", s.concurrency);
  s.max_cost = get(p, "max_cost", s.max_cost);
  return s;
}

}  // namespace tdisc::llm
