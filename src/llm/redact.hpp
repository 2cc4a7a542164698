// Keeping the API key off disk: a server may echo the bearer token (OpenAI's 401 message quotes it),
// so every text that came back from a server is passed through here before anything logs or
// stores it, and logs keep a bounded excerpt of it, never a whole reply.
#pragma once
#include <cstddef>
#include <string>

namespace tdisc::llm {

// Bytes of a server's text kept in a log record: an error message, a reply's content.
constexpr size_t kErrorExcerptBytes = 1000;
constexpr size_t kReplyExcerptBytes = 64 * 1024;

// text with every occurrence of secret replaced by "[redacted]". A secret shorter than 4 characters
// (a placeholder such as "x" for a local server) is no secret and is left in place.
std::string redact_secret(std::string text, const std::string& secret);

}  // namespace tdisc::llm
