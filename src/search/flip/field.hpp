// Factor vectors of the flip graph as machine words: GF2 (one 64-bit plane, a flip is an XOR),
// ZT {-1,0,1} and GF3 (two planes: +1 and -1≡2 bits). Kauers–Moosbauer 2022, bit-packed.
#pragma once
#include <bit>
#include <cstdint>

namespace tdisc::search::flip {

// Every field policy gives: Vec, zero(), is_zero, ==, neg(v), add(a, b, ok) = a+b (ok=false
// when the sum leaves the coefficient set, ZT only), normalize(v) → sign so that v = sign·canon
// with the lowest non-zero entry equal to +1. Scalars are +1 / -1 (GF2: both are 1).
struct GF2 {
  using Vec = std::uint64_t;  // bit e = entry e of the flattened factor
  static constexpr const char* name = "GF2";
  static constexpr bool has_signs = false;
  static Vec zero() { return 0; }
  static bool is_zero(Vec v) { return v == 0; }
  static Vec neg(Vec v) { return v; }
  static Vec add(Vec a, Vec b, bool& ok) {
    ok = true;
    return a ^ b;
  }
  static int normalize(Vec&) { return 1; }
  static int entry(Vec v, int e) { return static_cast<int>((v >> e) & 1u); }
  static void set_entry(Vec& v, int e, int x) {
    if (x & 1) v |= Vec(1) << e;
  }
  static int weight(Vec v) { return std::popcount(v); }
};

struct Planes {
  std::uint64_t p = 0, n = 0;  // p: entries equal to +1, n: entries equal to -1 (2 in GF3)
  friend bool operator==(const Planes&, const Planes&) = default;
};

template <bool kModular>
struct TernaryPolicy {
  using Vec = Planes;
  static constexpr bool has_signs = true;
  static Vec zero() { return {}; }
  static bool is_zero(Vec v) { return (v.p | v.n) == 0; }
  static Vec neg(Vec v) { return {v.n, v.p}; }
  static Vec add(Vec a, Vec b, bool& ok) {
    if constexpr (kModular) {  // GF3: 1+1 = 2 (= -1), 2+2 = 1, 1+2 = 0
      ok = true;
      std::uint64_t a0 = ~(a.p | a.n), b0 = ~(b.p | b.n);
      return {(a.p & b0) | (b.p & a0) | (a.n & b.n), (a.n & b0) | (b.n & a0) | (a.p & b.p)};
    } else {  // ZT: 1+1 and -1-1 leave {-1,0,1}
      ok = ((a.p & b.p) | (a.n & b.n)) == 0;
      return {(a.p | b.p) & ~(a.n | b.n), (a.n | b.n) & ~(a.p | b.p)};
    }
  }
  static int normalize(Vec& v) {
    std::uint64_t any = v.p | v.n;
    if (any == 0 || (v.p & (any & (~any + 1)))) return 1;
    v = neg(v);
    return -1;
  }
  static int entry(Vec v, int e) { return static_cast<int>((v.p >> e) & 1u) - static_cast<int>((v.n >> e) & 1u); }
  static void set_entry(Vec& v, int e, int x) {
    if (x == 1) v.p |= std::uint64_t(1) << e;
    if (x == -1) v.n |= std::uint64_t(1) << e;
  }
  static int weight(Vec v) { return std::popcount(v.p | v.n); }
};

struct ZT : TernaryPolicy<false> {
  static constexpr const char* name = "ZT";
};
struct GF3 : TernaryPolicy<true> {
  static constexpr const char* name = "GF3";
};

// Scaling by a sign ±1.
template <class F>
typename F::Vec scale(typename F::Vec v, int sign) {
  return sign < 0 ? F::neg(v) : v;
}

}  // namespace tdisc::search::flip
