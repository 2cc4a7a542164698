// One random walk in the flip graph of a format over GF2, GF3 or ZT: flips, reductions and plus
// transitions (Kauers–Moosbauer 2022; Arai–Ichikawa–Hukushima 2024), read as a ladder in step().
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "decomposition/format.hpp"
#include "src/search/flip/buckets.hpp"
#include "src/search/flip/field.hpp"
#include "src/search/flip/pair_index.hpp"
#include "src/search/flip/rng.hpp"

namespace tdisc::search::flip {

// A scheme as the walker holds it: term t = sign[t] · U_t ⊗ V_t ⊗ W_t with each factor normalised
// (lowest non-zero entry +1), so two terms share a factor exactly when the words are equal.
template <class F>
struct Terms {
  using Vec = typename F::Vec;
  std::array<std::vector<Vec>, 3> f;  // 3 × R: f[0] U (n·m bits), f[1] V (m·p), f[2] W (p·n)
  std::vector<std::int8_t> sign;      // R: ±1 (always +1 over GF2)
  int rank() const { return static_cast<int>(sign.size()); }
};

struct WalkParams {
  long plus_min = 5000;     // a plus transition after a random number of flips in [plus_min, plus_max]
  long plus_max = 100000;   //   without a rank drop …
  int plus_diff = 4;        //   … while the rank is below the walker's best + plus_diff
  bool reductions = true;   // apply reductions when two terms share two factors
};

template <class F>
class Walker {
public:
  using Vec = typename F::Vec;
  Walker(Format format, WalkParams params, std::uint64_t seed);

  void load(const Terms<F>& t);  // restart from a scheme (rebuilds the index)
  const Terms<F>& terms() const { return t_; }
  int rank() const { return t_.rank(); }
  int best_rank() const { return best_rank_; }
  const Terms<F>& best() const { return best_; }
  Rng& rng() { return rng_; }
  const Format& format() const { return format_; }

  // The walk itself: one move of the ladder.
  void step() {
    if (plussing()) plus_transition();
    else if (reducible()) reduce();
    else flip();
  }

  bool plussing() const {
    return stuck_ || (flips_since_drop_ >= plus_period_ && rank() < best_rank_ + params_.plus_diff);
  }
  bool reducible() const { return !pending_.empty(); }
  void plus_transition();  // plus.cpp: rank + 1
  void reduce();           // reduce.cpp: rank − 1 (or − 2 when the merged factor vanishes)
  bool flip();             // flip.cpp: one random flip; a zeroed factor drops its term

  // Counters since construction.
  long flips() const { return flips_; }
  long plus_count() const { return plus_count_; }
  long reductions() const { return reductions_; }
  long flips_since_best() const { return flips_since_best_; }
  size_t available_flips() const { return pairs_.size(); }
  void forget_best() { best_rank_ = rank(); best_ = t_; flips_since_best_ = 0; }

private:
  // walker.cpp: index maintenance.
  void rebuild();                         // index and pending reductions from scratch
  void set_factor(int kind, int t, Vec v);  // v normalised and non-zero; keeps the index
  void remove_terms(std::vector<int> dead);  // drops terms, then rebuilds
  void dropped(int by);                   // rank fell by `by`: counters and best state
  void new_plus_period() { plus_period_ = params_.plus_min + static_cast<long>(rng_.below(
                               static_cast<std::uint32_t>(params_.plus_max - params_.plus_min + 1))); }

  Format format_;
  WalkParams params_;
  Rng rng_;
  Terms<F> t_;
  Terms<F> best_;
  int best_rank_ = 0;
  PairIndex pairs_;                          // every (kind, term, term) sharing a factor
  std::array<Buckets<Vec>, 3> buckets_;      // terms by equal factor, per kind
  std::vector<std::pair<int, int>> pending_;  // term pairs sharing two factors
  long flips_ = 0, plus_count_ = 0, reductions_ = 0;
  long flips_since_drop_ = 0, flips_since_best_ = 0, plus_period_ = 0;
  int failed_flips_ = 0;
  bool stuck_ = false;  // no flip applies (over ZT every candidate overflowed): plus next
};

}  // namespace tdisc::search::flip
