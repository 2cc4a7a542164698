// The state one numeric search shares between its workers (CPU threads, or the GPU batch driver and
// its rounding threads): restart numbering, the seed pool, statistics, offers and checkpoints.
#pragma once
#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <set>

#include "src/search/engine.hpp"
#include "src/search/numeric/params.hpp"
#include "src/search/numeric/restart.hpp"
#include "src/search/numeric/seeds.hpp"

namespace tdisc::search::numeric {

class Run {
public:
  using Clock = std::chrono::steady_clock;
  Run(const EngineConfig& c, Reporter& r, Params p);  // p: c.params resolved for c.target (NumericEngine::run)
  Run(const EngineConfig& c, Reporter& r) : Run(c, r, resolve(c.params, c.target)) {}

  bool stopping() const;
  // Seconds to the run's deadline (infinity without --time).
  double seconds_left() const;
  // The next restart index (marked in flight), or -1 when the restart budget is spent.
  long claim();
  void release(long idx);
  // The restart's seed, deadline, stop test and starting point (kept seed or --from scheme).
  RestartInput input(long idx);
  // Counters, events, the seed pool and the offer of a found scheme.
  void record(long idx, RestartOutcome& out);
  void maybe_checkpoint();
  void finish();
  void announce(const nlohmann::json& extra = nlohmann::json::object());
  // Runs restarts on this thread until stopped (the CPU engine's worker).
  void worker();

  const Params& parameters() const { return params; }
  const MatmulTensor& matmul() const { return tensor; }
  const EngineConfig& config() const { return cfg; }
  const SeedSpace* seed_space() const { return ansatz.get(); }
  Reporter& reporter() { return rep; }
  double best_residual_so_far();

private:
  void offer(long idx, Scheme s, const std::string& how);
  void record_numerical(long idx, const RestartOutcome& out);
  void keep_counting(const Scheme& s);
  nlohmann::json state();
  void restore(const nlohmann::json& s);

  const EngineConfig& cfg;
  Reporter& rep;
  Params params;
  MatmulTensor tensor;
  SeedPool pool;
  Clock::time_point started, deadline;
  std::optional<Seed> start;
  std::shared_ptr<const SeedSpace> ansatz;  // params.ansatz loaded once (null: none)
  std::atomic<long> next{0};
  long first = 0;
  std::atomic<bool> done{false};
  std::mutex flight_mutex, stats_mutex, checkpoint_mutex;
  std::set<long> in_flight;
  double best_residual = INFINITY, best_fraction = 0;
  bool offered_one = false;  // keep_going: the first exact find has been filed
  std::set<std::string> seen_exact;  // keep_going: the sha256 of every exact find so far
};

}  // namespace tdisc::search::numeric
