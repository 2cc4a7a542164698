// tdisc search's --llm-<name> flags: the llm engine's own settings (proposer/settings.cpp) with their
// kinds, ranges and help, and the settings they give, which the search lays over {"llm":{…}} of --params.
#pragma once
#include <nlohmann/json.hpp>
#include <vector>

#include "base/params/settings.hpp"
#include "base/params/table.hpp"

namespace tdisc::llm {

// The rows of the search table: --llm-url, --llm-model, --llm-key-env, --llm-max-calls, … (no
// defaults: an unset flag leaves the engine's, shown in the help).
std::vector<params::Param> search_flags();
// The --llm-* flags set in o as the engine's settings ({"key_env": …}); "url" falls back to
// $OPENAI_BASE_URL. Empty when none is set.
nlohmann::json params_from_flags(const params::Settings& o);

}  // namespace tdisc::llm
