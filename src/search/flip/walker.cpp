// The plain walker's index: the incremental pair index (Kauers–Moosbauer 2022), pending reductions
// and term removal. The moves live in flip/reduce/plus.cpp, the counters and best state in WalkCore.
#include "src/search/flip/walker.hpp"

#include <algorithm>

#include "base/error.hpp"

namespace tdisc::search::flip {

template <class F>
Walker<F>::Walker(Format format, WalkParams params, std::uint64_t seed)
    : Core(format, params, seed) {
  TDISC_REQUIRE(format.a_size() <= F::kBits && format.b_size() <= F::kBits && format.c_size() <= F::kBits,
                "a factor must fit the walker's " + std::to_string(F::kWords) + " word(s)");
}

template <class F>
void Walker<F>::load(const Terms<F>& t) {
  t_ = t;
  rebuild();
  this->loaded();
}

template <class F>
void Walker<F>::rebuild() {
  const int R = rank();
  TDISC_REQUIRE(R + 16 <= PairIndex::kMaxTerms, "rank must stay below 32752");
  const int cap = std::max(R + 16, pairs_.capacity());
  cap_ = cap;
  pairs_.reset(cap);
  pending_.clear();
  for (int k = 0; k < 3; ++k) buckets_[k].reset(cap);
  for (int t = 0; t < R; ++t)
    for (int k = 0; k < 3; ++k) {
      for (int u = buckets_[k].head(t_.f[k][t]); u >= 0; u = buckets_[k].next(u)) {
        pairs_.add(k, t, u);
        // a pair sharing two factors is reducible; note it once, at its first shared kind
        bool earlier = false;
        for (int k2 = 0; k2 < k; ++k2) earlier = earlier || t_.f[k2][t] == t_.f[k2][u];
        bool later = false;
        for (int k2 = k + 1; k2 < 3; ++k2) later = later || t_.f[k2][t] == t_.f[k2][u];
        if (params_.reductions && !earlier && later) pending_.emplace_back(t, u);
      }
      buckets_[k].insert(t_.f[k][t], t);
    }
  this->indexed(pairs_.size() == 0);
}

template <class F>
void Walker<F>::set_factor(int kind, int t, Vec v) {
  if (t_.f[kind][t] == v) return;
  detach_kind(kind, t);
  t_.f[kind][t] = v;
  attach_kind(kind, t);
}

template <class F>
void Walker<F>::detach_kind(int k, int t) {
  auto& b = buckets_[k];
  const std::uint32_t slot = b.find(t_.f[k][t]);
  for (int u = b.first(slot); u >= 0; u = b.next(u))
    if (u != t) pairs_.remove(k, t, u);
  b.unlink(slot, t);
}

template <class F>
void Walker<F>::attach_kind(int k, int t) {
  auto& b = buckets_[k];
  const auto& other1 = t_.f[k == 2 ? 0 : k + 1];
  const auto& other2 = t_.f[k == 0 ? 2 : k - 1];
  const std::uint32_t to = b.find_or_add(t_.f[k][t]);
  for (int u = b.first(to); u >= 0; u = b.next(u)) {
    pairs_.add(k, t, u);
    if (params_.reductions && (other1[u] == other1[t] || other2[u] == other2[t])) pending_.emplace_back(t, u);
  }
  b.push(to, t);
}

template <class F>
void Walker<F>::detach(int t) {
  for (int k = 0; k < 3; ++k) detach_kind(k, t);
}

template <class F>
void Walker<F>::attach(int t) {
  for (int k = 0; k < 3; ++k) attach_kind(k, t);
}

template <class F>
void Walker<F>::remove_terms(std::vector<int> dead) {
  std::sort(dead.begin(), dead.end(), std::greater<>());
  dead.erase(std::unique(dead.begin(), dead.end()), dead.end());
  for (int d : dead) {  // the last term moves into d's place; the index follows term by term
    const int last = rank() - 1;
    detach(d);
    if (d != last) detach(last);
    for (int k = 0; k < 3; ++k) {
      t_.f[k][d] = t_.f[k][last];
      t_.f[k].pop_back();
    }
    t_.sign[d] = t_.sign[last];
    t_.sign.pop_back();
    if (d != last) attach(d);
  }
  this->indexed(pairs_.size() == 0);
  if (params_.undo_dead_ends && undo_dead_end()) return;
  this->dropped(static_cast<int>(dead.size()));
}

#define TDISC_WALKER(F) template class Walker<F>;
TDISC_FLIP_FIELDS(TDISC_WALKER)

}  // namespace tdisc::search::flip
