// One random walk in the flip graph of a format over GF2, GF3 or ZT: flips, reductions and plus
// transitions (Kauers–Moosbauer 2022; Arai–Ichikawa–Hukushima 2024) on the WalkCore ladder.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "decomposition/format.hpp"
#include "src/search/flip/buckets.hpp"
#include "src/search/flip/field.hpp"
#include "src/search/flip/pair_index.hpp"
#include "src/search/flip/rng.hpp"
#include "src/search/flip/walk_core.hpp"

namespace tdisc::search::flip {

// The plain walker: the scheme, its pair index and its moves; the ladder and the books are WalkCore's.
template <class F>
class Walker : public WalkCore<F, Walker<F>> {
  using Core = WalkCore<F, Walker<F>>;

public:
  using Vec = typename F::Vec;
  static constexpr int kRankStep = 1;
  Walker(Format format, WalkParams params, std::uint64_t seed);

  void load(const Terms<F>& t);  // restart from a scheme (rebuilds the index)
  const Terms<F>& terms() const { return t_; }
  int rank() const { return t_.rank(); }
  bool reducible() const { return !pending_.empty(); }
  void plus_transition();  // plus.cpp: rank + 1
  void reduce();           // reduce.cpp: rank − 1 (or − 2 when the merged factor vanishes)
  bool flip();             // flip.cpp: one random flip; a zeroed factor drops its term

  size_t available_flips() const { return pairs_.size(); }

private:
  // walker.cpp: index maintenance.
  void rebuild();                         // index and pending reductions from scratch
  void set_factor(int kind, int t, Vec v);  // v normalised and non-zero; keeps the index
  void remove_terms(std::vector<int> dead);  // drops terms (the last moves into each gap), index kept
  void detach(int t);                        // takes term t out of the index (its factors unchanged)
  void attach(int t);                        // puts term t into the index, noting pairs it can reduce
  void detach_kind(int kind, int t);         //   the same for one factor kind
  void attach_kind(int kind, int t);
  // dead_end.cpp (undo_dead_ends): the scheme before a drop, and the undo when the drop left no flip.
  void keep_for_undo(int a, int b);  // before a reduction of the pair (a, b) or a flip that zeroes a factor
  bool undo_dead_end();              // after the drop: true when it was undone

  using Core::format_;
  using Core::params_;
  using Core::rng_;
  Terms<F> t_;
  PairIndex pairs_;                          // every (kind, term, term) sharing a factor
  std::array<Buckets<Vec>, 3> buckets_;      // terms by equal factor, per kind
  std::vector<std::pair<int, int>> pending_;  // term pairs sharing two factors (stale ones are skipped)
  int cap_ = 0;                               // terms the index can number (rebuild grows it)
  Terms<F> before_drop_;                      // the scheme before the last drop (undo_dead_ends only)
  std::pair<int, int> drop_pair_{-1, -1};     //   and the reduced pair, struck off after an undo
};

}  // namespace tdisc::search::flip
