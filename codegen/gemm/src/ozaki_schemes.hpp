// Scheme levels over Z/p for the emulated plans (host side, no CUDA): a b×b block scheme of rank R
// with coefficients num/den (den a power of two, so a unit mod every odd modulus), Kronecker products
// of levels (two Strassen levels = one 4x4 rank-49 level), the coefficient tables mod p that the level
// kernels read, and the Brent equations mod p (the check the tests run for every modulus used).
// Orientation as codegen/schemes (trace): u[r][a·b+c] multiplies A block (a,c), v[r][c·b+d] B block
// (c,d), w[r][d·b+a] adds product r into C block (a,d).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ozaki_math.hpp"

namespace tdisc_gemm::ozaki {

struct SchemeTable {
  const char* name;
  int b, rank, den;
  std::vector<int> u, v, w;  // rank × b², times den
};
#include "ozaki_scheme_tables.inc"

struct Level {
  std::string name;
  int b = 1, rank = 1;
  long long den = 1;
  std::vector<long long> u, v, w;  // rank × b², times den
  int blocks() const { return b * b; }
};

inline Level level_of(const SchemeTable& t) {
  Level l{t.name, t.b, t.rank, t.den, {}, {}, {}};
  l.u.assign(t.u.begin(), t.u.end());
  l.v.assign(t.v.begin(), t.v.end());
  l.w.assign(t.w.begin(), t.w.end());
  return l;
}

// The level that runs `outer` on blocks and `inner` inside each block product: block (a1,c1) of outer,
// (a2,c2) of inner is block (a1·b2 + a2, c1·b2 + c2); product r1·R2 + r2.
inline Level kronecker(const Level& outer, const Level& inner) {
  Level l;
  l.name = outer.name + "x" + inner.name;
  l.b = outer.b * inner.b, l.rank = outer.rank * inner.rank, l.den = outer.den * inner.den;
  const int Q = l.blocks(), b1 = outer.b, b2 = inner.b;
  for (auto* dst : {&l.u, &l.v, &l.w}) dst->assign((size_t)l.rank * Q, 0);
  for (int r1 = 0; r1 < outer.rank; ++r1)
    for (int r2 = 0; r2 < inner.rank; ++r2)
      for (int x1 = 0; x1 < b1; ++x1)
        for (int y1 = 0; y1 < b1; ++y1)
          for (int x2 = 0; x2 < b2; ++x2)
            for (int y2 = 0; y2 < b2; ++y2) {
              const size_t r = (size_t)r1 * inner.rank + r2, q = (x1 * b2 + x2) * l.b + (y1 * b2 + y2);
              const int q1 = x1 * b1 + y1, q2 = x2 * b2 + y2;
              l.u[r * Q + q] = outer.u[r1 * outer.blocks() + q1] * inner.u[r2 * inner.blocks() + q2];
              l.v[r * Q + q] = outer.v[r1 * outer.blocks() + q1] * inner.v[r2 * inner.blocks() + q2];
              l.w[r * Q + q] = outer.w[r1 * outer.blocks() + q1] * inner.w[r2 * inner.blocks() + q2];
            }
  return l;
}

// Emulated plan names: "oz2" (no level), "oz2-s1" (Strassen), "oz2-s2" (two Strassen levels: 4x4:49),
// "oz2-r48" (the rational 4x4:48). Returns false for any other name.
inline bool level_named(const std::string& plan, Level& out, bool& has_level) {
  has_level = true;
  if (plan == "oz2") return has_level = false, true;
  if (plan == "oz2-s1") return out = level_of(k_strassen), true;
  if (plan == "oz2-s2") return out = kronecker(level_of(k_strassen), level_of(k_strassen)), true;
  if (plan == "oz2-r48") return out = level_of(k_r48), true;
  return false;
}

inline int mod_of(long long x, int p) { return (int)(((x % p) + p) % p); }

// Symmetric representative of x·den^-1 mod p.
inline int8_t coefficient_mod(long long x, long long den, int p) {
  const int v = mod_of(mod_of(x, p) * (long long)inverse_mod(mod_of(den, p), p), p);
  return (int8_t)(v > (p - 1) / 2 ? v - p : v);
}

// The tables one modulus's level kernels read: u and v rank × b² (kernel order = scheme order), and
// w as b² × rank with row a·b+d (C block (a,d)).
struct ModTable {
  std::vector<int8_t> u, v, w;
};

inline ModTable mod_table(const Level& l, int p) {
  const int Q = l.blocks(), R = l.rank;
  ModTable t;
  t.u.resize((size_t)R * Q), t.v.resize((size_t)R * Q), t.w.resize((size_t)R * Q);
  for (int r = 0; r < R; ++r)
    for (int q = 0; q < Q; ++q) {
      t.u[r * Q + q] = coefficient_mod(l.u[r * Q + q], l.den, p);
      t.v[r * Q + q] = coefficient_mod(l.v[r * Q + q], l.den, p);
    }
  for (int a = 0; a < l.b; ++a)
    for (int d = 0; d < l.b; ++d)
      for (int r = 0; r < R; ++r) t.w[(a * l.b + d) * R + r] = coefficient_mod(l.w[r * Q + d * l.b + a], l.den, p);
  return t;
}

// The Brent equations of the level mod p, on the reduced tables: Σ_r u[r][(a,c)]·v[r][(c',d)]·w[(a',d')][r]
// ≡ [c=c'][d=d'][a=a'] for every index. Returns the number of failing equations (0: valid over Z/p).
inline long failing_mod(const Level& l, int p) {
  const ModTable t = mod_table(l, p);
  const int b = l.b, Q = l.blocks(), R = l.rank;
  long failing = 0;
  for (int a = 0; a < b; ++a)
    for (int c = 0; c < b; ++c)
      for (int c2 = 0; c2 < b; ++c2)
        for (int d = 0; d < b; ++d)
          for (int a2 = 0; a2 < b; ++a2)
            for (int d2 = 0; d2 < b; ++d2) {
              long long s = 0;
              for (int r = 0; r < R; ++r)
                s += (long long)t.u[r * Q + a * b + c] * t.v[r * Q + c2 * b + d] * t.w[(a2 * b + d2) * R + r];
              failing += mod_of(s, p) != ((c == c2 && d == d2 && a == a2) ? 1 : 0);
            }
  return failing;
}

}  // namespace tdisc_gemm::ozaki
