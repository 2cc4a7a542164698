// The orchestrator every engine runs under: it verifies each offered scheme independently,
// writes the run directory, keeps the clock and the signals, checkpoints, and feeds a progress sink.
#pragma once
#include <atomic>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "src/catalog/catalogue.hpp"
#include "src/search/engine.hpp"
#include "src/search/progress.hpp"
#include "src/search/run/dir.hpp"
#include "src/search/run/lock.hpp"

namespace tdisc::search {

struct SearchRequest {
  Target target;
  std::string engine = "flip";
  int threads = 1;
  double seconds = 600;            // wall-clock budget of this session
  unsigned long long seed = 0;
  std::string out_dir;
  std::optional<Scheme> start;
  nlohmann::json params = nlohmann::json::object();
  std::vector<LaneRecipe> lane_recipes;  // a flip portfolio's recipe lanes (plan.hpp; run.json's recipe.lanes)
  double checkpoint_seconds = 30;  // at most this long between checkpoints
  bool catalog = false;            // also file new bests in catalog_dir, as `tdisc catalog add --if-better`
  std::string catalog_dir;         // the catalogue `tdisc catalog` reads (the CLI gives its default)
  ProgressSink* progress = nullptr;  // where the live progress goes (nullptr: nowhere)
  double sample_seconds = 2;       // a "progress" event (counters, rate) this often, for reports
  std::function<void()> after_checkpoint;  // called after each checkpoint is written (search --report)
  // A library caller's stop (tdisc.search's progress callback): set it from any thread and the run
  // ends as at SIGINT — engines stop, the last checkpoint is written, the outcome says interrupted.
  const std::atomic<bool>* cancel = nullptr;
  nlohmann::json request;          // what run.json records (the command line and its settings)
};

// What an engine gets of a request (a resumed run adds its checkpoint).
EngineConfig engine_config(const SearchRequest& r);

struct SearchOutcome {
  bool reached = false;     // a verified scheme of rank ≤ target was found
  int best_rank = INT_MAX;  // lowest verified rank (INT_MAX: none)
  std::string best_file;    // its file in the run directory
  double seconds = 0;       // this session
  bool interrupted = false; // stopped by SIGINT/SIGTERM or by the request's cancel flag
};

class Orchestrator : public Reporter {
public:
  // resume: the checkpoint of an earlier session of the same run directory, if continuing.
  Orchestrator(SearchRequest request, std::optional<nlohmann::json> resume = std::nullopt);
  SearchOutcome run(Engine& engine);

  bool offer(const Scheme& s, const std::string& method) override;
  void event(const nlohmann::json& e) override;
  void add(const std::string& counter, double delta) override;
  void set(const std::string& counter, double value) override;
  bool stop_requested() const override;
  int best_rank() const override { return best_rank_.load(); }
  bool checkpoint_due() const override;
  void checkpoint(const nlohmann::json& state) override;

  const RunDir& run_dir() const { return dir_; }

private:
  bool cancelled() const;  // SIGINT/SIGTERM, or the request's cancel flag
  double elapsed() const;  // this session plus earlier sessions of a resumed run
  void watch();            // the watcher thread: clock, budget, progress sink
  void stop_watcher(std::thread& watcher);  // ends watch() at once and joins it
  void add_to_catalog(const Scheme& s);
  [[noreturn]] void refuse_state(const std::string& why) const;  // a checkpoint state the engine cannot read back
  void sample(double now);  // one "progress" event: the counters and the move rate since the last one
  void record_portfolio(const nlohmann::json& e);  // a "lanes" or "portfolio_move" event into run.json

  SearchRequest req_;
  RunLock lock_;  // one process at a time in the run directory, taken before anything is written
  RunDir dir_;
  std::optional<nlohmann::json> resume_;
  std::chrono::steady_clock::time_point start_;
  double earlier_seconds_ = 0;
  std::atomic<int> best_rank_{INT_MAX};
  std::string best_file_;
  std::atomic<bool> reached_{false}, time_up_{false}, finished_{false}, final_checkpoint_{false};
  std::mutex watch_mutex_;             // with watch_cv_: the watcher wakes at once when the engine ends
  std::condition_variable watch_cv_;
  std::mutex portfolio_mutex_;  // run.json's read-modify-write (record_portfolio)
  mutable std::mutex mutex_;  // counters_, best_file_, offers
  std::map<std::string, double> counters_;
  std::vector<CatalogueEntry> catalogue_;  // catalog_dir's entries, when catalog is on
  double last_sample_t_ = -1, last_sample_moves_ = 0;  // watch() thread only (and run() after it)
  std::atomic<double> last_checkpoint_{0};
};

}  // namespace tdisc::search
