// A Reporter for engine tests and benchmarks: verifies every offer itself, records events,
// counters and checkpoints, and stops on a deadline or after the first valid scheme.
#pragma once
#include <chrono>
#include <climits>
#include <mutex>
#include <nlohmann/json.hpp>
#include <vector>

#include "src/search/engine.hpp"
#include "verifier/verify.hpp"

namespace tdisc::test {

class RecordingReporter : public search::Reporter {
public:
  RecordingReporter(Ring ring, double seconds) : ring_(ring), seconds_(seconds) {}

  bool offer(const Scheme& s, const std::string&) override {
    std::lock_guard lock(m_);
    bool ok = verify(s, ring_).valid;
    (ok ? valid : invalid).push_back(s);
    if (ok) best_ = std::min(best_, s.rank());
    if (ok && !first_found) first_found = elapsed();
    return ok;
  }
  void event(const nlohmann::json& e) override {
    std::lock_guard lock(m_);
    events.push_back(e);
  }
  void add(const std::string& c, double d) override {
    std::lock_guard lock(m_);
    counters[c] += d;
  }
  void set(const std::string& c, double v) override {
    std::lock_guard lock(m_);
    counters[c] = v;
  }
  bool stop_requested() const override { return elapsed() >= seconds_ || best_ <= stop_at_rank; }
  int best_rank() const override { return best_; }
  bool checkpoint_due() const override { return checkpoint_every_call; }
  void checkpoint(const nlohmann::json& s) override {
    std::lock_guard lock(m_);
    checkpoints.push_back(s);
  }
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }

  std::vector<Scheme> valid, invalid;
  std::vector<nlohmann::json> events, checkpoints;
  std::map<std::string, double> counters;
  std::optional<double> first_found;
  bool checkpoint_every_call = false;
  int stop_at_rank = 0;  // the orchestrator stops at the target rank; tests rely on the engine

private:
  Ring ring_;
  double seconds_;
  int best_ = INT_MAX;
  mutable std::mutex m_;
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

}  // namespace tdisc::test
