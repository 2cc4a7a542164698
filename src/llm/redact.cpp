// Redaction of the exact key (see redact.hpp).
#include "src/llm/redact.hpp"

namespace tdisc::llm {

std::string redact_secret(std::string text, const std::string& secret) {
  if (secret.size() < 4) return text;
  static const std::string kMark = "[redacted]";
  for (size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at + kMark.size()))
    text.replace(at, secret.size(), kMark);
  return text;
}

}  // namespace tdisc::llm
