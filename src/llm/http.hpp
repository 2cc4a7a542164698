// One HTTP POST of a JSON body over libcurl, and the error bodies OpenAI-compatible servers send
// (nested {"error":{"message","type","code"}} and flat {"message"} / {"error":"…"} / {"detail"}).
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/limits.hpp"

namespace tdisc::llm {

struct HttpReply {
  long status = 0;                    // HTTP status; 0 when no response arrived
  std::string body;
  std::optional<double> retry_after;  // seconds, from Retry-After or retry-after-ms
  std::string transport_error;        // libcurl's message when no response arrived
  bool timed_out = false;             // the per-call timeout expired
  bool aborted = false;               // request.abort() said stop
  double seconds = 0;                 // wall time of the exchange
  bool too_large = false;             // the body passed max_body_bytes: the transfer was ended
  size_t max_body_bytes = 0;          // the request's cap, while the transfer runs
  bool ok() const { return status >= 200 && status < 300; }
};

struct HttpRequest {
  std::string url;
  std::string body;                   // JSON text
  std::vector<std::string> headers;   // "Name: value"; the bearer token goes here, never to logs
  double timeout_s = 120;             // whole exchange
  double connect_timeout_s = 10;
  std::function<bool()> abort;        // polled while waiting; true ends the exchange (a stop, SIGINT)
  size_t max_reply_bytes = input_ceiling(InputKind::server_reply);  // a longer body ends the exchange
};

HttpReply http_post(const HttpRequest& request);

struct ApiError {
  std::string message, type, code;  // as the server sent them ("" when absent)
  bool quota() const { return type == "insufficient_quota" || code == "insufficient_quota"; }
  std::string describe() const;     // "message (type, code)"
};

// Reads either error shape; falls back to the raw body (shortened) when it is not JSON.
ApiError parse_api_error(const std::string& body);

// Retry-After is either delta-seconds or an HTTP-date; nullopt when neither.
std::optional<double> parse_retry_after(const std::string& value);

}  // namespace tdisc::llm
