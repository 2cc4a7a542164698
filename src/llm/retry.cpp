// Retry with exponential backoff honouring Retry-After (RFC 9110 §10.2.3), as the OpenAI
// clients do: transient failures are retried, quota and request errors are reported at once.
#include "src/llm/retry.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

namespace tdisc::llm {

RetryDecision should_retry(const HttpReply& reply) {
  if (reply.aborted) return {false, "stopped during the call"};
  if (reply.too_large) return {false, reply.transport_error};  // the same server sends the same reply
  if (reply.status == 0)
    return {true, (reply.timed_out ? "timeout: " : "connection error: ") + reply.transport_error};
  long s = reply.status;
  if (s >= 200 && s < 300) return {false, ""};
  if (s == 429 && parse_api_error(reply.body).quota()) return {false, "quota exhausted (HTTP 429 insufficient_quota)"};
  bool transient = s == 408 || s == 409 || s == 429 || s >= 500;
  return {transient, "HTTP " + std::to_string(s)};
}

std::optional<double> retry_delay(const RetryPolicy& policy, int attempt, std::optional<double> retry_after) {
  double backoff = std::min(policy.max_delay_s, policy.base_delay_s * std::pow(2.0, attempt - 1));
  if (!retry_after) return backoff;
  if (*retry_after > policy.max_retry_after_s) return std::nullopt;
  return *retry_after;
}

namespace {

// Sleeps up to `seconds`, waking every 50 ms to honour a stop. Returns false when stopped.
bool sleep_unless_stopped(double seconds, const std::function<bool()>& stop) {
  using Clock = std::chrono::steady_clock;
  Clock::time_point until = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  while (Clock::now() < until) {
    if (stop && stop()) return false;
    Clock::duration left = until - Clock::now();
    std::this_thread::sleep_for(std::min<Clock::duration>(left, std::chrono::milliseconds(50)));
  }
  return true;
}

}  // namespace

RetryOutcome run_with_retry(const RetryPolicy& policy, const std::function<HttpReply()>& attempt,
                            const std::function<bool()>& stop) {
  RetryOutcome out;
  for (out.attempts = 1;; ++out.attempts) {
    out.reply = attempt();
    RetryDecision d = should_retry(out.reply);
    if (!d.retry) {
      out.gave_up = d.reason;
      return out;
    }
    if (out.attempts >= policy.max_attempts) {
      out.gave_up = d.reason + " after " + std::to_string(out.attempts) + " attempts";
      return out;
    }
    auto delay = retry_delay(policy, out.attempts, out.reply.retry_after);
    if (!delay) {
      out.gave_up = d.reason + ": Retry-After " + std::to_string(*out.reply.retry_after) + " s exceeds the limit";
      return out;
    }
    if (!sleep_unless_stopped(*delay, stop)) {
      out.gave_up = d.reason + "; stopped while waiting to retry";
      return out;
    }
    out.waited_s += *delay;
  }
}

}  // namespace tdisc::llm
