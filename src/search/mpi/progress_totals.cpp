// Totals and the slowest rank for the progress line (see progress_totals.hpp). A rank's rate is its
// flips (else moves, else restarts) per second over the last window of at least two seconds.
#include "src/search/mpi/progress_totals.hpp"

#include <algorithm>
#include <cmath>

#include "src/search/mpi/world.hpp"

namespace tdisc::search::mpi {

namespace {

const char* rate_counter(const std::vector<std::map<std::string, double>>& sums) {
  for (const char* c : {"flips", "moves", "restarts"})
    for (const auto& s : sums)
      if (s.count(c)) return c;
  return nullptr;
}

bool lower_is_better(const std::string& counter) { return counter == "rank" || counter == "residual"; }

}  // namespace

ProgressTotals::ProgressTotals(int ranks)
    : sums_(static_cast<size_t>(ranks)), levels_(static_cast<size_t>(ranks)), last_sum_(static_cast<size_t>(ranks), 0) {}

void ProgressTotals::record(int rank, const std::map<std::string, double>& added, const std::map<std::string, double>& set) {
  std::lock_guard lock(mutex_);
  for (const auto& [k, v] : added) sums_[static_cast<size_t>(rank)][k] += v;
  for (const auto& [k, v] : set) levels_[static_cast<size_t>(rank)][k] = v;
}

void ProgressTotals::publish(Reporter& base) {
  std::map<std::string, double> combined;
  int slowest = -1;
  double slowest_rate = 0;
  bool window = false;
  {
    std::lock_guard lock(mutex_);
    for (const auto& levels : levels_)
      for (const auto& [k, v] : levels) {
        auto it = combined.find(k);
        if (it == combined.end()) combined[k] = v;
        else it->second = lower_is_better(k) ? std::min(it->second, v) : std::max(it->second, v);
      }
    const double now = wall_time();
    const char* c = rate_counter(sums_);
    if (last_t_ < 0) last_t_ = now;
    if (c && now - last_t_ >= 2) {
      for (size_t r = 0; r < sums_.size(); ++r) {
        const double sum = sums_[r].count(c) ? sums_[r].at(c) : 0;
        const double rate = (sum - last_sum_[r]) / (now - last_t_);
        last_sum_[r] = sum;
        if (slowest < 0 || rate < slowest_rate) slowest = static_cast<int>(r), slowest_rate = rate;
      }
      last_t_ = now;
      window = true;
    }
  }
  for (const auto& [k, v] : combined) base.set(k, v);
  base.set("ranks", static_cast<double>(levels_.size()));
  if (window) {
    base.set("slowest_rank", slowest);
    base.set("slowest_rate", slowest_rate);
  }
}

}  // namespace tdisc::search::mpi
