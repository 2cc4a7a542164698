// Dead ends: a drop can land on a scheme that shares no factor between two terms, an isolated vertex of
// the flip graph (over GF2 the 4x4:49 schemes from Strassen², Kauers–Moosbauer 2022). With undo_dead_ends
// the walker records it as a best and takes the drop back, so the walk stays on the level above.
#include <algorithm>

#include "src/search/flip/walker.hpp"

namespace tdisc::search::flip {

template <class F>
void Walker<F>::keep_for_undo(int a, int b) {
  before_drop_ = t_;
  drop_pair_ = {a, b};
}

template <class F>
bool Walker<F>::undo_dead_end() {
  if (pairs_.size() != 0 || before_drop_.rank() <= rank()) return false;
  this->dead_end();
  t_ = before_drop_;
  rebuild();
  // the reduction that led here stays pending in the rebuilt index: strike it off, or it is taken again
  const int a = drop_pair_.first, b = drop_pair_.second;  // not a structured binding: clang 14 cannot capture one
  std::erase_if(pending_, [a, b](const std::pair<int, int>& p) {
    return (p.first == a && p.second == b) || (p.first == b && p.second == a);
  });
  before_drop_.sign.clear();
  return true;
}

#define TDISC_DEAD_END(F)                       \
  template bool Walker<F>::undo_dead_end();     \
  template void Walker<F>::keep_for_undo(int, int);
TDISC_FLIP_FIELDS(TDISC_DEAD_END)

}  // namespace tdisc::search::flip
