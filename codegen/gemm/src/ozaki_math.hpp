// The integer maths of Ozaki scheme II (Ozaki, Uchino, Imamura, arXiv:2504.08009), shared by the
// device kernels (ozaki.cu) and the host reference in the tests: the moduli, symmetric residues of a
// scaled integer, Garner's mixed-radix reconstruction with balanced digits, and the scaling exponent.
// Plain C++ with __host__ __device__ under nvcc, so that the CPU tests run the very same steps.
//
// A product C = A·B (A m×k, B k×n) is emulated as C = D_A^-1 · (A'·B') · D_B^-1 with A' = rint(D_A·A),
// B' = rint(B·D_B) integer matrices, D_A, D_B diagonal powers of two chosen so that every |A'·B'|_ij
// ≤ ‖a'_i‖·‖b'_j‖ < P/2, P = p_1⋯p_N. Then A'·B' is known from its residues mod each p_l, and those
// come from INT8 products of the symmetric residues of A' and B' (|r| ≤ 127, exact in INT32 for
// k ≤ 2^17). All moduli are odd, so ½ is a unit mod each of them (schemes with ½ run over Z/p).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#ifdef __CUDACC__
#define TDISC_HD __host__ __device__
#else
#define TDISC_HD
#endif
#if defined(__CUDA_ARCH__)
#define TDISC_UNROLL _Pragma("unroll")
#else
#define TDISC_UNROLL
#endif

namespace tdisc_gemm::ozaki {

// Pairwise coprime odd moduli ≤ 255, largest first: 255 = 3·5·17, 253 = 11·23, 247 = 13·19, 217 = 7·31,
// the rest primes that divide none of those.
constexpr int kMaxModuli = 24;
constexpr int kModuli[kMaxModuli] = {255, 253, 251, 247, 241, 239, 233, 229, 227, 223, 217, 211,
                                     199, 197, 193, 191, 181, 179, 173, 167, 163, 157, 151, 149};
// Largest k of one INT8 product: k·127² < 2^31.
constexpr long long kMaxK = 131072;

// Symmetric residue of an INT32 product entry.
TDISC_HD inline int residue32(int32_t c, int p) {
  int r = c % p;  // in (-p, p)
  const int h = (p - 1) / 2;
  if (r > h) r -= p;
  if (r < -h) r += p;
  return r;
}

// Cheap exact reductions for the kernels (no integer division and no int/float conversion instructions,
// which run at a quarter of the integer rate), each checked against % by the host tests.
// fold17: any int32 x = hi·2^17 + lo (hi = x >> 17 in [-2^14, 2^14), lo = x & 0x1ffff in [0, 2^17)) gives
// t = hi·c17 + lo ≡ x (mod p) with c17 = 2^17 mod p symmetric (|c17| ≤ 127), so
// −2^14·127 ≤ t ≤ 2^14·127 + 2^17 − 1 = kFoldBound < 2^21.1.
constexpr int kFoldBound = 16384 * 127 + 131071;
// reduce_small takes |x| < kSmallBound.
constexpr int kSmallBound = 1 << 22;

// The constants of one modulus for fold17 and reduce_small.
struct SmallMod {
  int p = 1, c17 = 0;
  float pf = 1, pinv = 1;     // p and 1/p rounded to float
};

inline SmallMod small_mod(int p) {
  SmallMod m;
  m.p = p, m.pf = (float)p, m.pinv = 1.0f / (float)p;
  const int r = (1 << 17) % p;
  m.c17 = r > (p - 1) / 2 ? r - p : r;
  return m;
}

TDISC_HD inline int fold17(int32_t x, const SmallMod& m) { return (x >> 17) * m.c17 + (x & 0x1ffff); }

// The bits of one type read as another of the same size (a register move on the device).
template <class To, class From>
TDISC_HD inline To bits_as(From x) {
  static_assert(sizeof(To) == sizeof(From));
  To y;
  std::memcpy(&y, &x, sizeof y);
  return y;
}
TDISC_HD inline float float_of_bits(int32_t i) { return bits_as<float>(i); }
TDISC_HD inline double double_of_bits(long long i) { return bits_as<double>(i); }
TDISC_HD inline int32_t bits_of_float(float f) { return bits_as<int32_t>(f); }

// Conversions without the conversion instructions (which run at a quarter of the FMA rate), for
// integers |x| < 2^22 (int_of_small_float the other way, for an integer-valued float): M = 1.5·2^23 has ulp 1,
// so M + x rounds nothing; the double analogue uses 1.5·2^52.
constexpr int32_t kMagicFloatBits = 0x4B400000;
constexpr float kMagicFloat = 12582912.0f;  // 1.5·2^23
TDISC_HD inline float float_of_small(int x) { return float_of_bits(kMagicFloatBits + x) - kMagicFloat; }
TDISC_HD inline int int_of_small_float(float y) { return bits_of_float(y + kMagicFloat) - kMagicFloatBits; }
TDISC_HD inline double double_of_small_float(float y) {  // y an integer-valued float, |y| < 2^22
  return double_of_bits(0x4338000000000000LL + int_of_small_float(y)) - 6755399441055744.0;  // 1.5·2^52 + y − 1.5·2^52
}

// The symmetric residue of |x| < 2^22 (p odd, 149 ≤ p ≤ 255), x − p·rint(x/p). Proof: with M = 1.5·2^23
// (bits 0x4B400000), every float in [2^23, 2^24) is an integer, ulp 1. (1) M + x is such a float, its bits
// 0x4B400000 + x, so xf = float(bits) − M = x exactly. (2) |x·pinv| < 2^22/149 < 2^15, so
// fma(xf, pinv, M) = M + rint(x·pinv) (one rounding, to nearest), and q = its bits − 0x4B400000.
// (3) pinv = (1/p)(1 + e), |e| ≤ 2^-24, so |x·pinv − x/p| ≤ |x/p|·2^-24 < 2^22/149·2^-24 < 1/596, while x/p
// is at least 1/(2p) ≥ 1/510 from every half-integer (x/p − (n + ½) = (2x − (2n + 1)p)/(2p), an odd
// numerator over 2p): so x·pinv rounds to the integer nearest x/p, q = rint(x/p), and r = x − q·p (exact
// in int) lies in [−(p − 1)/2, (p − 1)/2] with no correction step.
TDISC_HD inline int reduce_small(int x, const SmallMod& m) {
  constexpr int32_t kMagicBits = 0x4B400000;
  constexpr float kMagic = 12582912.0f;  // 1.5·2^23
  const float xf = float_of_bits(kMagicBits + x) - kMagic;
  const int q = bits_of_float(fmaf(xf, m.pinv, kMagic)) - kMagicBits;
  return x - q * m.p;
}

// The same for an integer-valued float |s| < 2^22: s − p·rint(s/p), exact, by the argument above
// (fma(s, pinv, M) rounds s·pinv + M once, to M plus the integer nearest s/p).
TDISC_HD inline float symmetric_residue(float s, float p, float pinv) {
  const float q = fmaf(s, pinv, kMagicFloat) - kMagicFloat;
  return fmaf(-q, p, s);
}

// The symmetric residue of |t| < 2^22 (a fold17 result) as a float: float_of_small then symmetric_residue,
// five instructions where reduce_small and a conversion for Garner take eight.
TDISC_HD inline float folded_residue(int t, const SmallMod& m) {
  return symmetric_residue(float_of_small(t), m.pf, m.pinv);
}

// The scaled integers v = rint(2^e·a) as NL balanced 14-bit limbs held in floats, split once per element:
// v = l_0 + l_1·2^14 + … + l_(NL−2)·2^(14(NL−2)) + t·2^(14(NL−1)) with l_i in [−2^13, 2^13) and a top limb t.
// With the offset O = 2^13·(1 + 2^14 + … + 2^(14(NL−2))), w = v + O holds l_i + 2^13 in its 14-bit field i,
// and t = w >> 14(NL−1) (arithmetic shift: the identity holds in two's complement; |v| ≤ 2^62, so w does
// not overflow), |t| ≤ |v|/2^(14(NL−1)) + 1. A residue's sum s = l_0 + Σ l_i·c_i (|c_i| ≤ 127) stays below
// 2^13 + 127·(2^13·(NL−2) + |t|), under 2^22 while |t| ≤ limb_top(NL): balanced limbs carry a bit more
// than unsigned 13-bit ones, so f32 at 7 moduli takes two (one FMA per residue) and f64 at 14 four.
// limbs_for picks the fewest for a line limit. Every modulus after that costs NL − 1 float multiply-adds
// (the FP32 pipe issues twice the integer pipe's rate) and none of the conversion instructions.
template <int NL>
struct Limbs {
  float l[NL];
};
template <int NL>
TDISC_HD inline Limbs<NL> limbs_of(long long v) {
  long long offset = 0;
  TDISC_UNROLL
  for (int i = 0; i < NL - 1; ++i) offset += 8192LL << (14 * i);
  const long long w = v + offset;
  Limbs<NL> x;
  TDISC_UNROLL
  for (int i = 0; i < NL - 1; ++i) x.l[i] = float_of_small((int)((w >> (14 * i)) & 0x3fff) - 8192);
  x.l[NL - 1] = float_of_small((int)(w >> (14 * (NL - 1))));
  return x;
}
// The largest top limb |t| of NL limbs whose residue sums stay below 2^22: 2^13 + 127·(2^13·(NL−2) + t) < 2^22.
constexpr int limb_top(int nl) { return (kSmallBound - 8192) / 127 - 8192 * (nl - 2); }
// The fewest limbs (2 to 5) for the scaled integers of lines below `limit`: every element is below the
// limit before rounding, so |v| ≤ limit + 1 and |t| ≤ (limit + 1)/2^(14(NL−1)) + 1. Five take any |v| ≤ 2^62.
inline int limbs_for(double limit) {
  for (int nl = 2; nl < 5; ++nl)
    if ((limit + 1) / std::ldexp(1.0, 14 * (nl - 1)) + 1 <= limb_top(nl)) return nl;
  return 5;
}

inline int symmetric_mod(long long x, int p) {
  const int r = (int)(((x % p) + p) % p);
  return r > (p - 1) / 2 ? r - p : r;
}

// The constants of one modulus for residue_of_limbs: 2^(14i) mod p, symmetric (|c| ≤ 127), c[0] = 1.
struct LimbMod {
  SmallMod small;  // p, 1/p
  float c[5] = {};
};

inline LimbMod limb_mod(int p) {
  LimbMod m;
  m.small = small_mod(p);
  for (int i = 0; i < 5; ++i) m.c[i] = (float)symmetric_mod(1LL << (14 * i), p);
  return m;
}

// The symmetric residue of an integer-valued float |s| < 2^22 as an int8, in three instructions (FFMA, FADD,
// IMAD) where symmetric_residue and int_of_small_float take four: with symmetric_residue's quotient
// q = fma(s, pinv, M) = M + rint(s/p) (bits M_bits + rint(s/p)) and bits(s + M) = M_bits + s,
// bits(s + M) − bits(q)·p = s − rint(s/p)·p − M_bits·(p − 1) (mod 2^32), and M_bits = 0x4B400000 has a
// zero low byte: the low byte is the residue's (two's complement), which is all an int8 store keeps.
TDISC_HD inline int8_t residue_int8(float s, const SmallMod& m) {
  const float q = fmaf(s, m.pinv, kMagicFloat);
  const uint32_t b = (uint32_t)bits_of_float(s + kMagicFloat) - (uint32_t)bits_of_float(q) * (uint32_t)m.p;
  return (int8_t)(b & 0xffu);
}

// The residue sum of v's limbs for modulus p: s = l_0 + Σ l_i·c_i ≡ v with |s| < 2^22 (limbs_for; every
// partial sum an exact float).
template <int NL>
TDISC_HD inline float limb_sum(const Limbs<NL>& v, const LimbMod& m) {
  float s = v.l[0];
  TDISC_UNROLL
  for (int i = 1; i < NL; ++i) s = fmaf(v.l[i], m.c[i], s);
  return s;
}
// The symmetric residue of v mod p from its limbs: as an exact float (for sums of residues), or as an int8
// (residue_int8).
template <int NL>
TDISC_HD inline float residue_float_of_limbs(const Limbs<NL>& v, const LimbMod& m) {
  return symmetric_residue(limb_sum(v, m), m.small.pf, m.small.pinv);
}
template <int NL>
TDISC_HD inline int8_t residue_of_limbs(const Limbs<NL>& v, const LimbMod& m) {
  return residue_int8(limb_sum(v, m), m.small);
}

// Modular inverse of a mod p (gcd 1), in [0, p).
constexpr int inverse_mod(int a, int p) {
  int t = 0, nt = 1, r = p, nr = ((a % p) + p) % p;
  while (nr) {
    const int q = r / nr;
    const int t2 = t - q * nt, r2 = r - q * nr;
    t = nt, nt = t2, r = nr, nr = r2;
  }
  return t < 0 ? t + p : t;
}

// Garner's table for the first n moduli, for the mixed-radix digits v_l of x = v_0 + p_0·v_1 + p_0·p_1·v_2 + …:
// q[l] = (p_0⋯p_(l−1))^−1 mod p_l and c[j][l] = p_0⋯p_(j−1)·q[l] mod p_l (both symmetric, |·| ≤ 127;
// c[0][l] = q[l]), so that v_l = r_l·q[l] − Σ_(j<l) v_j·c[j][l] mod p_l: the inverse folded into the
// prefix constants, one reduction per digit. All as floats (exact), and the radix of each pair of digits,
// p_2i·p_(2i+1), as a double for the Horner step.
struct GarnerTable {
  int n = 0;
  float p[kMaxModuli] = {}, pinv[kMaxModuli] = {}, q[kMaxModuli] = {};
  float c[kMaxModuli][kMaxModuli] = {};
  double pair[kMaxModuli / 2] = {};
};

inline GarnerTable garner_table(int n) {
  GarnerTable g;
  g.n = n;
  for (int l = 0; l < n; ++l) {
    const int p = kModuli[l];
    g.p[l] = (float)p;
    g.pinv[l] = 1.0f / (float)p;
    long long prefix = 1;  // p_0⋯p_(l−1) mod p
    for (int j = 0; j < l; ++j) prefix = prefix * kModuli[j] % p;
    const long long q = inverse_mod((int)prefix, p);
    g.q[l] = (float)symmetric_mod(q, p);
    prefix = 1;
    for (int j = 0; j < l; ++j) {
      g.c[j][l] = (float)symmetric_mod(prefix * q, p);
      prefix = prefix * kModuli[j] % p;
    }
  }
  for (int i = 0; i < n / 2; ++i) g.pair[i] = (double)kModuli[2 * i] * kModuli[2 * i + 1];
  return g;
}

// The integer with symmetric residues r[0..n) (exact floats, |r| ≤ 127; |value| ≤ (P−1)/2), as a double:
// balanced mixed-radix digits v_l (|v_l| ≤ (p_l−1)/2, value = v_0 + p_0·(v_1 + p_1·(v_2 + …))) by Garner's
// algorithm in exact float arithmetic, then Horner from the top. Per digit: s = r_l·q[l] − Σ_(j<l) v_j·c[j][l],
// one multiplication and one FMA per earlier digit (|s| ≤ 24·127·127 < 2^19: every partial sum an exact
// float), then v_l = symmetric_residue(s) (|s| < 2^22), in [−(p−1)/2, (p−1)/2]. Horner runs over pairs of
// digits, D_i = v_2i + p_2i·v_(2i+1) (|D_i| < 2^15, one exact float FMA each), with the radix p_2i·p_(2i+1):
// half the double steps. Balanced digits make the partial sums never cancel, so the double carries a few
// ulps of error; every value below 2^53 comes out exact (each partial sum is then an integer below it).
// n: the number of moduli (g.n, or the same as a compile-time constant so that the loops unroll).
TDISC_HD inline double reconstruct(const float* r, const GarnerTable& g, int n) {
  float v[kMaxModuli] = {};
  TDISC_UNROLL
  for (int l = 0; l < n; ++l) {
    float s = r[l] * g.q[l];
    TDISC_UNROLL
    for (int j = 0; j < l; ++j) s = fmaf(-v[j], g.c[j][l], s);
    v[l] = symmetric_residue(s, g.p[l], g.pinv[l]);
  }
  const int pairs = n / 2;  // the pairs below the top: all but the last (n even) or all (n odd, v_(n−1) on top)
  const int below = n % 2 ? pairs : pairs - 1;
  double x = double_of_small_float(n % 2 ? v[n - 1] : fmaf(v[n - 1], g.p[n - 2], v[n - 2]));
  TDISC_UNROLL
  for (int i = below - 1; i >= 0; --i) x = fma(x, g.pair[i], double_of_small_float(fmaf(v[2 * i + 1], g.p[2 * i], v[2 * i])));
  return x;
}

// The bound on the scaled lines: every scaled row a'_i of A and column b'_j of B has 2-norm below
// L = √(P/2)·(1 − 2^−40), capped at 2^62 (the residues take |x| < 2^63), so that by Cauchy–Schwarz
// |A'·B'|_ij ≤ ‖a'_i‖·‖b'_j‖ < L² < P/2, and the integer A'·B'_ij is at most (P−1)/2 (P is odd). The factor
// 1 − 2^−40 covers the rounding of P and of the square root in double. A real limit, not a power of two:
// the lines use the whole of P, its fractional bit included (up to 0.5 bit a side against an integer split).
inline double line_limit(int n) {
  double P = 1;
  for (int l = 0; l < n; ++l) P *= kModuli[l];
  const double L = std::sqrt(P / 2) * (1 - 0x1p-40);
  return L < 0x1p62 ? L : 0x1p62;
}
// log2 of line_limit(n): the bits of a scaled line.
inline double limit_bits(int n) { return std::log2(line_limit(n)); }

// x·2^s as ldexp(x, s) gives it, by one multiplication where 2^s is a normal double (one rounding, the
// same as ldexp's), by ldexp elsewhere (the device's ldexp takes four multiplications).
TDISC_HD inline double times_pow2(double x, int s) {
  return s < -1022 || s > 1023 ? ldexp(x, s) : x * double_of_bits((long long)(s + 1023) << 52);
}

// The scaled integer of x: rint(2^e·x), to nearest (ties to even, the same on host and device). Rounding
// moves an element by at most ½, truncation by up to 1: half the error of truncation for the same P.
TDISC_HD inline long long scaled_integer(double x, int e) {
#ifdef __CUDA_ARCH__
  return __double2ll_rn(times_pow2(x, e));
#else
  return std::llrint(std::ldexp(x, e));
#endif
}

// The exponent e of a line (k elements) whose 2-norm, computed in floating point, is `norm` (≥ 0): the
// largest e with norm·(1 + 2^−30)·2^e + √k/2 < limit (half_root_k = √k/2). Each rounded element is off by
// at most ½, so the scaled integer line has norm at most ‖2^e·line‖ + √k/2 (triangle inequality), below
// the limit; the margin 2^−30 covers the computed norm's error ((k + 2)·2^−53 relatively for k ≤ 2^17).
// A zero line gets 0. Needs half_root_k < limit/4 (unsupported() refuses the rest): the loop then takes at
// most three steps down from an e whose line is above the limit. (The kernels pass the norm of the line
// scaled by a power of two and add that power back.)
TDISC_HD inline int shift_for(double norm, double limit, double half_root_k) {
  if (!(norm > 0)) return 0;
  const double up = norm * (1 + 0x1p-30);
  int e = ilogb(limit) - ilogb(up) + 1;  // up·2^e ≥ 2^(ilogb(limit)+1) > limit
  while (ldexp(up, e) + half_root_k >= limit) --e;
  return e;
}

// Host: the exponent of one line x[0], x[s], …, x[(k−1)·s] (the kernels compute the same in parallel, in
// another order of summation): the largest element sets a power of two that brings the sum of squares near 1.
inline int line_exponent(const double* x, long long k, long long s, double limit) {
  double amax = 0, sum = 0;
  for (long long h = 0; h < k; ++h) amax = std::fmax(amax, std::fabs(x[h * s]));
  if (amax == 0) return 0;
  const int sc = -std::ilogb(amax);
  for (long long h = 0; h < k; ++h) sum = std::fma(std::ldexp(x[h * s], sc), std::ldexp(x[h * s], sc), sum);
  return shift_for(std::sqrt(sum), limit, 0.5 * std::sqrt((double)k)) + sc;
}

// Bits per scaled line for `bits` significant bits (53 for f64, 24 for f32) at depth k: the rounding
// errors (at most ½ each) of k terms add up to about 1.2·√k·2^−t of a product of random rows, so
// t = bits + ⌈log2(k)/2⌉, at most 62.
inline int bits_for(int bits, long long k) {
  int half_log = 0;
  while ((1LL << (2 * half_log)) < k) ++half_log;
  const int t = bits + half_log;
  return t < 62 ? t : 62;
}

// The fewest moduli whose lines carry bits_for(bits, k) bits.
inline int moduli_for(int bits, long long k) {
  for (int n = 2; n <= kMaxModuli; ++n)
    if (limit_bits(n) >= bits_for(bits, k)) return n;
  return kMaxModuli;
}

}  // namespace tdisc_gemm::ozaki
