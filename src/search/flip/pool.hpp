// The pool of walkers' best states (Kauers–Moosbauer 2022 restarts; the peer tools' "improvements"):
// keeps schemes of the lowest rank seen, hands one to a walker that restarts. Thread-safe.
#pragma once
#include <climits>
#include <mutex>
#include <vector>

#include "src/search/flip/rng.hpp"
#include "src/search/flip/terms.hpp"

namespace tdisc::search::flip {

template <class F>
class Pool {
public:
  explicit Pool(size_t capacity) : capacity_(capacity) {}
  // Offers a walker's best state; returns true when it lowers the pool's rank.
  bool offer(const Terms<F>& t, Rng& rng) {
    std::lock_guard lock(mutex_);
    if (t.rank() < rank_) {
      rank_ = t.rank();
      states_.assign(1, t);
      return true;
    }
    if (t.rank() == rank_) {
      if (states_.size() < capacity_) states_.push_back(t);
      else states_[rng.below(static_cast<std::uint32_t>(states_.size()))] = t;
    }
    return false;
  }
  int rank() const {
    std::lock_guard lock(mutex_);
    return rank_;
  }
  // A random state of the pool's rank (the pool must not be empty).
  Terms<F> sample(Rng& rng) const {
    std::lock_guard lock(mutex_);
    return states_[rng.below(static_cast<std::uint32_t>(states_.size()))];
  }
  std::vector<Terms<F>> states() const {
    std::lock_guard lock(mutex_);
    return states_;
  }

private:
  mutable std::mutex mutex_;
  size_t capacity_;
  int rank_ = INT_MAX;
  std::vector<Terms<F>> states_;
};

}  // namespace tdisc::search::flip
