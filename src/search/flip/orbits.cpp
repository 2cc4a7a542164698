// Fixed terms and orbits of the cyclic factor shift (u,v,w) → (v,w,u), and the diagonal starting
// points of Moosbauer–Poole 2025 ("Flip graphs with symmetry and new matrix multiplication schemes").
#include "src/search/flip/orbits.hpp"

#include <cstdlib>
#include <sstream>
#include <unordered_map>

#include "base/error.hpp"
#include "src/search/flip/buckets.hpp"

namespace tdisc::search::flip {

namespace {

template <class Vec>
struct TermKey {
  Vec a, b, c;
  int sign;
  friend bool operator==(const TermKey&, const TermKey&) = default;
};

template <class Vec>
struct TermKeyHash {
  size_t operator()(const TermKey<Vec>& k) const {
    return static_cast<size_t>(factor_hash(k.a) ^ (factor_hash(k.b) >> 1) ^ (factor_hash(k.c) >> 2) ^
                               static_cast<std::uint64_t>(k.sign + 1));
  }
};

// Appends sign·a⊗b⊗c with each factor normalised (the sign collects theirs).
template <class F>
void push_normalised(Terms<F>& t, typename F::Vec a, typename F::Vec b, typename F::Vec c, int sign) {
  sign *= F::normalize(a) * F::normalize(b) * F::normalize(c);
  t.f[0].push_back(a);
  t.f[1].push_back(b);
  t.f[2].push_back(c);
  t.sign.push_back(static_cast<std::int8_t>(F::has_signs ? sign : 1));
}

template <class F>
typename F::Vec unit(int n, int row, int col) {
  typename F::Vec v = F::zero();
  F::set_entry(v, row * n + col, 1);  // A, B and W of ⟨n,n,n⟩ all flatten row-major with stride n
  return v;
}

}  // namespace

template <class F>
std::optional<OrbitTerms<F>> split_orbits(const Terms<F>& t, std::string* why_not) {
  using Key = TermKey<typename F::Vec>;
  std::unordered_map<Key, int, TermKeyHash<typename F::Vec>> unused;  // copies not yet placed (equal terms are interchangeable)
  const int R = t.rank();
  auto key = [&](int r, int rot) {
    return Key{t.f[rot % 3][r], t.f[(rot + 1) % 3][r], t.f[(rot + 2) % 3][r], t.sign[r]};
  };
  for (int r = 0; r < R; ++r) ++unused[key(r, 0)];
  OrbitTerms<F> o;
  for (int r = 0; r < R; ++r) {
    int& own = unused[key(r, 0)];
    if (own == 0) continue;  // every copy already placed as the rotation of an earlier term
    --own;
    if (t.f[0][r] == t.f[1][r] && t.f[1][r] == t.f[2][r] && own >= 2) {
      own -= 2;  // three equal terms a⊗a⊗a: a degenerate orbit (a,a,a), so a walker can still flip it
      for (int k = 0; k < 3; ++k) o.x.push_back(t.f[k][r]);
      o.sign.push_back(t.sign[r]);
      continue;
    }
    if (t.f[0][r] == t.f[1][r] && t.f[1][r] == t.f[2][r]) {
      o.fixed.push_back(t.f[0][r]);
      o.fixed_sign.push_back(t.sign[r]);
      continue;
    }
    for (int rot = 1; rot <= 2; ++rot) {
      auto it = unused.find(key(r, rot));
      if (it == unused.end() || it->second == 0) {
        if (why_not) *why_not = "term " + std::to_string(r + 1) + " has no rotated partner (v,w,u) / (w,u,v)";
        return std::nullopt;
      }
      --it->second;
    }
    for (int k = 0; k < 3; ++k) o.x.push_back(t.f[k][r]);
    o.sign.push_back(t.sign[r]);
  }
  return o;
}

template <class F>
Terms<F> expand_orbits(const OrbitTerms<F>& o) {
  Terms<F> t;
  for (size_t i = 0; i < o.fixed.size(); ++i) {
    for (int k = 0; k < 3; ++k) t.f[k].push_back(o.fixed[i]);
    t.sign.push_back(o.fixed_sign[i]);
  }
  for (int j = 0; j < o.orbits(); ++j)
    for (int rot = 0; rot < 3; ++rot) {
      for (int k = 0; k < 3; ++k) t.f[k].push_back(o.x[3 * j + (rot + k) % 3]);
      t.sign.push_back(o.sign[j]);
    }
  return t;
}

std::optional<Diagonal> auto_diagonal(int n, int target_rank) {
  for (int k = 1; k <= n; ++k) {
    if (((target_rank - k) % 3 + 3) % 3 != 0) continue;
    Diagonal d(k);
    for (int i = 0, part = 0; part < k; ++part) {
      const int size = n / k + (part < n % k ? 1 : 0);  // larger blocks first: 5 → {0,1},{2,3},{4}
      for (int s = 0; s < size; ++s) d[part].push_back(i++);
    }
    return d;
  }
  return std::nullopt;
}

Diagonal parse_diagonal(const std::string& text, int n, int target_rank) {
  if (text == "auto") {
    auto d = auto_diagonal(n, target_rank);
    if (!d)
      throw UsageError("symmetry z3: no rank-" + std::to_string(target_rank) + " walk for " + std::to_string(n) + "x" +
                       std::to_string(n) + ": a symmetric walk keeps its k fixed diagonal terms (1 ≤ k ≤ " +
                       std::to_string(n) + ") and changes the rank by 3, so it reaches only ranks ≡ k (mod 3)");
    return *d;
  }
  Diagonal d(1);
  std::vector<int> seen(n, 0);
  std::string number;
  auto take = [&] {
    char* end = nullptr;
    long i = number.empty() ? -1 : std::strtol(number.c_str(), &end, 10);
    if (number.empty() || *end != '\0' || i < 0 || i >= n)
      throw UsageError("diagonal: \"" + text + "\": \"" + number + "\" is not an index in 0.." + std::to_string(n - 1));
    if (seen[i]++) throw UsageError("diagonal: \"" + text + "\": index " + number + " appears twice");
    d.back().push_back(static_cast<int>(i));
    number.clear();
  };
  for (char ch : text) {
    if (ch == ',' || ch == '|') {
      take();
      if (ch == '|') d.emplace_back();
    } else {
      number += ch;
    }
  }
  take();
  for (int i = 0; i < n; ++i)
    if (!seen[i]) throw UsageError("diagonal: \"" + text + "\" misses index " + std::to_string(i) + " (the parts must cover 0.." + std::to_string(n - 1) + ")");
  return d;
}

std::string diagonal_text(const Diagonal& d) {
  std::ostringstream out;
  for (size_t p = 0; p < d.size(); ++p) {
    if (p) out << '|';
    for (size_t k = 0; k < d[p].size(); ++k) out << (k ? "," : "") << d[p][k];
  }
  return out.str();
}

template <class F>
Terms<F> diagonal_start(int n, const Diagonal& d) {
  Terms<F> t;
  for (const auto& part : d) {  // fixed terms a_P ⊗ a_P ⊗ a_P
    typename F::Vec a = F::zero();
    for (int i : part) F::set_entry(a, i * n + i, 1);
    push_normalised<F>(t, a, a, a, 1);
  }
  for (int i = 0; i < n; ++i)  // ⟨n,n,n⟩ without its diagonal terms e_ii ⊗ e_ii ⊗ e_ii
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        if (!(i == j && j == k)) push_normalised<F>(t, unit<F>(n, i, j), unit<F>(n, j, k), unit<F>(n, k, i), 1);
  for (const auto& part : d)  // − the off-diagonal part of a_P^⊗3
    for (int i : part)
      for (int j : part)
        for (int k : part)
          if (!(i == j && j == k)) push_normalised<F>(t, unit<F>(n, i, i), unit<F>(n, j, j), unit<F>(n, k, k), -1);
  return t;
}

#define TDISC_FLIP_ORBITS(F)                                                                   \
  template std::optional<OrbitTerms<F>> split_orbits<F>(const Terms<F>&, std::string*);        \
  template Terms<F> expand_orbits<F>(const OrbitTerms<F>&);                                    \
  template Terms<F> diagonal_start<F>(int, const Diagonal&);
TDISC_FLIP_FIELDS(TDISC_FLIP_ORBITS)

}  // namespace tdisc::search::flip
