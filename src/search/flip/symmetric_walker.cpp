// The symmetric walker's bookkeeping (Moosbauer–Poole 2025 on the Kauers–Moosbauer pair index): one
// table of factor positions, flip pairs across orbits, pending reductions, degenerate orbits, best state.
#include "src/search/flip/symmetric_walker.hpp"

#include <algorithm>
#include <type_traits>

#include "decomposition/error.hpp"

namespace tdisc::search::flip {

template <class F>
SymmetricWalker<F>::SymmetricWalker(Format format, WalkParams params, std::uint64_t seed)
    : Core(format, params, seed) {
  TDISC_REQUIRE(format.n == format.m && format.m == format.p, "SymmetricWalker: Z3 symmetry needs a square format");
  TDISC_REQUIRE(format.a_size() <= 64, "SymmetricWalker: a factor must fit one 64-bit word");
}

template <class F>
void SymmetricWalker<F>::load(const Terms<F>& t) {
  std::string why;
  auto o = split_orbits<F>(t, &why);
  TDISC_REQUIRE(o.has_value(), "SymmetricWalker::load: the scheme is not Z3-invariant: " + why);
  load(*o);
}

template <class F>
void SymmetricWalker<F>::load(const OrbitTerms<F>& o) {
  o_ = o;
  std::vector<int> dead;
  for (int j = 0; j < o_.orbits(); ++j)
    if (settle_degenerate(j)) dead.push_back(j);
  std::sort(dead.begin(), dead.end(), std::greater<>());
  for (int j : dead) erase_orbit(j);
  rebuild();
  this->loaded();
}

template <class F>
void SymmetricWalker<F>::rebuild() {
  const int P = 3 * o_.orbits();
  TDISC_REQUIRE(P + 3 < 32000, "SymmetricWalker: too many orbits");
  const int cap = std::max(P + 48, pairs_.capacity());
  pairs_.reset(cap);
  pending_.clear();
  buckets_.reset(cap);
  for (int p = 0; p < P; ++p) {
    for (int u = buckets_.head(o_.x[p]); u >= 0; u = buckets_.next(u))
      if (orbit_of(u) != orbit_of(p)) note_pair(p, u);
    buckets_.insert(o_.x[p], p);
  }
  this->indexed(pairs_.size() == 0);
}

template <class F>
void SymmetricWalker<F>::note_pair(int p, int q) {
  pairs_.add(p, q);
  // Rotate both orbits so the shared factor comes first: a second equal slot makes them reducible.
  const auto& x = o_.x;
  if (params_.reductions && (x[at(p, 1)] == x[at(q, 1)] || x[at(p, 2)] == x[at(q, 2)])) pending_.emplace_back(p, q);
}

template <class F>
void SymmetricWalker<F>::set_factor(int p, Vec v) {
  const Vec old = o_.x[p];
  if (old == v) return;
  const std::uint32_t from = buckets_.find(old);
  for (int u = buckets_.first(from); u >= 0; u = buckets_.next(u))
    if (orbit_of(u) != orbit_of(p)) pairs_.remove(p, u);
  buckets_.unlink(from, p);
  o_.x[p] = v;
  const std::uint32_t to = buckets_.find_or_add(v);
  for (int u = buckets_.first(to); u >= 0; u = buckets_.next(u))
    if (orbit_of(u) != orbit_of(p)) note_pair(p, u);
  buckets_.push(to, p);
}

template <class F>
bool SymmetricWalker<F>::settle_degenerate(int j) {
  if constexpr (std::is_same_v<F, ZT>) {
    return false;  // 3·a⊗a⊗a has no ternary form of rank below 3: the orbit stays
  } else {
    const Vec a = o_.x[3 * j];
    if (!(a == o_.x[3 * j + 1] && a == o_.x[3 * j + 2])) return false;
    if constexpr (std::is_same_v<F, GF2>) {  // 3·a⊗a⊗a = a⊗a⊗a: a fixed term, or none with an equal one
      auto it = std::find(o_.fixed.begin(), o_.fixed.end(), a);
      if (it != o_.fixed.end()) {
        o_.fixed_sign.erase(o_.fixed_sign.begin() + (it - o_.fixed.begin()));
        o_.fixed.erase(it);
      } else {
        o_.fixed.push_back(a);
        o_.fixed_sign.push_back(1);
      }
    }
    return true;  // GF3: 3·a⊗a⊗a = 0
  }
}

template <class F>
void SymmetricWalker<F>::erase_orbit(int j) {
  const int last = o_.orbits() - 1;
  for (int k = 0; k < 3; ++k) o_.x[3 * j + k] = o_.x[3 * last + k];
  o_.sign[j] = o_.sign[last];
  o_.x.resize(3 * last);
  o_.sign.pop_back();
}

template <class F>
void SymmetricWalker<F>::restructure(std::vector<int> dead, std::initializer_list<int> touched) {
  const int before = rank();
  for (int j : touched)
    if (std::find(dead.begin(), dead.end(), j) == dead.end() && settle_degenerate(j)) dead.push_back(j);
  std::sort(dead.begin(), dead.end(), std::greater<>());
  dead.erase(std::unique(dead.begin(), dead.end()), dead.end());
  for (int j : dead) erase_orbit(j);
  rebuild();
  this->dropped(before - rank());
}

template class SymmetricWalker<GF2>;
template class SymmetricWalker<ZT>;
template class SymmetricWalker<GF3>;

}  // namespace tdisc::search::flip
