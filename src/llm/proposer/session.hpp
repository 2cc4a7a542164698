// One run of the "llm" engine: a pipeline in which up to K requests to the model are in flight
// while the search threads evaluate (proposals as they arrive, the parent's recipe meanwhile), the
// program database feeding each prompt as it stands when the prompt is built, the spending
// counters and caps, the failures and near-misses shown to the next prompt, and the checkpoint.
#pragma once
#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <random>
#include <string>

#include "src/llm/client.hpp"
#include "src/llm/database.hpp"
#include "src/llm/prompt.hpp"
#include "src/llm/proposer/requests.hpp"
#include "src/llm/proposer/schedule.hpp"
#include "src/llm/proposer/settings.hpp"
#include "src/search/engine.hpp"

namespace tdisc::llm {

class Session {
public:
  Session(const search::EngineConfig& config, search::Reporter& reporter, LlmSettings settings);
  void run();

private:
  struct Ready {                       // a validated proposal waiting for the search threads
    Proposal proposal;
    RequestTicket ticket;
    nlohmann::json record;             // the call's log line, completed once it is evaluated
  };

  // the pipeline (session.cpp)
  void seed_population();
  void step();
  void evaluate_ready();
  void evaluate_fallback();
  void checkpoint_if_due();
  Evaluation evaluate(const Proposal& p, search::Reporter& reporter);
  Proposal fallback(const Program* parent);
  double seconds_left() const;         // of the run's budget; +inf without one
  double elapsed() const;
  ProposalRules rules() const;

  // the model (session_calls.cpp)
  void top_up();
  bool spending_allowed() const;
  bool answer_usable() const;          // is there budget left to evaluate an answer?
  RequestTicket next_ticket();
  void receive();
  void handle(FinishedRequest f);
  std::string choose_model();
  std::string choose_kind();
  const Scheme* parent_scheme();
  void note_failure(int call, const std::string& kind, const std::string& reason);
  void note_near_misses(const Evaluation& ev, const std::string& source);
  void log_call(nlohmann::json record);
  void report_spending();

  // the state (session_state.cpp)
  int store(const Proposal& p, const Evaluation& ev, const Program* parent, int island, const std::string& origin, int call);
  void save(bool final_save);
  void restore(const nlohmann::json& state);
  nlohmann::json state() const;

  const search::EngineConfig& config_;
  search::Reporter& reporter_;
  LlmSettings settings_;
  Schedule schedule_;
  std::vector<std::string> engines_;   // built-in engines available for recipes
  ChatClient client_;
  Database db_;
  std::mt19937_64 rng_;
  std::unique_ptr<RequestPool> pool_;
  std::deque<Ready> ready_;
  std::deque<Failure> failures_;
  std::deque<NearMiss> near_misses_;
  std::optional<Scheme> best_scheme_;  // the parent of scheme edits
  long calls_ = 0, prompt_tokens_ = 0, completion_tokens_ = 0, iteration_ = 0, evaluations_ = 0;
  double cost_ = 0;
  std::string stop_calling_;           // why the model is no longer asked ("" while it is)
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace tdisc::llm
