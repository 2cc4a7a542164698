// Classes of the 6-fold symmetry (cyclic shift × index reversal J, Moosbauer–Poole 2025): pairing a
// Z3 orbit with its J-image, and J-invariant diagonal starting points as the anchor's case files choose them.
#include "src/search/flip/reversal.hpp"

#include <algorithm>
#include <array>
#include <map>

#include "base/error.hpp"

namespace tdisc::search::flip {

namespace {

using Key = std::vector<std::uint64_t>;  // the words of three factors, then the sign

void append(Key& k, std::uint64_t v) { k.push_back(v); }
template <int W>
void append(Key& k, const Bits<W>& v) {
  k.insert(k.end(), v.w.begin(), v.w.end());
}
template <class Wd>
void append(Key& k, const PlanesOf<Wd>& v) {
  append(k, v.p);
  append(k, v.n);
}

template <class Vec>
Key key_of(const Vec& a, const Vec& b, const Vec& c, int sign) {
  Key k;
  for (const Vec* f : {&a, &b, &c}) append(k, *f);
  k.push_back(static_cast<std::uint64_t>(sign + 1));
  return k;
}

// J of a normalised factor, normalised; the sign it took out multiplies `sign`.
template <class F>
typename F::Vec image(const typename F::Vec& v, int shift, int& sign) {
  sign *= top_sign(v);
  typename F::Vec j = reversed(v, shift);
  F::normalize(j);
  return j;
}

template <class F>
bool fixed_terms_invariant(const OrbitTerms<F>& o, int shift) {
  std::map<Key, int> count;
  for (size_t i = 0; i < o.fixed.size(); ++i) ++count[key_of(o.fixed[i], o.fixed[i], o.fixed[i], o.fixed_sign[i])];
  for (size_t i = 0; i < o.fixed.size(); ++i) {
    int s = o.fixed_sign[i];
    const auto a = image<F>(o.fixed[i], shift, s);  // σ³ = σ: one factor's sign is all three's
    if (--count[key_of(a, a, a, s)] < 0) return false;
  }
  return true;
}

}  // namespace

template <class F>
std::optional<OrbitTerms<F>> pair_reversed(const OrbitTerms<F>& o, int n, std::string* why_not) {
  TDISC_REQUIRE(o.images == 1, "pair_reversed: the orbits are paired already");
  const int shift = F::kBits - n * n;
  auto fail = [&](const std::string& why) {
    if (why_not) *why_not = why;
    return std::nullopt;
  };
  if (!fixed_terms_invariant(o, shift)) return fail("its fixed terms a⊗a⊗a are not invariant under the index reversal J");
  std::map<Key, std::vector<int>> unused;  // orbits by their representative
  const int K = o.orbits();
  auto at = [&](int j, int k) { return o.x[3 * j + k]; };
  for (int j = K - 1; j >= 0; --j) unused[key_of(at(j, 0), at(j, 1), at(j, 2), o.sign[j])].push_back(j);
  std::vector<bool> used(K, false);
  OrbitTerms<F> out;
  out.fixed = o.fixed, out.fixed_sign = o.fixed_sign, out.images = 2;
  for (int j = 0; j < K; ++j) {
    if (used[j]) continue;
    used[j] = true;
    int s = o.sign[j];
    std::array<typename F::Vec, 3> im;
    for (int k = 0; k < 3; ++k) im[k] = image<F>(at(j, k), shift, s);
    int partner = -1;
    for (int r = 0; r < 3 && partner < 0; ++r) {  // the image orbit, under any of its rotations
      auto it = unused.find(key_of(im[r], im[(r + 1) % 3], im[(r + 2) % 3], s));
      if (it == unused.end()) continue;
      for (int cand : it->second)
        if (!used[cand]) partner = cand;
    }
    if (partner < 0)
      return fail("orbit " + std::to_string(j + 1) + " has no image under the index reversal J (i,j) ↦ (n−1−i, n−1−j)");
    used[partner] = true;
    for (int k = 0; k < 3; ++k) out.x.push_back(at(j, k));
    out.sign.push_back(o.sign[j]);
    for (int k = 0; k < 3; ++k) out.x.push_back(im[k]);
    out.sign.push_back(static_cast<std::int8_t>(s));
  }
  return out;
}

namespace {

bool mirror_invariant(const Diagonal& d, int n) {
  std::vector<int> part(n, -1);
  for (size_t p = 0; p < d.size(); ++p)
    for (int i : d[p]) part[i] = static_cast<int>(p);
  for (const auto& P : d)  // J(P) must be one part: all of P's mirrors in the part of the first one's
    for (int i : P)
      if (part[n - 1 - i] != part[n - 1 - P.front()] || d[part[n - 1 - i]].size() != P.size()) return false;
  return true;
}

}  // namespace

std::optional<Diagonal> auto_reversed_diagonal(int n, int target_rank) {
  for (int k = 1; k <= n; ++k) {
    if (((target_rank - k) % 6 + 6) % 6 != 0) continue;
    Diagonal d;
    if (n % k == 0) {  // consecutive equal blocks: J maps block b to block k−1−b
      for (int b = 0; b < k; ++b) {
        d.emplace_back();
        for (int i = b * (n / k); i < (b + 1) * (n / k); ++i) d.back().push_back(i);
      }
      return d;
    }
    for (int i = 0; i < n - 1 - i; ++i) d.push_back({i, n - 1 - i});  // mirror pairs, then the centre
    if (n % 2) d.push_back({n / 2});
    while (static_cast<int>(d.size()) < k) {  // too few parts: a mirror pair becomes two singletons
      const size_t p = std::find_if(d.begin(), d.end(), [](const auto& P) { return P.size() == 2; }) - d.begin();
      const int i = d[p].back();
      d[p].pop_back();
      d.push_back({i});
    }
    while (static_cast<int>(d.size()) > k) {  // too many: the last two atoms merge
      d[d.size() - 2].insert(d[d.size() - 2].end(), d.back().begin(), d.back().end());
      d.pop_back();
    }
    return d;
  }
  return std::nullopt;
}

Diagonal parse_reversed_diagonal(const std::string& text, int n, int target_rank) {
  if (text == "auto") {
    auto d = auto_reversed_diagonal(n, target_rank);
    if (!d)
      throw UsageError("symmetry s3: no rank-" + std::to_string(target_rank) + " walk for " + std::to_string(n) + "x" +
                       std::to_string(n) + ": an s3 walk keeps its k fixed diagonal terms (1 ≤ k ≤ " + std::to_string(n) +
                       ") and changes the rank by 6, so it reaches only ranks ≡ k (mod 6)");
    return *d;
  }
  Diagonal d = parse_diagonal(text, n, target_rank);
  if (!mirror_invariant(d, n))
    throw UsageError("symmetry s3: diagonal " + diagonal_text(d) +
                     " is not invariant under the reversal i ↦ n−1−i (each part must map onto a part)");
  return d;
}

#define TDISC_PAIR_REVERSED(F) template std::optional<OrbitTerms<F>> pair_reversed<F>(const OrbitTerms<F>&, int, std::string*);
TDISC_FLIP_FIELDS(TDISC_PAIR_REVERSED)

}  // namespace tdisc::search::flip
