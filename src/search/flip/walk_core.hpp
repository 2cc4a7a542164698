// The one skeleton of every flip-graph walker (Kauers–Moosbauer 2022; Arai–Ichikawa–Hukushima 2024):
// the step ladder, the counters, the plus-transition period and the best state, shared by all walkers.
#pragma once
#include <cstdint>

#include "base/error.hpp"
#include "decomposition/format.hpp"
#include "src/search/flip/rng.hpp"
#include "src/search/flip/terms.hpp"

namespace tdisc::search::flip {

// How a flip is drawn: a uniform flip pair, or a uniform shared factor then a pair holding it.
enum class Pick { Pair, Factor };

struct WalkParams {
  long plus_min = 5000;     // a plus transition after a random number of flips in [plus_min, plus_max]
  long plus_max = 100000;   //   without a rank drop …
  int plus_diff = 4;        //   … while the rank is below the walker's best + plus_diff moves
  int plus_ceiling = 0;     //   … and below this rank (0: no ceiling; the anchor's absolute PLUS_TRANSITION_LIMIT)
  bool reductions = true;   // apply reductions when two terms share two factors
  Pick pick = Pick::Pair;   // Factor: draw a shared factor uniformly, then a pair holding it (Moosbauer–Poole's
                            // solver), instead of a uniform pair: rarely shared factors flip as often
  bool undo_dead_ends = false;  // a drop into a scheme with no flip (an isolated vertex such as Strassen² at
                                // 4x4:49 over GF2) is recorded as a best, then undone (dead_end.cpp)
  long kick_after = 0;   // with undo_dead_ends: after this many undone drops since the last best or kick, the
  int kick_plus = 3;     //   walker is circling isolated schemes: kick_plus plus transitions at once, then
  long kick_flips = 2000;  //   kick_flips flips without reductions, so it drifts off before it falls back (0: off)
};

// Self is the walker (CRTP, so the ladder costs no virtual call): it holds the scheme and its index
// and provides the moves, one file each, and the scheme queries:
//   int rank() const;  Terms<F> terms() const (or a reference);  bool reducible() const;
//   void plus_transition();  void reduce();  bool flip();
//   static constexpr int kRankStep: how far one plus transition raises the rank (1 plain, 3 for Z3 orbits, 6 for s3 classes).
// The moves report what they did through the protected hooks below; the skeleton keeps the books.
template <class F, class Self>
class WalkCore {
public:
  // The walk: one move of the ladder.
  void step() {
    if (kicking()) kick();
    else if (plussing()) self().plus_transition();
    else if (holiday_ == 0 && self().reducible()) self().reduce();
    else self().flip();
  }
  // A kick is due when the walker keeps dropping into isolated schemes (undo_dead_ends) without progress.
  bool kicking() const { return params_.kick_after > 0 && dead_ends_since_kick_ >= params_.kick_after; }
  // A plus transition is due when no flip applies, or after plus_period flips without a rank drop
  // while the walk is within plus_diff transitions of its best rank (and below plus_ceiling, if set).
  bool plussing() const {
    return stuck_ || (flips_since_drop_ >= plus_period_ && self().rank() < best_rank_ + Self::kRankStep * params_.plus_diff &&
                      (params_.plus_ceiling == 0 || self().rank() < params_.plus_ceiling));
  }

  int best_rank() const { return best_rank_; }
  const Terms<F>& best() const { return best_; }  // the full scheme
  Rng& rng() { return rng_; }
  const Format& format() const { return format_; }
  const WalkParams& params() const { return params_; }

  // Counters since construction.
  long flips() const { return flips_; }
  long plus_count() const { return plus_count_; }
  long reductions() const { return reductions_; }
  long flips_since_best() const { return flips_since_best_; }
  long kicks() const { return kicks_; }
  long dead_ends() const { return dead_ends_; }  // drops into flip-isolated schemes that were undone
  const Terms<F>& dead_best() const { return dead_best_; }  // the lowest of them (rank 0: none yet)
  long dead_ends_since_best() const { return dead_ends_since_best_; }  // a trap: many drops into isolated schemes
  void forget_best() { best_rank_ = self().rank(); best_ = self().terms(); flips_since_best_ = dead_ends_since_best_ = 0; }

protected:
  WalkCore(Format format, WalkParams params, std::uint64_t seed) : format_(format), params_(params), rng_(seed) {
    TDISC_REQUIRE(params.plus_min >= 1 && params.plus_max >= params.plus_min, "WalkCore: plus period range");
  }

  // Hooks for the walker and its moves.
  void loaded() {  // a new scheme: it is the best so far, and the plateau clock starts again
    best_ = self().terms();
    best_rank_ = self().rank();
    flips_since_drop_ = flips_since_best_ = dead_ends_since_best_ = dead_ends_since_kick_ = holiday_ = 0;
    new_plus_period();
  }
  void indexed(bool no_flips) {  // the index was rebuilt
    stuck_ = no_flips;
    failed_flips_ = 0;
  }
  void flipped() {
    failed_flips_ = 0;
    ++flips_;
    ++flips_since_drop_;
    ++flips_since_best_;
    if (holiday_ > 0) --holiday_;
  }
  // A candidate flip that cannot be applied (ZT: both signs leave {−1,0,1}); after many in a row
  // among `candidates` pairs the walk counts as stuck and plusses.
  void flip_failed(std::size_t candidates) {
    if (++failed_flips_ > 4 * static_cast<long>(candidates) + 16) stuck_ = true;
  }
  void no_flip() { stuck_ = true; }
  void plus_started() {  // a plus transition is under way, whether or not a pair admits one
    stuck_ = false;
    flips_since_drop_ = 0;
    new_plus_period();
  }
  void plussed() { ++plus_count_; }
  // A drop reached a scheme with no flip: it is kept apart from the best state (a restart from it could
  // only plus out again) and the walker takes the drop back; the plateau clock runs on, as nothing was gained.
  void dead_end() {
    ++dead_ends_, ++dead_ends_since_best_, ++dead_ends_since_kick_;
    if (dead_best_.rank() == 0 || self().rank() < dead_best_.rank()) dead_best_ = self().terms();
  }
  void dropped(int by) {  // the rank fell by `by`
    reductions_ += by;
    flips_since_drop_ = 0;
    new_plus_period();
    if (self().rank() < best_rank_) {
      best_rank_ = self().rank();
      best_ = self().terms();
      flips_since_best_ = dead_ends_since_best_ = dead_ends_since_kick_ = 0;
    }
  }

  Format format_;
  WalkParams params_;
  Rng rng_;

private:
  Self& self() { return static_cast<Self&>(*this); }
  const Self& self() const { return static_cast<const Self&>(*this); }
  // The kick: several plus transitions in a row, then a holiday from reductions (flips only).
  void kick() {
    ++kicks_;
    dead_ends_since_kick_ = 0;
    for (int k = 0; k < params_.kick_plus; ++k) self().plus_transition();
    holiday_ = params_.kick_flips;
  }
  void new_plus_period() {
    plus_period_ = params_.plus_min +
                   static_cast<long>(rng_.below(static_cast<std::uint32_t>(params_.plus_max - params_.plus_min + 1)));
  }

  Terms<F> best_, dead_best_;
  int best_rank_ = 0;
  long flips_ = 0, plus_count_ = 0, reductions_ = 0, dead_ends_ = 0, kicks_ = 0;
  long dead_ends_since_kick_ = 0, holiday_ = 0;  // holiday_: flips left before reductions resume
  long flips_since_drop_ = 0, flips_since_best_ = 0, plus_period_ = 0, dead_ends_since_best_ = 0;
  long failed_flips_ = 0;
  bool stuck_ = false;  // no flip applies (over ZT every candidate overflowed): plus next
};

}  // namespace tdisc::search::flip
