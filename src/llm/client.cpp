// Chat completions: builds the body (nested json_schema response_format), posts through the retry
// layer, reads choices[0].message.content and usage. A server that rejects response_format (HTTP
// 400/422 naming it) is asked again once without it; our own validation runs on every reply anyway.
#include "src/llm/client.hpp"

#include <chrono>

#include "base/utf8.hpp"
#include "decomposition/json_input.hpp"
#include "src/llm/redact.hpp"

namespace tdisc::llm {

using nlohmann::json;

std::string status_name(CallStatus s) {
  switch (s) {
    case CallStatus::ok: return "ok";
    case CallStatus::transport: return "transport";
    case CallStatus::timeout: return "timeout";
    case CallStatus::http: return "http";
    case CallStatus::quota: return "quota";
    case CallStatus::bad_response: return "bad_response";
  }
  return "?";
}

std::string chat_completions_url(const std::string& base_url) {
  std::string u = base_url;
  while (!u.empty() && u.back() == '/') u.pop_back();
  const std::string tail = "/chat/completions";
  if (u.size() >= tail.size() && u.compare(u.size() - tail.size(), tail.size(), tail) == 0) return u;
  return u + tail;
}

json chat_body(const ChatRequest& request, bool structured) {
  json messages = json::array();
  for (const auto& m : request.messages) messages.push_back({{"role", m.role}, {"content", m.content}});
  json body = {{"model", request.model},
               {"messages", messages},
               {"max_tokens", request.max_tokens},
               {"temperature", request.temperature}};
  if (structured && !request.schema.is_null())
    body["response_format"] = {
        {"type", "json_schema"},
        {"json_schema", {{"name", request.schema_name}, {"schema", request.schema}, {"strict", true}}}};
  return body;
}

namespace {

bool rejects_response_format(const HttpReply& r) {
  return (r.status == 400 || r.status == 422) && r.body.find("response_format") != std::string::npos;
}

ChatResult failure(const RetryOutcome& out) {
  ChatResult r;
  r.http_status = out.reply.status;
  r.attempts = out.attempts;
  if (out.reply.status == 0) {
    r.status = out.reply.timed_out ? CallStatus::timeout : CallStatus::transport;
    r.error = out.gave_up;
    return r;
  }
  ApiError e = parse_api_error(out.reply.body);
  r.status = e.quota() ? CallStatus::quota : CallStatus::http;
  r.error = "HTTP " + std::to_string(out.reply.status) + ": " + e.describe();
  if (out.attempts > 1) r.error += " (after " + std::to_string(out.attempts) + " attempts)";
  return r;
}

// choices[0].message.content and usage from a 2xx body.
ChatResult read_completion(const std::string& body) {
  ChatResult r;
  JsonParsed parsed = try_parse_json_input(body, JsonSource{"reply", "a chat completion", input_ceiling(InputKind::server_reply),
                                                           kMaxNesting, true});
  if (!parsed.value || !parsed.value->is_object()) {
    r.status = CallStatus::bad_response;
    r.error = parsed.value ? "response body is JSON but not an object" : "response body is not JSON: " + parsed.why_not;
    return r;
  }
  const json& j = *parsed.value;
  if (j.contains("usage") && j["usage"].is_object()) {
    // A count is a number in [0, 10^12]; another type, a negative count or 1e300 (which get<long> would
    // convert with undefined behaviour) counts as 0: a server can neither wrap the sums nor lower them
    // under --llm-max-tokens or --llm-max-cost.
    const json& u = j["usage"];
    auto count = [&](const char* key) {
      const double x = u.contains(key) && u[key].is_number() ? u[key].get<double>() : 0.0;
      return x >= 0 && x <= 1e12 ? static_cast<long>(x) : 0L;
    };
    r.prompt_tokens = count("prompt_tokens");
    r.completion_tokens = count("completion_tokens");
  }
  const json* content = nullptr;
  if (j.contains("choices") && j["choices"].is_array() && !j["choices"].empty()) {
    const json& c = j["choices"][0];
    if (c.contains("message") && c["message"].is_object() && c["message"].contains("content"))
      content = &c["message"]["content"];
  }
  if (!content || !content->is_string()) {
    r.status = CallStatus::bad_response;
    r.error = j.contains("error") ? "error in a 2xx reply: " + parse_api_error(body).describe()
                                  : "no choices[0].message.content in the response";
    return r;
  }
  r.content = content->get<std::string>();
  return r;
}

// What leaves the client is safe to log: the key redacted from the content and the error, the error
// cut to a bounded excerpt on a character boundary.
ChatResult sealed(ChatResult r, const std::string& api_key) {
  r.content = redact_secret(std::move(r.content), api_key);
  r.error = utf8_excerpt(redact_secret(std::move(r.error), api_key), kErrorExcerptBytes);
  return r;
}

}  // namespace

ChatResult ChatClient::complete(const ChatRequest& request, const std::function<bool()>& stop) {
  HttpRequest http;
  http.url = chat_completions_url(config_.base_url);
  http.timeout_s = config_.timeout_s;
  http.connect_timeout_s = config_.connect_timeout_s;
  http.abort = stop;
  if (!config_.api_key.empty()) http.headers.push_back("Authorization: Bearer " + config_.api_key);
  auto t0 = std::chrono::steady_clock::now();
  int attempts = 0;
  for (int pass = 0; pass < 2; ++pass) {
    http.body = chat_body(request, structured_).dump();
    RetryOutcome out = run_with_retry(config_.retry, [&] { return http_post(http); }, stop);
    attempts += out.attempts;
    if (structured_ && !request.schema.is_null() && rejects_response_format(out.reply)) {
      structured_ = false;  // this server does not do structured output; our validation remains
      continue;
    }
    ChatResult r = chat_result(out, config_.api_key);
    r.http_status = out.reply.status;
    r.attempts = attempts;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
  }
  ChatResult r;
  r.status = CallStatus::http;
  r.error = "server rejected the request with and without response_format";
  r.attempts = attempts;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return sealed(std::move(r), config_.api_key);
}

ChatResult chat_result(const RetryOutcome& out, const std::string& api_key) {
  return sealed(out.reply.ok() ? read_completion(out.reply.body) : failure(out), api_key);
}

}  // namespace tdisc::llm
