// The symmetric walker's bookkeeping (Moosbauer–Poole 2025 on the Kauers–Moosbauer pair index): one
// table of factor positions, flip pairs across classes, pending reductions, degenerate classes, J-images.
#include "src/search/flip/symmetric_walker.hpp"

#include <algorithm>
#include <type_traits>

#include "base/error.hpp"
#include "src/search/flip/reversal.hpp"

namespace tdisc::search::flip {

template <class F, int kImages>
SymmetricWalker<F, kImages>::SymmetricWalker(Format format, WalkParams params, std::uint64_t seed)
    : Core(format, params, seed), shift_(F::kBits - format.n * format.n) {
  TDISC_REQUIRE(format.n == format.m && format.m == format.p, "SymmetricWalker: Z3 symmetry needs a square format");
  TDISC_REQUIRE(format.a_size() <= F::kBits, "SymmetricWalker: a factor must fit the walker's words");
}

template <class F, int kImages>
void SymmetricWalker<F, kImages>::load(const Terms<F>& t) {
  std::string why;
  auto o = split_orbits<F>(t, &why);
  TDISC_REQUIRE(o.has_value(), "SymmetricWalker::load: the scheme is not Z3-invariant: " + why);
  if constexpr (kImages == 2) {
    o = pair_reversed<F>(*o, format_.n, &why);
    TDISC_REQUIRE(o.has_value(), "SymmetricWalker::load: the scheme is not J-invariant: " + why);
  }
  load(*o);
}

template <class F, int kImages>
void SymmetricWalker<F, kImages>::load(const OrbitTerms<F>& o) {
  TDISC_REQUIRE(o.images == kImages, "SymmetricWalker::load: orbits grouped for another symmetry");
  o_ = o;
  std::vector<int> dead;
  for (int j = 0; j < o_.orbits() / kImages; ++j)
    if (settle_degenerate(j)) dead.push_back(j);
  std::sort(dead.begin(), dead.end(), std::greater<>());
  for (int j : dead) erase_orbit(j);
  rebuild();
  this->loaded();
}

template <class F, int kImages>
void SymmetricWalker<F, kImages>::rebuild() {
  const int P = 3 * o_.orbits();
  TDISC_REQUIRE(P + 3 * kImages < 32000, "SymmetricWalker: too many orbits");
  const int cap = std::max(P + 48, pairs_.capacity());
  pairs_.reset(cap);
  pending_.clear();
  buckets_.reset(cap);
  holders_.assign(cap, 1);
  for (int p = 0; p < P; ++p) {
    for (int u = buckets_.head(o_.x[p]); u >= 0; u = buckets_.next(u)) {
      if (orbit_of(u) != orbit_of(p)) note_pair(p, u);
      if (params_.pick == Pick::Factor) holders_[p] = ++holders_[u];
    }
    buckets_.insert(o_.x[p], p);
  }
  this->indexed(pairs_.size() == 0);
}

template <class F, int kImages>
void SymmetricWalker<F, kImages>::note_pair(int p, int q) {
  pairs_.add(p, q);
  // Rotate both orbits so the shared factor comes first: a second equal slot makes them reducible.
  const auto& x = o_.x;
  if (params_.reductions && (x[at(p, 1)] == x[at(q, 1)] || x[at(p, 2)] == x[at(q, 2)])) pending_.emplace_back(p, q);
}

template <class F, int kImages>
void SymmetricWalker<F, kImages>::set_factor(int p, Vec v) {
  const Vec old = o_.x[p];
  if (old == v) return;
  const std::uint32_t from = buckets_.find(old);
  for (int u = buckets_.first(from); u >= 0; u = buckets_.next(u)) {
    if (orbit_of(u) != orbit_of(p)) pairs_.remove(p, u);
    if (params_.pick == Pick::Factor) --holders_[u];
  }
  buckets_.unlink(from, p);
  o_.x[p] = v;
  const std::uint32_t to = buckets_.find_or_add(v);
  holders_[p] = 1;
  for (int u = buckets_.first(to); u >= 0; u = buckets_.next(u)) {
    if (orbit_of(u) != orbit_of(p)) note_pair(p, u);
    if (params_.pick == Pick::Factor) holders_[p] = ++holders_[u];
  }
  buckets_.push(to, p);
}

// The partner triple holds J of each factor, normalised; its sign is the triple's times the signs
// that normalising took out (top_sign: J's lowest entry is the factor's highest).
template <class F, int kImages>
void SymmetricWalker<F, kImages>::mirror_factor(int p) {
  const int t = triple_of(p), u = t ^ 1;
  Vec v = reversed(o_.x[p], shift_);
  F::normalize(v);
  set_factor(partner(p), v);
  o_.sign[u] = static_cast<std::int8_t>(o_.sign[t] * top_sign(o_.x[3 * t]) * top_sign(o_.x[3 * t + 1]) * top_sign(o_.x[3 * t + 2]));
}

template <class F, int kImages>
void SymmetricWalker<F, kImages>::mirror_triple(int t) {
  const int u = t ^ 1;
  int s = o_.sign[t];
  for (int k = 0; k < 3; ++k) {
    Vec v = reversed(o_.x[3 * t + k], shift_);
    s *= F::normalize(v);
    o_.x[3 * u + k] = v;
  }
  o_.sign[u] = static_cast<std::int8_t>(s);
}

template <class F, int kImages>
bool SymmetricWalker<F, kImages>::cancels(int j) const {
  if constexpr (kImages == 1) {
    return false;
  } else {
    const int a = 6 * j, b = a + 3;
    if (!(o_.x[a] == o_.x[b] && o_.x[a + 1] == o_.x[b + 1] && o_.x[a + 2] == o_.x[b + 2])) return false;
    return !F::has_signs || o_.sign[2 * j] == -o_.sign[2 * j + 1];  // GF2: T + T = 0
  }
}

template <class F, int kImages>
bool SymmetricWalker<F, kImages>::settle_degenerate(int j) {
  if (cancels(j)) return true;
  if constexpr (F::characteristic == 0) {
    return false;  // 3·a⊗a⊗a has no ternary form of rank below 3: the orbit stays
  } else {
    const Vec a = o_.x[kClass * j];
    if (!(a == o_.x[kClass * j + 1] && a == o_.x[kClass * j + 2])) return false;
    if constexpr (F::characteristic == 2) {  // 3·a⊗a⊗a = a⊗a⊗a: a fixed term, or none with an equal one
      for (int i = 0; i < kImages; ++i) {    // (with J: a and J(a), both cubes; the fixed set stays J-invariant)
        const Vec c = o_.x[kClass * j + 3 * i];
        auto it = std::find(o_.fixed.begin(), o_.fixed.end(), c);
        if (it != o_.fixed.end()) {
          o_.fixed_sign.erase(o_.fixed_sign.begin() + (it - o_.fixed.begin()));
          o_.fixed.erase(it);
        } else {
          o_.fixed.push_back(c);
          o_.fixed_sign.push_back(1);
        }
      }
    }
    return true;  // GF3: 3·a⊗a⊗a = 0
  }
}

template <class F, int kImages>
void SymmetricWalker<F, kImages>::erase_orbit(int j) {
  const int last = o_.orbits() / kImages - 1;
  for (int k = 0; k < kClass; ++k) o_.x[kClass * j + k] = o_.x[kClass * last + k];
  for (int i = 0; i < kImages; ++i) o_.sign[kImages * j + i] = o_.sign[kImages * last + i];
  o_.x.resize(kClass * last);
  o_.sign.resize(kImages * last);
}

template <class F, int kImages>
void SymmetricWalker<F, kImages>::restructure(std::vector<int> dead, std::initializer_list<int> touched) {
  const int before = rank();
  for (int j : touched)
    if (std::find(dead.begin(), dead.end(), j) == dead.end() && settle_degenerate(j)) dead.push_back(j);
  std::sort(dead.begin(), dead.end(), std::greater<>());
  dead.erase(std::unique(dead.begin(), dead.end()), dead.end());
  for (int j : dead) erase_orbit(j);
  rebuild();
  this->dropped(before - rank());
}

#define TDISC_SYMMETRIC_WALKER(F)         \
  template class SymmetricWalker<F, 1>;   \
  template class SymmetricWalker<F, 2>;
TDISC_FLIP_FIELDS(TDISC_SYMMETRIC_WALKER)

}  // namespace tdisc::search::flip
