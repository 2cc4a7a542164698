// The portfolio of a flip search with several lanes (lanes.hpp): threads move toward the lane that
// improves. Every `every` seconds the lane whose best rank dropped most recently (and since the last
// decision) takes one walker from the lane that has gone longest without a drop; a lane keeps its
// last walker unless it is dead — no drop for `dead_after` seconds while another lane stands lower.
// The decision (portfolio_move) is a pure function of the lanes' states, so tests can give it any
// history; Portfolio holds the live states and the walkers each lane may run.
#pragma once
#include <atomic>
#include <chrono>
#include <climits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tdisc::search::flip {

struct LaneState {
  int threads = 1;          // walkers running now (0: the lane was dead and gave its last one away)
  int best_rank = INT_MAX;  // the lowest rank its walkers reached (INT_MAX: none yet)
  double improved_at = 0;   // seconds since the start when best_rank last dropped
};

struct PortfolioRule {
  double every = 5;         // seconds between decisions (0: the threads never move)
  double dead_after = 120;  // seconds without a drop after which a lane standing above another is dead (0: never)
};

struct PortfolioMove {
  int from = -1, to = -1;  // lane indices: one walker goes from `from` to `to`
  std::string why;         // one line: the receiver's drop and the donor's stand
};

// The move for the lanes at time now, the previous decision having been at `last` (a drop after
// `last` is recent): the receiver is the lane with the most recent drop, which must be recent (ties:
// the lower best rank, then the lower index); the donor is, among the lanes without a recent drop that
// have a walker to spare (more than one, or one and dead), the one whose last drop is oldest (ties:
// the higher best rank, then the higher index). None when no lane dropped recently or none can give.
std::optional<PortfolioMove> portfolio_move(const std::vector<LaneState>& lanes, double now, double last,
                                            const PortfolioRule& rule);

// The live portfolio: walker w of lane l runs while w < threads(l); drops come in from the walkers
// (improved), decisions from one monitor thread (tick). Thread-safe.
class Portfolio {
public:
  Portfolio(const std::vector<int>& threads, PortfolioRule rule);
  bool may_walk(int lane, int walker) const { return walker < active_[lane].load(std::memory_order_relaxed); }
  int threads(int lane) const { return active_[lane].load(); }
  int walkers() const { return total_; }  // walkers each lane can hold: every thread of the search
  void improved(int lane, int rank);      // a walker of the lane reached rank (a drop if below its best)
  void improved(int lane, int rank, double at);  // the same at a given time (tests)
  double seconds() const;                 // since the portfolio started
  // A decision now if one is due: the move applied (the donor's highest walker parks, the receiver's
  // next one starts), or none.
  std::optional<PortfolioMove> tick();
  std::optional<PortfolioMove> tick(double now);  // the same at a given time (tests)
  std::vector<LaneState> states() const;
  const PortfolioRule& rule() const { return rule_; }

private:
  PortfolioRule rule_;
  int total_ = 0;
  std::chrono::steady_clock::time_point start_;
  mutable std::mutex mutex_;
  std::vector<LaneState> lanes_;
  std::unique_ptr<std::atomic<int>[]> active_;
  double last_ = 0;
};

}  // namespace tdisc::search::flip
