// Pulls one JSON object out of a model's reply (whole text, fenced block, or balanced braces in prose).
// Local servers often ignore response_format, so every reply goes through here.
#include "src/llm/json_extract.hpp"

#include <vector>

#include "base/utf8.hpp"
#include "decomposition/json_input.hpp"

namespace tdisc::llm {

namespace {

using nlohmann::json;

std::string strip_thinking(std::string text) {
  for (int guard = 0; guard < 16; ++guard) {
    size_t open = text.find("<think>");
    if (open == std::string::npos) break;
    size_t close = text.find("</think>", open);
    if (close == std::string::npos) return text.substr(0, open);
    text.erase(open, close + 8 - open);
  }
  return text;
}

// A model's text is a server's reply: parsed through the one hardened entry point, with invalid
// UTF-8 replaced rather than fatal.
JsonParsed parse_reply(const std::string& s) {
  return try_parse_json_input(s, JsonSource{"reply", "a JSON object", input_ceiling(InputKind::server_reply), kMaxNesting, true});
}

std::optional<json> parse_object(const std::string& s) {
  JsonParsed p = parse_reply(s);
  if (!p.value || !p.value->is_object()) return std::nullopt;
  return std::move(p.value);
}

// Bodies of ``` fences, in order; the language tag after the opening fence is dropped.
std::vector<std::string> fenced_blocks(const std::string& text) {
  std::vector<std::string> blocks;
  size_t pos = 0;
  while (blocks.size() < 32) {
    size_t open = text.find("```", pos);
    if (open == std::string::npos) break;
    size_t body = text.find('\n', open);
    if (body == std::string::npos) break;
    size_t close = text.find("```", body);
    if (close == std::string::npos) break;
    blocks.push_back(text.substr(body + 1, close - body - 1));
    pos = close + 3;
  }
  return blocks;
}

// End (exclusive) of the balanced object opening at `start`, honouring strings and escapes.
size_t balanced_end(const std::string& text, size_t start) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (size_t i = start; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '{') ++depth;
    else if (c == '}' && --depth == 0) return i + 1;
  }
  return std::string::npos;
}

std::optional<json> first_balanced_object(const std::string& text) {
  size_t pos = 0;
  for (int tries = 0; tries < 64; ++tries) {
    size_t open = text.find('{', pos);
    if (open == std::string::npos) return std::nullopt;
    size_t end = balanced_end(text, open);
    if (end == std::string::npos) return std::nullopt;
    if (auto j = parse_object(text.substr(open, end - open))) return j;
    pos = open + 1;
  }
  return std::nullopt;
}

}  // namespace

Extracted extract_json(const std::string& reply) {
  std::string text = strip_thinking(reply);
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) return {std::nullopt, "empty reply"};
  if (auto j = parse_object(text)) return {j, ""};
  for (const auto& block : fenced_blocks(text))
    if (auto j = parse_object(block)) return {j, ""};
  if (auto j = first_balanced_object(text)) return {j, ""};
  // Say why the most likely candidate failed, so the next prompt can show it.
  if (parse_reply(text).value) return {std::nullopt, "reply is JSON but not an object"};
  size_t open = text.find('{');
  if (open == std::string::npos) return {std::nullopt, "no JSON object found in the reply"};
  JsonParsed from_brace = parse_reply(text.substr(open));
  if (!from_brace.value) return {std::nullopt, "invalid JSON at " + utf8_excerpt(from_brace.why_not, 300)};
  return {std::nullopt, "no complete JSON object found in the reply"};
}

}  // namespace tdisc::llm
