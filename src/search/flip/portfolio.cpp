// The portfolio's decision and its live state (portfolio.hpp).
#include "src/search/flip/portfolio.hpp"

#include <cstdio>

#include "base/error.hpp"

namespace tdisc::search::flip {

namespace {

std::string seconds_text(double s) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f s", s);
  return b;
}

std::string rank_text(int r) { return r == INT_MAX ? std::string("none") : std::to_string(r); }

bool recent(const LaneState& l, double last) { return l.improved_at > last; }

// The lane takes the receiver's place: a later drop, else the lower rank (then the lower index, by order).
bool better_receiver(const LaneState& a, const LaneState& b) {
  return a.improved_at != b.improved_at ? a.improved_at > b.improved_at : a.best_rank < b.best_rank;
}

// The lane takes the donor's place: an older drop, else the higher rank (ties go to the later index).
bool better_donor(const LaneState& a, const LaneState& b) {
  return a.improved_at != b.improved_at ? a.improved_at < b.improved_at : a.best_rank >= b.best_rank;
}

bool dead(const LaneState& l, const LaneState& receiver, double now, const PortfolioRule& rule) {
  return rule.dead_after > 0 && now - l.improved_at >= rule.dead_after && l.best_rank > receiver.best_rank;
}

}  // namespace

std::optional<PortfolioMove> portfolio_move(const std::vector<LaneState>& lanes, double now, double last,
                                            const PortfolioRule& rule) {
  int to = -1;
  for (int i = 0; i < static_cast<int>(lanes.size()); ++i)
    if (recent(lanes[i], last) && lanes[i].threads > 0 && (to < 0 || better_receiver(lanes[i], lanes[to]))) to = i;
  if (to < 0) return std::nullopt;
  const LaneState& r = lanes[to];
  int from = -1;
  for (int i = 0; i < static_cast<int>(lanes.size()); ++i) {
    const LaneState& l = lanes[i];
    if (i == to || recent(l, last)) continue;
    if (l.threads > 1 || (l.threads == 1 && dead(l, r, now, rule)))
      if (from < 0 || better_donor(l, lanes[from])) from = i;
  }
  if (from < 0) return std::nullopt;
  const LaneState& d = lanes[from];
  PortfolioMove m{from, to, ""};
  m.why = "lane " + std::to_string(to) + " dropped to rank " + rank_text(r.best_rank) + " at " + seconds_text(r.improved_at) +
          "; lane " + std::to_string(from) +
          (d.best_rank == INT_MAX ? std::string(" has not dropped yet")
                                  : " stands at " + rank_text(d.best_rank) + " since " + seconds_text(d.improved_at)) +
          (d.threads == 1 ? " (dead: no drop for " + seconds_text(now - d.improved_at) + ", its last walker goes)" : "");
  return m;
}

Portfolio::Portfolio(const std::vector<int>& threads, PortfolioRule rule)
    : rule_(rule), start_(std::chrono::steady_clock::now()), active_(new std::atomic<int>[threads.size()]) {
  for (size_t i = 0; i < threads.size(); ++i) {
    TDISC_REQUIRE(threads[i] >= 0, "a lane with a negative number of threads");
    lanes_.push_back({threads[i], INT_MAX, 0});
    active_[i] = threads[i];
    total_ += threads[i];
  }
}

double Portfolio::seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

void Portfolio::improved(int lane, int rank) { improved(lane, rank, seconds()); }

void Portfolio::improved(int lane, int rank, double now) {
  std::lock_guard lock(mutex_);
  LaneState& l = lanes_.at(lane);
  if (rank >= l.best_rank) return;
  l.best_rank = rank;
  l.improved_at = now;
}

std::optional<PortfolioMove> Portfolio::tick() { return tick(seconds()); }

std::optional<PortfolioMove> Portfolio::tick(double now) {
  std::lock_guard lock(mutex_);
  if (rule_.every <= 0 || now - last_ < rule_.every) return std::nullopt;
  std::optional<PortfolioMove> m = portfolio_move(lanes_, now, last_, rule_);
  last_ = now;
  if (!m) return m;
  --lanes_[m->from].threads;
  ++lanes_[m->to].threads;
  active_[m->from] = lanes_[m->from].threads;
  active_[m->to] = lanes_[m->to].threads;
  return m;
}

std::vector<LaneState> Portfolio::states() const {
  std::lock_guard lock(mutex_);
  return lanes_;
}

}  // namespace tdisc::search::flip
