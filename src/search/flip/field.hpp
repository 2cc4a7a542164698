// Factor vectors of the flip graph as machine words: GF2 (one bit plane, a flip is an XOR), ZT
// {-1,0,1} and GF3 (two planes: +1 and -1≡2 bits). Kauers–Moosbauer 2022, bit-packed. A factor of up
// to 64 entries is one 64-bit word (4x4 and 5x5 as before); larger formats (up to 16x16x16, 256
// entries) take 2 or 4 words per plane, chosen at run time from the format (words_for).
#pragma once
#include <array>
#include <bit>
#include <cstdint>
#include <type_traits>

namespace tdisc::search::flip {

// W 64-bit words: entry e is bit e % 64 of word e / 64.
template <int W>
struct Bits {
  std::array<std::uint64_t, W> w{};
  friend bool operator==(const Bits& a, const Bits& b) {  // branch-free: the bucket probes compare keys often
    std::uint64_t d = 0;
    for (int i = 0; i < W; ++i) d |= a.w[i] ^ b.w[i];
    return d == 0;
  }
  friend Bits operator^(Bits a, const Bits& b) {
    for (int i = 0; i < W; ++i) a.w[i] ^= b.w[i];
    return a;
  }
  friend Bits operator&(Bits a, const Bits& b) {
    for (int i = 0; i < W; ++i) a.w[i] &= b.w[i];
    return a;
  }
  friend Bits operator|(Bits a, const Bits& b) {
    for (int i = 0; i < W; ++i) a.w[i] |= b.w[i];
    return a;
  }
  friend Bits operator~(Bits a) {
    for (int i = 0; i < W; ++i) a.w[i] = ~a.w[i];
    return a;
  }
};

// The word of a factor plane: a plain 64-bit integer for one word, so 4x4 runs the code it always ran.
template <int W>
using Word = std::conditional_t<W == 1, std::uint64_t, Bits<W>>;

// The factor width a format needs: 1, 2 or 4 words for its largest factor (0: more than 256 entries).
constexpr int words_for(int largest_factor) {
  return largest_factor <= 64 ? 1 : largest_factor <= 128 ? 2 : largest_factor <= 256 ? 4 : 0;
}

// Word operations the policies need, for one word and for W words.
inline bool none(std::uint64_t x) { return x == 0; }
inline int count(std::uint64_t x) { return std::popcount(x); }
inline int bit(std::uint64_t x, int e) { return static_cast<int>((x >> e) & 1u); }
inline void set_bit(std::uint64_t& x, int e) { x |= std::uint64_t(1) << e; }
// Does p hold the lowest set bit of any (any ≠ 0)?
inline bool holds_lowest(std::uint64_t any, std::uint64_t p) { return (p & (any & (~any + 1))) != 0; }

template <int W>
bool none(const Bits<W>& x) {
  std::uint64_t o = 0;
  for (int i = 0; i < W; ++i) o |= x.w[i];
  return o == 0;
}
template <int W>
int count(const Bits<W>& x) {
  int c = 0;
  for (int i = 0; i < W; ++i) c += std::popcount(x.w[i]);
  return c;
}
template <int W>
int bit(const Bits<W>& x, int e) {
  return bit(x.w[e >> 6], e & 63);
}
template <int W>
void set_bit(Bits<W>& x, int e) {
  set_bit(x.w[e >> 6], e & 63);
}
template <int W>
bool holds_lowest(const Bits<W>& any, const Bits<W>& p) {
  for (int i = 0; i < W; ++i)
    if (any.w[i]) return holds_lowest(any.w[i], p.w[i]);
  return false;
}

// Every field policy gives: Vec, zero(), is_zero, ==, neg(v), add(a, b, ok) = a+b (ok=false
// when the sum leaves the coefficient set, ZT only), normalize(v) → sign so that v = sign·canon
// with the lowest non-zero entry equal to +1. Scalars are +1 / -1 (GF2: both are 1). kWords: the
// words per plane; kBits: the entries a Vec holds; characteristic: 2, 3, or 0 (ZT, valid over Z).
template <int W>
struct GF2W {
  using Vec = Word<W>;  // bit e = entry e of the flattened factor
  static constexpr const char* name = "GF2";
  static constexpr bool has_signs = false;
  static constexpr int kWords = W, kBits = 64 * W, characteristic = 2;
  static Vec zero() { return Vec{}; }
  static bool is_zero(const Vec& v) { return none(v); }
  static Vec neg(Vec v) { return v; }
  static Vec add(const Vec& a, const Vec& b, bool& ok) {
    ok = true;
    return a ^ b;
  }
  static int normalize(Vec&) { return 1; }
  static int entry(const Vec& v, int e) { return bit(v, e); }
  static void set_entry(Vec& v, int e, int x) {
    if (x & 1) set_bit(v, e);
  }
  static int weight(const Vec& v) { return count(v); }
};

template <class Wd>
struct PlanesOf {
  Wd p{}, n{};  // p: entries equal to +1, n: entries equal to -1 (2 in GF3)
  friend bool operator==(const PlanesOf&, const PlanesOf&) = default;
};
using Planes = PlanesOf<std::uint64_t>;

template <bool kModular, int W = 1>
struct TernaryPolicy {
  using Wd = Word<W>;
  using Vec = PlanesOf<Wd>;
  static constexpr bool has_signs = true;
  static constexpr int kWords = W, kBits = 64 * W, characteristic = kModular ? 3 : 0;
  static Vec zero() { return {}; }
  static bool is_zero(const Vec& v) { return none(v.p | v.n); }
  static Vec neg(const Vec& v) { return {v.n, v.p}; }
  static Vec add(const Vec& a, const Vec& b, bool& ok) {
    if constexpr (kModular) {  // GF3: 1+1 = 2 (= -1), 2+2 = 1, 1+2 = 0
      ok = true;
      const Wd a0 = ~(a.p | a.n), b0 = ~(b.p | b.n);
      return {(a.p & b0) | (b.p & a0) | (a.n & b.n), (a.n & b0) | (b.n & a0) | (a.p & b.p)};
    } else {  // ZT: 1+1 and -1-1 leave {-1,0,1}
      ok = none((a.p & b.p) | (a.n & b.n));
      return {(a.p | b.p) & ~(a.n | b.n), (a.n | b.n) & ~(a.p | b.p)};
    }
  }
  static int normalize(Vec& v) {
    const Wd any = v.p | v.n;
    if (none(any) || holds_lowest(any, v.p)) return 1;
    v = neg(v);
    return -1;
  }
  static int entry(const Vec& v, int e) { return bit(v.p, e) - bit(v.n, e); }
  static void set_entry(Vec& v, int e, int x) {
    if (x == 1) set_bit(v.p, e);
    if (x == -1) set_bit(v.n, e);
  }
  static int weight(const Vec& v) { return count(v.p | v.n); }
};

template <int W>
struct ZTW : TernaryPolicy<false, W> {
  static constexpr const char* name = "ZT";
};
template <int W>
struct GF3W : TernaryPolicy<true, W> {
  static constexpr const char* name = "GF3";
};
using GF2 = GF2W<1>;
using ZT = ZTW<1>;
using GF3 = GF3W<1>;

// Scaling by a sign ±1.
template <class F>
typename F::Vec scale(const typename F::Vec& v, int sign) {
  return sign < 0 ? F::neg(v) : v;
}

}  // namespace tdisc::search::flip

// Every field policy the walkers are built for: three rings, each at 1, 2 and 4 words per plane.
#define TDISC_FLIP_FIELDS(X) \
  X(GF2W<1>) X(GF2W<2>) X(GF2W<4>) X(ZTW<1>) X(ZTW<2>) X(ZTW<4>) X(GF3W<1>) X(GF3W<2>) X(GF3W<4>)
