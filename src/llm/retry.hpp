// The one retry layer of the client: connection errors and timeouts, 408, 409, 429 and 5xx are
// retried with exponential backoff that honours Retry-After; a quota error (429 insufficient_quota)
// and every other 4xx are not.
#pragma once
#include <functional>
#include <optional>
#include <string>

#include "src/llm/http.hpp"

namespace tdisc::llm {

struct RetryPolicy {
  int max_attempts = 4;          // first try included
  double base_delay_s = 1.0;     // delay after the first failure; doubles each time
  double max_delay_s = 30.0;     // cap on the computed backoff
  double max_retry_after_s = 120.0;  // a server asking for more than this is not waited for
};

// Whether this reply deserves another attempt, and why (for the log).
struct RetryDecision {
  bool retry = false;
  std::string reason;  // "connection error: …", "HTTP 429", "quota exhausted", "HTTP 400"
};
RetryDecision should_retry(const HttpReply& reply);

// Seconds to wait after failed attempt number `attempt` (1-based): base·2^(attempt−1), capped,
// or the server's Retry-After when it gave one (never less than it asked).
std::optional<double> retry_delay(const RetryPolicy& policy, int attempt, std::optional<double> retry_after);

struct RetryOutcome {
  HttpReply reply;        // the last reply
  int attempts = 0;
  double waited_s = 0;    // total time spent sleeping between attempts
  std::string gave_up;    // why no further attempt was made ("" when the last reply was OK)
};

// Calls `attempt` until it succeeds, is not retryable, attempts run out, or `stop` says so
// (checked while sleeping, every 50 ms).
RetryOutcome run_with_retry(const RetryPolicy& policy, const std::function<HttpReply()>& attempt,
                            const std::function<bool()>& stop);

}  // namespace tdisc::llm
