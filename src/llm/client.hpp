// OpenAI-compatible chat completions over libcurl: structured output through response_format's
// nested json_schema form, the retry layer, token usage and cost. Works with any /v1 server.
#pragma once
#include <atomic>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "src/llm/retry.hpp"

namespace tdisc::llm {

struct Message {
  std::string role;  // "system", "user", "assistant"
  std::string content;
};

struct ChatRequest {
  std::string model;
  std::vector<Message> messages;
  nlohmann::json schema;            // JSON Schema of the answer; null sends no response_format
  std::string schema_name = "tdisc_proposal";
  int max_tokens = 2048;            // completion tokens for this call
  double temperature = 0.8;
};

struct ClientConfig {
  std::string base_url;             // "http://127.0.0.1:8080/v1"; "/chat/completions" is appended
  std::string api_key;              // sent as a bearer token; never logged or stored
  double timeout_s = 120;           // per call (one attempt)
  double connect_timeout_s = 10;
  RetryPolicy retry;
};

enum class CallStatus { ok, transport, timeout, http, quota, bad_response };
std::string status_name(CallStatus s);  // "ok", "transport", "timeout", "http", "quota", "bad_response"

struct ChatResult {
  CallStatus status = CallStatus::ok;
  std::string content;              // the assistant's text (when ok)
  long http_status = 0;
  std::string error;                // what went wrong, for the log and the next prompt
  long prompt_tokens = 0, completion_tokens = 0;
  int attempts = 0;
  double seconds = 0;               // wall time including retries
  bool ok() const { return status == CallStatus::ok; }
};

// "http://host:port/v1" → "http://host:port/v1/chat/completions"; a URL already ending in
// /chat/completions is kept; trailing slashes are dropped.
std::string chat_completions_url(const std::string& base_url);

// The request body (exposed for tests): model, messages, max_tokens, temperature and, when a
// schema is given, {"type":"json_schema","json_schema":{"name","schema","strict":true}}.
nlohmann::json chat_body(const ChatRequest& request, bool structured);

// What one exchange's outcome becomes, as complete() returns it (exposed for tests and the
// llm-reply fuzz target): a 2xx body read as a chat completion (choices[0].message.content, usage),
// anything else as the server's error; the key redacted from content and error, the error cut to a
// bounded excerpt on a character boundary. Status, attempts and seconds are the caller's to fill.
ChatResult chat_result(const RetryOutcome& out, const std::string& api_key);

class ChatClient {
public:
  explicit ChatClient(ClientConfig config) : config_(std::move(config)) {}
  // One chat completion with retries; `stop` interrupts waiting between attempts.
  ChatResult complete(const ChatRequest& request, const std::function<bool()>& stop = nullptr);

private:
  ClientConfig config_;
  std::atomic<bool> structured_{true};  // off once a server rejects response_format; calls run concurrently
};

}  // namespace tdisc::llm
