// Test doubles for the LLM loop: an outer Reporter that keeps a run directory (events.jsonl,
// checkpoint.json, best-r<R>.json) like the orchestrator does, and a toy engine registered as "toy"
// that reaches Strassen's rank 7 for 2x2x2 after `delay_ms` — so recipes measurably differ.
#pragma once
#include <atomic>
#include <chrono>
#include <climits>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

#include "src/search/engine.hpp"

namespace tdisc::test {

class RunDirReporter : public search::Reporter {
public:
  RunDirReporter(std::string dir, search::Target target, double seconds, bool stop_at_target = true);
  bool offer(const Scheme& s, const std::string& method) override;
  void event(const nlohmann::json& e) override;
  void add(const std::string& counter, double delta) override;
  void set(const std::string& counter, double value) override;
  bool stop_requested() const override;
  int best_rank() const override;
  bool checkpoint_due() const override;
  void checkpoint(const nlohmann::json& state) override;

  // Also stop once `count` events of `type` were logged (e.g. after N "llm_call" lines).
  void stop_after_events(const std::string& type, int count) { stop_type_ = type, stop_count_ = count; }
  std::vector<nlohmann::json> events() const;  // read back from events.jsonl
  nlohmann::json last_checkpoint() const;
  int checkpoints() const { return checkpoints_; }
  double time_to_target() const { return time_to_target_; }  // −1 when not reached
  int offers_valid() const { return offers_valid_; }

private:
  double elapsed() const;
  std::string dir_;
  search::Target target_;
  double seconds_;
  bool stop_at_target_;
  std::chrono::steady_clock::time_point t0_;
  mutable std::mutex mutex_;
  int best_ = INT_MAX, checkpoints_ = 0, offers_valid_ = 0;
  double time_to_target_ = -1;
  nlohmann::json last_checkpoint_;
  std::map<std::string, double> counters_;
  mutable std::chrono::steady_clock::time_point last_due_;
  std::string stop_type_;
  int stop_count_ = 0, seen_count_ = 0;
};

// Registers the toy engine as "toy" (idempotent).
void register_toy_engine();

}  // namespace tdisc::test
