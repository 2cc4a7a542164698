// When a batched run near its deadline should stop starting restarts: a restart started with less
// time left than most restarts take would only be cut off, counted as started and never completed.
#pragma once
#include <algorithm>
#include <cstddef>
#include <vector>

namespace tdisc::search::numeric {

class WindDown {
public:
  // How long a restart took from its start to its end (stalled or handed over as a near-miss).
  void add(double seconds) {
    if (recent_.size() < kWindow) recent_.push_back(seconds);
    else recent_[next_++ % kWindow] = seconds;
  }
  // Whether a restart started now would likely not end by the deadline: less time left than 90 % of
  // the recent restarts took. Never before kMinimum restarts have ended (no estimate yet).
  bool too_late(double seconds_left) const {
    if (recent_.size() < kMinimum) return false;
    std::vector<double> d = recent_;
    const size_t q = d.size() * 9 / 10;
    std::nth_element(d.begin(), d.begin() + static_cast<long>(q), d.end());
    return seconds_left < d[q];
  }

private:
  static constexpr size_t kWindow = 512, kMinimum = 32;
  std::vector<double> recent_;
  size_t next_ = 0;
};

}  // namespace tdisc::search::numeric
