// The scheme levels' straight-line code over Z/p (generated: ozaki_level_code.inc, from
// codegen/gemm/tools/ozaki_schemes.py): Level_s1 (Strassen), Level_s2 (Strassen ⊗ Strassen, 4x4:49),
// Level_r48 (the rational 4x4:48). Each emits primitive integer combinations (coefficients over the
// gcd of their row) to a callback; operand_residues and block_residues reduce each once (a C block times
// scale·den^-1 mod p, a LevelFactors entry, where the C side is not unit), with the division-free
// reductions of ozaki_math.hpp. __host__ __device__: the level kernels call them, and the
// host tests compare them with the tables of ozaki_schemes.hpp.
#pragma once
#include <climits>

#include "ozaki_math.hpp"

namespace tdisc_gemm::ozaki {
#include "ozaki_level_code.inc"

constexpr int kMaxRank = 49, kMaxBlocks = 16;

// Per modulus: scale·den^-1 mod p, symmetric (|f| ≤ 127), for every C block (the operand sides are unit).
struct LevelFactors {
  int c[kMaxBlocks] = {};
};

template <class L>
LevelFactors level_factors(int p) {
  static_assert(L::R <= kMaxRank && L::B * L::B <= kMaxBlocks);
  LevelFactors f;
  const long long inv = inverse_mod(L::den % p, p);
  for (int q = 0; q < L::B * L::B; ++q) f.c[q] = symmetric_mod(L::scale_c[q] % p * inv, p);
  return f;
}

// An emitted C combination c of folded products (|m_r| ≤ kFoldBound, so |c| ≤ l1·kFoldBound ≤ INT32_MAX)
// → its symmetric residue times f, as a float: |fold17(c)| ≤ kFoldBound; times |f| ≤ 127 stays below 2^29,
// folded again; then folded_residue (kFoldBound < 2^22).
template <int L1, bool Unit>
TDISC_HD inline float reduce_combination(int c, int f, const SmallMod& m) {
  static_assert((long long)L1 * kFoldBound <= INT_MAX, "C combination overflows int32");
  static_assert(kFoldBound < kSmallBound && (long long)kFoldBound * 127 <= INT_MAX);
  int v = fold17(c, m);
  if (!Unit) v = fold17(v * f, m);
  return folded_residue(v, m);
}

// One position of a level's operands, straight from its B² blocks' scaled integers (as limbs) for one
// modulus: each block's residue (a float, |·| ≤ 127), the emitted sums of them (|s| ≤ l1·127, exact
// floats), each reduced once: out(r, symmetric residue of operand sum r). The emitted sums of a unit side
// are the sums themselves (no factor mod p); every level's operand sides are unit.
template <class L, bool IsA, int NL, class Out>
TDISC_HD inline void operand_residues(const Limbs<NL>* v, const LimbMod& m, Out&& out) {
  constexpr int Q = L::B * L::B, l1 = IsA ? L::l1_a : L::l1_b;
  static_assert(IsA ? L::unit_a : L::unit_b, "operand sums with factors mod p");
  static_assert(l1 * 127 < kSmallBound, "operand sum out of symmetric_residue's range");
  float r[Q];
  TDISC_UNROLL
  for (int q = 0; q < Q; ++q) r[q] = residue_float_of_limbs(v[q], m);
  auto put = [&](int k, float sum) { out(k, (int)residue_int8(sum, m.small)); };
  if constexpr (IsA) L::sums_a(r, put);
  else L::sums_b(r, put);
}

// One position of a level's products for one modulus: the R INT32 products (load(r)), each folded, the
// emitted C combinations, each reduced once (times scale·den^-1 where the C side is not unit):
// out(q, symmetric residue of C block q = a·B + d, an exact float).
template <class L, class Load, class Out>
TDISC_HD inline void block_residues(Load&& load, const SmallMod& m, const LevelFactors& fac, Out&& out) {
  int mr[L::R];
  TDISC_UNROLL
  for (int r = 0; r < L::R; ++r) mr[r] = fold17(load(r), m);
  L::combine(mr, [&](int q, int c) { out(q, reduce_combination<L::l1_c, L::unit_c>(c, fac.c[q], m)); });
}

}  // namespace tdisc_gemm::ozaki
