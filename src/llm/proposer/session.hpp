// One run of the "llm" engine: the propose → validate → evaluate → store loop, its spending
// counters, the failures shown to the next prompt, the call log and the checkpoint state.
#pragma once
#include <chrono>
#include <deque>
#include <optional>
#include <random>
#include <string>

#include "src/llm/client.hpp"
#include "src/llm/database.hpp"
#include "src/llm/prompt.hpp"
#include "src/llm/proposer/settings.hpp"
#include "src/search/engine.hpp"

namespace tdisc::llm {

class Session {
public:
  Session(const search::EngineConfig& config, search::Reporter& reporter, LlmSettings settings);
  void run();

private:
  struct Asked {                       // what one call produced
    std::optional<Proposal> proposal;
    nlohmann::json record;             // the call's log line
  };

  void seed_population();
  void step();
  Asked ask(const Program* parent, const std::string& kind);
  bool spending_allowed() const;
  std::string choose_model();
  std::string choose_kind();
  Evaluation evaluate(const Proposal& p);
  Proposal fallback(const Program* parent);
  const Scheme* parent_scheme();
  int store(const Proposal& p, const Evaluation& ev, const Program* parent, int island, const std::string& origin, int call);
  void note_failure(int call, const std::string& kind, const std::string& reason);
  void log_call(nlohmann::json record);
  void save(bool final_save);
  void restore(const nlohmann::json& state);
  nlohmann::json state() const;
  double seconds_left() const;
  ProposalRules rules() const;

  const search::EngineConfig& config_;
  search::Reporter& reporter_;
  LlmSettings settings_;
  std::vector<std::string> engines_;   // built-in engines available for recipes
  ChatClient client_;
  Database db_;
  std::mt19937_64 rng_;
  std::deque<Failure> failures_;
  std::optional<Scheme> best_scheme_;  // the parent of scheme edits
  long calls_ = 0, prompt_tokens_ = 0, completion_tokens_ = 0, iteration_ = 0;
  double cost_ = 0;
  std::string stop_calling_;           // why the model is no longer asked ("" while it is)
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace tdisc::llm
