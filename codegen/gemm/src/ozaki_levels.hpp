// The scheme levels' straight-line code over Z/p (generated: ozaki_level_code.inc, from
// codegen/gemm/tools/ozaki_schemes.py): Level_s1 (Strassen), Level_s2 (Strassen ⊗ Strassen, 4x4:49),
// Level_r48 (the rational 4x4:48). Each emits primitive integer combinations (coefficients over the
// gcd of their row) to a callback; the caller multiplies by scale·den^-1 mod p (a LevelFactors entry,
// skipped where the level is unit) and reduces once per operand sum and once per C block, with the
// division-free reductions of ozaki_math.hpp. __host__ __device__: the level kernels call them, and the
// host tests compare them with the tables of ozaki_schemes.hpp.
#pragma once
#include <climits>

#include "ozaki_math.hpp"

namespace tdisc_gemm::ozaki {
#include "ozaki_level_code.inc"

constexpr int kMaxRank = 49, kMaxBlocks = 16;

// Per modulus: scale·den^-1 mod p, symmetric (|f| ≤ 127), for every operand sum and C block.
struct LevelFactors {
  int a[kMaxRank] = {}, b[kMaxRank] = {}, c[kMaxBlocks] = {};
};

template <class L>
LevelFactors level_factors(int p) {
  static_assert(L::R <= kMaxRank && L::B * L::B <= kMaxBlocks);
  LevelFactors f;
  const long long inv = inverse_mod(L::den % p, p);
  auto sym = [&](int scale) {
    const int r = (int)(scale % p * inv % p);
    return r > (p - 1) / 2 ? r - p : r;
  };
  for (int r = 0; r < L::R; ++r) f.a[r] = sym(L::scale_a[r]), f.b[r] = sym(L::scale_b[r]);
  for (int q = 0; q < L::B * L::B; ++q) f.c[q] = sym(L::scale_c[q]);
  return f;
}

// An emitted operand sum s of residues |v| ≤ 127 (|s| ≤ l1·127) → its symmetric residue times the
// factor f. Unit: reduce_small(s) needs l1·127 < 2^22; otherwise reduce_small(s·f), l1·127·127 < 2^22.
template <int L1, bool Unit>
TDISC_HD inline int reduce_sum(int s, int f, const SmallMod& m) {
  static_assert((long long)L1 * 127 * (Unit ? 1 : 127) < kSmallBound, "operand sum out of reduce_small's range");
  return reduce_small(Unit ? s : s * f, m);
}

// An emitted C combination c of folded products (|m_r| ≤ kFoldBound, so |c| ≤ l1·kFoldBound ≤ INT32_MAX)
// → its symmetric residue times f: |fold17(c)| ≤ kFoldBound; times |f| ≤ 127 stays below 2^29, folded
// again; then reduce_small (kFoldBound < 2^22).
template <int L1, bool Unit>
TDISC_HD inline int reduce_combination(int c, int f, const SmallMod& m) {
  static_assert((long long)L1 * kFoldBound <= INT_MAX, "C combination overflows int32");
  static_assert(kFoldBound < kSmallBound && (long long)kFoldBound * 127 <= INT_MAX);
  int v = fold17(c, m);
  if (!Unit) v = fold17(v * f, m);
  return reduce_small(v, m);
}

}  // namespace tdisc_gemm::ozaki
