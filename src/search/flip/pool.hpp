// The pool of walkers' best states (Kauers–Moosbauer 2022 restarts; the peer tools' "improvements"),
// kept per rank level as in Kauers–Moosbauer's mod-2 runs: restarts draw from the lowest level that
// holds level_fill states, so one lucky state does not pull every walker into its basin. Thread-safe.
#pragma once
#include <algorithm>
#include <climits>
#include <map>
#include <mutex>
#include <vector>

#include "src/search/flip/rng.hpp"
#include "src/search/flip/terms.hpp"

namespace tdisc::search::flip {

template <class F>
class Pool {
public:
  // capacity: states kept per level; level_fill: states a level needs before restarts draw from it
  // (1: the lowest rank seen, at once).
  explicit Pool(size_t capacity, size_t level_fill = 1) : capacity_(capacity), fill_(std::max<size_t>(1, level_fill)) {}
  // Offers a walker's state; returns true when it lowers the pool's rank (the level restarts draw from).
  bool offer(const Terms<F>& t, Rng& rng) {
    std::lock_guard lock(mutex_);
    const int before = active_rank();
    auto& level = levels_[t.rank()];
    ++version_;
    if (level.size() < capacity_) level.push_back(t);
    else level[rng.below(static_cast<std::uint32_t>(level.size()))] = t;
    // Levels above the active one are no longer drawn from: forget them (keeps memory bounded).
    const int active = active_rank();
    levels_.erase(levels_.upper_bound(active), levels_.end());
    return active < before;
  }
  // The rank restarts draw from (INT_MAX while empty).
  int rank() const {
    std::lock_guard lock(mutex_);
    return active_rank();
  }
  int lowest_rank() const {  // the lowest rank held, filled or not
    std::lock_guard lock(mutex_);
    return levels_.empty() ? INT_MAX : levels_.begin()->first;
  }
  // A random state of the active level (the pool must not be empty).
  Terms<F> sample(Rng& rng) const {
    std::lock_guard lock(mutex_);
    const auto& level = levels_.at(active_rank());
    return level[rng.below(static_cast<std::uint32_t>(level.size()))];
  }
  // Counts the offers taken: equal versions mean equal pools.
  long version() const {
    std::lock_guard lock(mutex_);
    return version_;
  }
  std::vector<Terms<F>> states() const {  // every level, lowest first
    std::lock_guard lock(mutex_);
    std::vector<Terms<F>> out;
    for (const auto& [r, level] : levels_) out.insert(out.end(), level.begin(), level.end());
    return out;
  }

private:
  // The lowest level holding fill_ states, or the highest level when none is that full yet.
  int active_rank() const {
    if (levels_.empty()) return INT_MAX;
    for (const auto& [r, level] : levels_)
      if (level.size() >= fill_) return r;
    return levels_.rbegin()->first;
  }
  mutable std::mutex mutex_;
  size_t capacity_, fill_;
  std::map<int, std::vector<Terms<F>>> levels_;  // rank → states
  long version_ = 0;
};

}  // namespace tdisc::search::flip
