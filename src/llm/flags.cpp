#include "src/llm/flags.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "src/llm/proposer/settings.hpp"

namespace tdisc::llm {

namespace {

// --llm-<name>: the llm engine's setting <name>; no default here, so an unset flag leaves the engine's.
params::Param llm_flag(const std::string& key, const std::string& metavar) {
  params::Param p = *llm_table().find(key);
  std::string name = "llm-" + key;
  std::replace(name.begin(), name.end(), '_', '-');
  p.name = name;
  if (!p.fallback.is_null() && p.fallback != "") p.help += " [llm default: " + params::show(p, p.fallback) + "]";
  p.fallback = nullptr;
  p.metavar = metavar;
  p.store = {};
  p.bound_type = nullptr;
  return p;
}

}  // namespace

std::vector<params::Param> search_flags() {
  return {llm_flag("url", "URL"),         llm_flag("model", "SPEC"),         llm_flag("key_env", "VAR"),
          llm_flag("max_calls", "N"),     llm_flag("max_tokens", "N"),       llm_flag("proposals", "KIND"),
          llm_flag("concurrency", "K"),   llm_flag("max_cost", "USD"),       llm_flag("eval_seconds", "T")};
}

nlohmann::json params_from_flags(const params::Settings& o) {
  nlohmann::json llm = nlohmann::json::object();
  for (const params::Param& p : o.table().params)  // --llm-key-env → the llm engine's "key_env"
    if (std::string name = p.long_name(); name.rfind("llm-", 0) == 0 && o.has(name)) {
      std::string key = name.substr(4);
      std::replace(key.begin(), key.end(), '-', '_');
      llm[key] = o.value(name);
    }
  if (!llm.contains("url"))
    if (const char* e = std::getenv("OPENAI_BASE_URL"); e && *e) llm["url"] = e;
  return llm;
}

}  // namespace tdisc::llm
