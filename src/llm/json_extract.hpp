// Pulls one JSON object out of a model's reply: the whole text, a ```json fenced block, or the first
// balanced {…} inside prose. Reasoning blocks (<think>…</think>) are skipped first.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace tdisc::llm {

struct Extracted {
  std::optional<nlohmann::json> value;  // a JSON object, when one was found
  std::string why_not;                  // empty when found; else what was wrong, for the next prompt
};

Extracted extract_json(const std::string& reply);

}  // namespace tdisc::llm
