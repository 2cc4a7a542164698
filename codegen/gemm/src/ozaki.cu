// Ozaki scheme II (Ozaki, Uchino, Imamura, arXiv:2504.08009) on INT8 tensor cores, with an optional
// scheme level over Z/p on every modular product. Steps of one call (ozaki_math.hpp has the maths):
//   1. exponents: per row of A and column of B, a power of two that brings its 2-norm below line_limit;
//   2. residues: A' = rint(2^e_i·A), B' = rint(B·2^f_j) reduced mod every p_l into int8, A' stored
//      transposed (k × m) so that every INT8 product is the TN layout the tensor cores take; through a
//      level, the same kernels write the level's R operand sums of every modulus instead (the generated
//      sums of the blocks' residues, ozaki_levels.hpp), so the level costs no pass of its own;
//   3. per modulus: its R INT8 products (R = 1 without a level) by cublasGemmEx (panels of B's columns),
//      kept for step 4 (the fused path, where the workspace holds every product) or, lean, reduced mod p_l
//      (through a level: the generated C combinations) into int8 residues of C at once;
//   4. reconstruction: (fused: each INT32 product reduced mod p_l first, through a level of 2×2 blocks
//      combined into its four C blocks) Garner's balanced digits, Horner in double, unscaling, alpha, beta.
// Dimensions are padded with zeros to multiples of 64 (the INT8 products and a 4x4 level split evenly).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>

#include "ozaki.hpp"
#include "ozaki_levels.hpp"
#include "ozaki_math.hpp"
#include "ozaki_schemes.hpp"

namespace tdisc_gemm::ozaki {
namespace {

constexpr long long kPad = 64;
constexpr long long kDefaultPanel = 8192;  // panel_columns
long long padded(long long x) { return (x + kPad - 1) / kPad * kPad; }
size_t aligned(size_t x) { return (x + 255) / 256 * 256; }

struct ResidueParams {
  int n;
  LimbMod mod[kMaxModuli];
};

// The constants of moduli first … first + n − 1 (one residue pass), or of all of them (the reconstruction).
ResidueParams residue_params(int first, int n) {
  ResidueParams rp{};
  rp.n = n;
  for (int l = 0; l < n; ++l) rp.mod[l] = limb_mod(kModuli[first + l]);
  return rp;
}

// A row or column holding Inf or NaN: its exponent is this mark, its residues are zero, and the
// reconstruction writes NaN into its row or column of C (IEEE arithmetic would give Inf or NaN there).
constexpr int kNonFinite = INT_MIN;

// Four int8 residues in one 4-byte store.
__device__ inline void store4(int8_t* p, int x, int y, int z, int w) {
  *reinterpret_cast<char4*>(p) = make_char4((signed char)x, (signed char)y, (signed char)z, (signed char)w);
}

// ---- 1. exponents. One pass over each line in the common case: its largest |element| and its sum of
// squares unscaled, which is exact enough (relatively 2^−105 lost to underflow, no overflow for k ≤ 2^17)
// when the largest lies in [2^−450, 2^450] (always for f32); otherwise a second pass sums the squares of
// the line scaled by 2^−ilogb(max).
__device__ inline bool one_pass_safe(double amax) { return amax >= 0x1p-450 && amax <= 0x1p450; }

// Rows of A (m × k, lda): 8 rows × 32 slices of k per block (a warp reads 64 contiguous bytes of each of 4
// columns), mp/8 blocks. With 32 rows × 8 slices, f64 8192 ran 256 blocks at 24 % occupancy and took 1.76×
// col_shifts' time for the same bytes (ncu, H100). The slices' partial results are combined in a fixed
// order: the exponents do not depend on scheduling.
constexpr int kRowsPerBlock = 8, kSlices = 32;
template <class T>
__global__ void row_shifts(const T* A, long long lda, long long m, long long k, double limit, double hk, int* e,
                           long long mp) {
  __shared__ double part[kSlices][kRowsPerBlock], part_sum[kSlices][kRowsPerBlock];
  __shared__ int bad[kSlices][kRowsPerBlock];
  const int x = threadIdx.x, y = threadIdx.y;
  const long long i = blockIdx.x * (long long)kRowsPerBlock + x;
  double amax = 0, sum = 0;
  int nonfinite = 0;
  if (i < m)
#pragma unroll 4
    for (long long h = y; h < k; h += kSlices) {
      const double a = (double)A[i + h * lda];
      amax = fmax(amax, fabs(a));
      sum = fma(a, a, sum);
      nonfinite |= !isfinite(a);
    }
  part[y][x] = amax, part_sum[y][x] = sum, bad[y][x] = nonfinite;
  __syncthreads();
  amax = 0, sum = 0;
  for (int s = 0; s < kSlices; ++s) amax = fmax(amax, part[s][x]), sum += part_sum[s][x], nonfinite |= bad[s][x];
  int sc = 0;
  const bool again = !nonfinite && amax > 0 && !one_pass_safe(amax);  // the same for the 32 threads of row i
  __syncthreads();
  if (again) {
    sc = -ilogb(amax), sum = 0;
    for (long long h = y; h < k; h += kSlices) {
      const double v = ldexp((double)A[i + h * lda], sc);
      sum = fma(v, v, sum);
    }
    part_sum[y][x] = sum;
  }
  __syncthreads();
  if (again) {
    sum = 0;
    for (int s = 0; s < kSlices; ++s) sum += part_sum[s][x];
  }
  if (y == 0 && i < mp) e[i] = nonfinite ? kNonFinite : i < m && amax > 0 ? shift_for(sqrt(sum), limit, hk) + sc : 0;
}

// Columns of B (k × n, ldb): one warp per column.
template <class T>
__global__ void col_shifts(const T* B, long long ldb, long long k, long long n, double limit, double hk, int* f,
                           long long np) {
  const long long j = blockIdx.x * 8LL + threadIdx.y;
  double amax = 0, sum = 0;
  int nonfinite = 0;
  if (j < n)
#pragma unroll 4
    for (long long h = threadIdx.x; h < k; h += 32) {
      const double b = (double)B[h + j * ldb];
      amax = fmax(amax, fabs(b));
      sum = fma(b, b, sum);
      nonfinite |= !isfinite(b);
    }
  for (int o = 16; o; o >>= 1) {
    amax = fmax(amax, __shfl_xor_sync(0xffffffffu, amax, o));
    sum += __shfl_xor_sync(0xffffffffu, sum, o);
  }
  nonfinite = __any_sync(0xffffffffu, nonfinite);
  int sc = 0;
  if (!nonfinite && amax > 0 && !one_pass_safe(amax)) {  // warp-uniform
    sc = -ilogb(amax), sum = 0;
    for (long long h = threadIdx.x; h < k; h += 32) {
      const double x = ldexp((double)B[h + j * ldb], sc);
      sum = fma(x, x, sum);
    }
    for (int o = 16; o; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o);
  }
  if (threadIdx.x == 0 && j < np)
    f[j] = nonfinite ? kNonFinite : j < n && amax > 0 ? shift_for(sqrt(sum), limit, hk) + sc : 0;
}

// ---- 2. residues. Each scaled integer is rounded once and split into float limbs; its residues take
// float multiply-adds only (residue_of_limbs). Every thread writes four consecutive h of one line per
// modulus (char4 stores: a warp writes 128 contiguous bytes per modulus).

// The residues of four consecutive h for every modulus of the pass: one char4 per modulus, modulus l at
// out + l·stride. The loop is unrolled, so that the constants of modulus l are operands, not loads.
template <int NL>
__device__ inline void store_residues(const Limbs<NL> (&v)[4], const ResidueParams& rp, int8_t* out,
                                      long long stride) {
#pragma unroll
  for (int l = 0; l < kMaxModuli; ++l) {
    if (l == rp.n) break;
    store4(out + l * stride, residue_of_limbs(v[0], rp.mod[l]), residue_of_limbs(v[1], rp.mod[l]),
           residue_of_limbs(v[2], rp.mod[l]), residue_of_limbs(v[3], rp.mod[l]));
  }
}

// A (m × k) → At_l (kp × mp, ld kp) for every modulus, through a 32 (i) × 128 (h) tile in shared memory:
// read along i (coalesced), written along h. The tile's rows are 129 words apart (no bank conflicts on
// the loads); the reads of four consecutive h meet 4-way conflicts, once per element against one
// residue per modulus.
constexpr int kTileH = 128;
template <class T, int NL>
__global__ void residues_a(const T* A, long long lda, long long m, long long k, const int* e, ResidueParams rp,
                           int8_t* At, long long mp, long long kp) {
  __shared__ long long tile[32][kTileH + 1];  // [i][h]
  const long long i0 = blockIdx.x * 32LL, h0 = blockIdx.y * (long long)kTileH;
  {
    const long long i = i0 + threadIdx.x;
    const int ei = i < m ? e[i] : kNonFinite;
    for (int q = 0; q < kTileH / 8; ++q) {
      const long long h = h0 + threadIdx.y + 8 * q;
      tile[threadIdx.x][threadIdx.y + 8 * q] =
          ei != kNonFinite && h < k ? scaled_integer((double)A[i + h * lda], ei) : 0;
    }
  }
  __syncthreads();
  const long long h = h0 + 4 * threadIdx.x;
  if (h >= kp) return;
  for (int r = 0; r < 4; ++r) {
    const int il = 4 * threadIdx.y + r;
    Limbs<NL> v[4];
    for (int c = 0; c < 4; ++c) v[c] = limbs_of<NL>(tile[il][4 * threadIdx.x + c]);
    store_residues(v, rp, At + h + (i0 + il) * kp, kp * mp);
  }
}

// B (k × n) → Bt_l (kp × np, ld kp), same layout: four consecutive h of one column per thread.
template <class T, int NL>
__global__ void residues_b(const T* B, long long ldb, long long k, long long n, const int* f, ResidueParams rp,
                           int8_t* Bt, long long kp, long long np) {
  const long long count = kp * np;
  for (long long j = blockIdx.y; j < np; j += gridDim.y) {
    const int fj = j < n ? f[j] : kNonFinite;
    for (long long h = 4 * (blockIdx.x * (long long)blockDim.x + threadIdx.x); h < kp;
         h += 4LL * gridDim.x * blockDim.x) {
      Limbs<NL> v[4];
      for (int c = 0; c < 4; ++c)
        v[c] = limbs_of<NL>(fj != kNonFinite && h + c < k ? scaled_integer((double)B[h + c + j * ldb], fj) : 0);
      store_residues(v, rp, Bt + h + j * kp, count);
    }
  }
}

// Through a level (B×B blocks, rank R): the R operand sums of every modulus straight from A and B, written
// where the plain residues would go: operand r of modulus l at (l·R + r)·kb·xb, kb × xb (ld kb) each.
// A's block (a,c) holds rows a·mb…, depths c·kb… (q = a·B + c); B's block (c,d) depths c·kb…, columns
// d·nb… (q = c·B + d). Each thread takes one x and H consecutive h, holding the Q·H limbs of its position:
// H = 4 for B = 2 (char4 stores), 1 for B = 4 (the limbs of 16 blocks fill the registers).
template <class L>
constexpr int kLanes = L::B == 2 ? 4 : 1;

// Stores the operand residues of H consecutive h of one position for modulus l.
template <class L, bool IsA, int NL, int H>
__device__ inline void store_operands(const Limbs<NL> (&v)[H][L::B * L::B], const LimbMod& mod, int8_t* out,
                                      long long stride) {
  if constexpr (H == 4) {
    int res[H][L::R];
#pragma unroll
    for (int c = 0; c < H; ++c) operand_residues<L, IsA>(v[c], mod, [&](int r, int x) { res[c][r] = x; });
#pragma unroll
    for (int r = 0; r < L::R; ++r) store4(out + r * stride, res[0][r], res[1][r], res[2][r], res[3][r]);
  } else {
    operand_residues<L, IsA>(v[0], mod, [&](int r, int x) { out[r * stride] = (int8_t)x; });
  }
}

// Every modulus's operands of one position, the modulus loop unrolled for the 2×2 levels (the constants
// of modulus l become operands, not loads), rolled for the 4×4 ones (their 48 or 49 sums per modulus).
template <class L, bool IsA, int NL, int H>
__device__ inline void store_all_moduli(const Limbs<NL> (&v)[H][L::B * L::B], const ResidueParams& rp, int8_t* out,
                                        long long count) {
  if constexpr (L::B == 2) {
#pragma unroll
    for (int l = 0; l < kMaxModuli; ++l) {
      if (l == rp.n) break;
      store_operands<L, IsA>(v, rp.mod[l], out + l * L::R * count, count);
    }
  } else {
#pragma unroll 1
    for (int l = 0; l < rp.n; ++l) store_operands<L, IsA>(v, rp.mod[l], out + l * L::R * count, count);
  }
}

// A (m × k): per block of 256 threads, a TX (x) × 128 (h) tile of each of the Q blocks in shared memory (read
// along x), then one x and H consecutive h per thread, the threads of a warp along h, so that each 128-byte
// line of an operand is stored by one block at once: TX = 8 for B = 2 (H = 4, a warp stores whole lines),
// 2 for B = 4 (H = 1, four warps store a line). (With 32 (h) wide tiles, each warp stored a 32-byte piece
// of a line that other blocks completed later: oz2-s1's residues took 15–16 ms at f64 16384 on an H100,
// 1 TB/s, against plain oz2's 5.2 ms at 2.1 TB/s; 8 × 128 took 11 ms.)
template <class L>
constexpr int kTileX = 2 * kLanes<L>;
constexpr int kLevelTileH = 128;

template <class T, int NL, class L>
__global__ void __launch_bounds__(256) level_residues_a(const T* A, long long lda, long long m, long long k,
                                                        const int* e, ResidueParams rp, int8_t* At, long long mb,
                                                        long long kb) {
  constexpr int B = L::B, Q = B * B, H = kLanes<L>, TX = kTileX<L>, TH = kLevelTileH;
  static_assert(TX * TH / H == 256, "one position of H lanes per thread");
  __shared__ long long tile[Q][TX][TH + 1];  // [block][x][h]
  const long long x0 = blockIdx.x * (long long)TX, h0 = blockIdx.y * (long long)TH;
  const int t = threadIdx.y * (TH / H) + threadIdx.x;  // blockDim (TH / H, TX)
#pragma unroll
  for (int q = 0; q < Q; ++q)
#pragma unroll
    for (int s = t; s < TX * TH; s += 256) {
      const int xi = s % TX, hh = s / TX;
      const long long x = x0 + xi, i = (q / B) * mb + x, hb = h0 + hh, h = (q % B) * kb + hb;
      const int ei = x < mb && i < m ? e[i] : kNonFinite;
      tile[q][xi][hh] = ei != kNonFinite && hb < kb && h < k ? scaled_integer((double)A[i + h * lda], ei) : 0;
    }
  __syncthreads();
  const long long x = x0 + threadIdx.y, h = h0 + H * threadIdx.x;
  if (x >= mb || h >= kb) return;  // kb is a multiple of H
  Limbs<NL> v[H][Q];
#pragma unroll
  for (int c = 0; c < H; ++c)
#pragma unroll
    for (int q = 0; q < Q; ++q) v[c][q] = limbs_of<NL>(tile[q][threadIdx.y][H * threadIdx.x + c]);
  store_all_moduli<L, true>(v, rp, At + h + x * kb, kb * mb);
}

// B (k × n): one column x and H consecutive h per thread (reads along h, coalesced).
template <class T, int NL, class L>
__global__ void __launch_bounds__(256, 2) level_residues_b(const T* B, long long ldb, long long k, long long n,
                                                           const int* f, ResidueParams rp, int8_t* Bt, long long nb,
                                                           long long kb) {
  constexpr int Bl = L::B, Q = Bl * Bl, H = kLanes<L>;
  for (long long x = blockIdx.y; x < nb; x += gridDim.y)
    for (long long h = H * (blockIdx.x * (long long)blockDim.x + threadIdx.x); h < kb;
         h += (long long)H * gridDim.x * blockDim.x) {
      Limbs<NL> v[H][Q];
#pragma unroll
      for (int q = 0; q < Q; ++q) {
        const long long j = (q % Bl) * nb + x, h1 = (q / Bl) * kb + h;
        const int fj = j < n ? f[j] : kNonFinite;
#pragma unroll
        for (int c = 0; c < H; ++c)
          v[c][q] = limbs_of<NL>(fj != kNonFinite && h1 + c < k ? scaled_integer((double)B[h1 + c + j * ldb], fj) : 0);
      }
      store_all_moduli<L, false>(v, rp, Bt + h + x * kb, kb * nb);
    }
}

// ---- 3. one modulus. Every kernel of this step is memory-bound: four elements per thread along the
// contiguous dimension (char4 / int4 accesses, every row a multiple of 16 elements and 16-byte aligned:
// dimensions padded to 64, workspace blocks to 256 bytes), 2-D grid-stride loops (no 64-bit division),
// and the division-free reductions fold17 / reduce_small (ozaki_math.hpp) instead of %.

// INT32 product (count entries, a multiple of 4) → symmetric int8 residue: fold17 (|t| < 2^21.1) then
// reduce_small.
__global__ void reduce_product(const int32_t* Cp, long long count, SmallMod m, int8_t* R) {
  for (long long idx = 4 * (blockIdx.x * (long long)blockDim.x + threadIdx.x); idx < count;
       idx += 4LL * gridDim.x * blockDim.x) {
    const int4 c = *reinterpret_cast<const int4*>(Cp + idx);
    store4(R + idx, reduce_small(fold17(c.x, m), m), reduce_small(fold17(c.y, m), m),
           reduce_small(fold17(c.z, m), m), reduce_small(fold17(c.w, m), m));
  }
}

// Level products (R of mb × nb, INT32, one modulus) → C blocks mod p into R_l (mp × np): block (a,d)
// gets its block_residues (the lean path). W consecutive i per thread: four for the 2×2 levels (int4 loads,
// char4 stores), one for the 4×4 ones (whose 48 or 49 products per entry fill the registers); a warp reads
// 128-byte rows of each product either way.
template <class L>
constexpr int kCombineRows = L::B == 2 ? 4 : 1;

template <class L>
__global__ void level_combine(const int32_t* M, long long mb, long long nb, SmallMod m, LevelFactors fac,
                              int8_t* Rl, long long mp) {
  constexpr int B = L::B, Q = B * B, R = L::R, W = kCombineRows<L>;
  const long long count = mb * nb;
  for (long long j = blockIdx.y; j < nb; j += gridDim.y)
    for (long long i = W * (blockIdx.x * (long long)blockDim.x + threadIdx.x); i < mb;
         i += (long long)W * gridDim.x * blockDim.x) {
      const long long idx = i + j * mb;
      if constexpr (W == 4) {
        int4 v[R];
#pragma unroll
        for (int r = 0; r < R; ++r) v[r] = *reinterpret_cast<const int4*>(M + r * count + idx);
        int res[Q][4];
#pragma unroll
        for (int c = 0; c < 4; ++c)
          block_residues<L>([&](int r) { return c == 0 ? v[r].x : c == 1 ? v[r].y : c == 2 ? v[r].z : v[r].w; }, m,
                            fac, [&](int q, float x) { res[q][c] = int_of_small_float(x); });
#pragma unroll
        for (int q = 0; q < Q; ++q)
          store4(Rl + (i + (q / B) * mb) + (j + (q % B) * nb) * mp, res[q][0], res[q][1], res[q][2], res[q][3]);
      } else {
        block_residues<L>([&](int r) { return M[r * count + idx]; }, m, fac, [&](int q, float c) {
          Rl[(i + (q / B) * mb) + (j + (q % B) * nb) * mp] = (int8_t)int_of_small_float(c);
        });
      }
    }
}

// A 2-D grid for a rows × cols loop with `per` rows per thread (rows a multiple of per), blocks of `threads`.
dim3 grid2(long long rows, long long cols, int per, int threads) {
  const long long bx = (rows / per + threads - 1) / threads;
  return dim3((unsigned)std::max<long long>(1, std::min<long long>(bx, 64)),
              (unsigned)std::max<long long>(1, std::min<long long>(cols, 65535)));
}

// ---- workspace
struct Layout {
  long long mp, np, kp, mb, nb, kb;
  int rank;    // products per modulus (1, or the level's R)
  int group;   // moduli per residue pass (the operands of one pass are held at a time)
  bool fused;  // every modulus's products kept, reduced inside the reconstruction
  size_t e, f, at, bt, res, cp, total;  // byte offsets; total 0: no layout
};

// Operands: group·R blocks of kb × mb (A) and kb × nb (B), int8, for the moduli of one residue pass (all of
// them in one pass; fewer where the workspace is short: each further pass reads A and B again). Fused (no
// level, or a level of 2×2 blocks, whose four C blocks a thread of the reconstruction can hold): every
// modulus's INT32 products kept (moduli·R·mb·nb·4 bytes), no int8 residues of C; else the products of one
// modulus, reduced (or combined) into int8 residues of C (moduli·mp·np) after each.
Layout layout(const Level* level, long long m, long long n, long long k, int moduli, bool fused, int group) {
  Layout L{};
  L.fused = fused && (!level || level->b == 2);
  L.group = group;
  L.mp = padded(m), L.np = padded(n), L.kp = padded(k);
  const int b = level ? level->b : 1;
  L.rank = level ? level->rank : 1;
  L.mb = L.mp / b, L.nb = L.np / b, L.kb = L.kp / b;
  size_t at = 0;
  auto take = [&](size_t bytes) { const size_t o = at; at += aligned(bytes); return o; };
  const size_t blocks = (size_t)group * L.rank;
  L.e = take(L.mp * sizeof(int)), L.f = take(L.np * sizeof(int));
  L.at = take(blocks * L.kb * L.mb), L.bt = take(blocks * L.kb * L.nb);
  if (!L.fused) L.res = take((size_t)moduli * L.mp * L.np);
  // Reducing product l on a second stream while product l + 1 runs into a second buffer was slower on an
  // H100 (oz2 f64 16384, 16 moduli: 123.3 ms against 119.1 ms in one stream; f32 8 moduli 60.6 against
  // 59.8): the INT8 products run at the card's power limit, and the reduction's memory traffic slowed them
  // by more than it hid (bench/results/ozaki-overlap-h100-2026-11-27.json).
  L.cp = take((L.fused ? (size_t)moduli * L.rank : L.rank) * L.mb * L.nb * sizeof(int32_t));
  L.total = at;
  return L;
}

// The most residue passes a call takes (the least workspace it needs: workspace()).
constexpr int kMaxPasses = 4;
int group_of(int moduli, int passes) { return (moduli + passes - 1) / passes; }

// The fastest layout within `bytes`: fused in one residue pass, else lean in one, two, … kMaxPasses passes;
// total 0 when none fits. `lean` skips the fused one; passes > 0 takes exactly that many (lean).
Layout layout_within(const Level* lv, long long m, long long n, long long k, int moduli, size_t bytes, bool lean,
                     int passes) {
  auto fits = [&](const Layout& L) { return L.total <= bytes; };
  if (passes > 0) {
    const Layout L = layout(lv, m, n, k, moduli, false, group_of(moduli, std::min(passes, moduli)));
    return fits(L) ? L : Layout{};
  }
  if (!lean)
    if (const Layout L = layout(lv, m, n, k, moduli, true, moduli); fits(L)) return L;
  for (int p = 1; p <= kMaxPasses; ++p)
    if (const Layout L = layout(lv, m, n, k, moduli, false, group_of(moduli, p)); fits(L)) return L;
  return Layout{};
}

// ---- 4. reconstruction, unscaling, alpha and beta. Four consecutive rows per thread: one char4 load per
// modulus (mp is a multiple of 64), then Garner per element.

// Residues (as exact floats) of four consecutive rows (i … i+3, column j) for every modulus: int8 residues
// of C (char4), or, fused, the INT32 products (int4) reduced here by fold17 and folded_residue.
template <int N, bool Fused>
__device__ inline void load_residues(const void* R, long long count, long long idx, const ResidueParams& rp,
                                     float (&r)[4][N]) {
#pragma unroll
  for (int l = 0; l < N; ++l) {
    if constexpr (Fused) {
      const int4 q = *reinterpret_cast<const int4*>(static_cast<const int32_t*>(R) + l * count + idx);
      const SmallMod& m = rp.mod[l].small;
      r[0][l] = folded_residue(fold17(q.x, m), m), r[1][l] = folded_residue(fold17(q.y, m), m);
      r[2][l] = folded_residue(fold17(q.z, m), m), r[3][l] = folded_residue(fold17(q.w, m), m);
    } else {
      const char4 q = *reinterpret_cast<const char4*>(static_cast<const int8_t*>(R) + l * count + idx);
      r[0][l] = float_of_small(q.x), r[1][l] = float_of_small(q.y);
      r[2][l] = float_of_small(q.z), r[3][l] = float_of_small(q.w);
    }
  }
}

// Four consecutive elements of C: one 16-byte (f32) or two 16-byte (f64) accesses where the column is
// aligned for them and all four lie inside m, else element by element.
template <class T>
struct alignas(16) Quad {
  T v[4];
};
template <class T>
__device__ inline bool quad_aligned(const T* p, long long i, long long m) {
  return i + 3 < m && reinterpret_cast<uintptr_t>(p) % 16 == 0;
}
template <class T>
__device__ inline Quad<T> load_quad(const T* p, bool vec, long long left) {
  Quad<T> q{};
  if (vec) q = *reinterpret_cast<const Quad<T>*>(p);
  else
    for (int c = 0; c < 4 && c < left; ++c) q.v[c] = p[c];
  return q;
}
template <class T>
__device__ inline void store_quad(T* p, const Quad<T>& q, bool vec, long long left) {
  if (vec) *reinterpret_cast<Quad<T>*>(p) = q;
  else
    for (int c = 0; c < 4 && c < left; ++c) p[c] = q.v[c];
}

// One element of C from its residues: NaN where its row or column holds Inf or NaN, else
// alpha·2^−(e_i + f_j)·x + beta·old.
template <class T, int N>
__device__ inline T c_element(const float* r, const GarnerTable& g, int ei, int fj, double alpha, double beta, T old) {
  if (ei == kNonFinite || fj == kNonFinite) return T(NAN);
  double y = alpha * times_pow2(reconstruct(r, g, N), -(ei + fj));
  if (beta != 0) y = fma(beta, (double)old, y);
  return (T)y;
}

// Three blocks of 256 per SM (at most 80 registers) from 10 to 14 moduli: the kernel waits on memory, and
// with the 96 registers it took unbounded at 14 only two fit (f64 16384 on an H200: 7.2 → 5.7 ms); from 15
// moduli on, 80 registers would spill. Below 10 it takes 80–86 unbounded, and the bound (72 at 7 moduli)
// only cost (f32 at 7 moduli, H200: 2.8 ms unbounded, 3.9 ms bounded, in separate runs).
template <class T, int N, bool Fused>
__global__ void __launch_bounds__(256, N >= 10 && N <= 14 ? 3 : 2)
    reconstruct_c(const void* R, long long mp, long long np, long long m, long long n, const int* e, const int* f,
                  ResidueParams rp, GarnerTable g, double alpha, double beta, T* C, long long ldc) {
  for (long long j = blockIdx.y; j < n; j += gridDim.y)
    for (long long i = 4 * (blockIdx.x * (long long)blockDim.x + threadIdx.x); i < m;
         i += 4LL * gridDim.x * blockDim.x) {
      float r[4][N];
      load_residues<N, Fused>(R, mp * np, i + j * mp, rp, r);
      const int fj = f[j];
      T* out = C + i + j * ldc;
      const bool vec = quad_aligned(out, i, m);
      Quad<T> q = beta != 0 ? load_quad(out, vec, m - i) : Quad<T>{};
#pragma unroll
      for (int c = 0; c < 4; ++c)  // e is padded to mp: i + c < mp
        q.v[c] = c_element<T, N>(r[c], g, e[i + c], fj, alpha, beta, q.v[c]);
      store_quad(out, q, vec, m - i);
    }
}

// Fused through a level of 2×2 blocks: one position (i, j) of the block grid (mb × nb) per thread, whose
// four elements of C (one per block) it reconstructs from the R INT32 products of every modulus (int
// loads, coalesced along i) by their block_residues, then Garner per element.
template <class T, class Lv, int N>
__global__ void reconstruct_level_c(const int32_t* M, long long mb, long long nb, long long m, long long n,
                                    const int* e, const int* f, ResidueParams rp, GarnerTable g, double alpha,
                                    double beta, T* C, long long ldc) {
  constexpr int B = Lv::B, Q = B * B, R = Lv::R;
  static_assert(Q == 4 && Lv::unit_c, "a thread holds four elements; no C factors");
  const LevelFactors unit{};
  const long long count = mb * nb;
  for (long long j = blockIdx.y; j < nb; j += gridDim.y)
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < mb;
         i += (long long)gridDim.x * blockDim.x) {
      float r[Q][N];
      const int32_t* at = M + i + j * mb;
#pragma unroll
      for (int l = 0; l < N; ++l)
        block_residues<Lv>([&](int k) { return at[(l * R + k) * count]; }, rp.mod[l].small, unit,
                           [&](int q, float c) { r[q][l] = c; });
#pragma unroll
      for (int q = 0; q < Q; ++q) {
        const long long row = (q / B) * mb + i, col = (q % B) * nb + j;
        if (row >= m || col >= n) continue;
        T* out = C + row + col * ldc;
        *out = c_element<T, N>(r[q], g, e[row], f[col], alpha, beta, beta != 0 ? *out : T(0));
      }
    }
}

// No scheme level: the plain plan.
struct NoLevel {
  static constexpr int B = 1, R = 1;
};
template <class Lv>
constexpr bool plain = std::is_same_v<Lv, NoLevel>;

template <class T, class Lv, int N>
void launch_reconstruct(const Layout& L, const char* ws, const ResidueParams& rp, long long m, long long n, const int* e,
                        const int* f, double alpha, double beta, T* C, long long ldc, cudaStream_t s) {
  const GarnerTable g = garner_table(N);
  if constexpr (Lv::B == 2) {
    if (L.fused) {  // layout fuses levels of 2×2 blocks only
      reconstruct_level_c<T, Lv, N><<<grid2(L.mb, L.nb, 1, 256), 256, 0, s>>>(
          reinterpret_cast<const int32_t*>(ws + L.cp), L.mb, L.nb, m, n, e, f, rp, g, alpha, beta, C, ldc);
      return;
    }
  }
  const dim3 grid = grid2(L.mp, n, 4, 256);
  if (plain<Lv> && L.fused)
    reconstruct_c<T, N, true><<<grid, 256, 0, s>>>(ws + L.cp, L.mp, L.np, m, n, e, f, rp, g, alpha, beta, C, ldc);
  else
    reconstruct_c<T, N, false><<<grid, 256, 0, s>>>(ws + L.res, L.mp, L.np, m, n, e, f, rp, g, alpha, beta, C, ldc);
}

template <class T, class Lv, int N = 2>
bool reconstruct_any(int moduli, const Layout& L, const char* ws, const ResidueParams& rp, long long m, long long n,
                     const int* e, const int* f, double alpha, double beta, T* C, long long ldc, cudaStream_t s) {
  if constexpr (N > kMaxModuli) {
    return false;
  } else {
    if (moduli == N) return launch_reconstruct<T, Lv, N>(L, ws, rp, m, n, e, f, alpha, beta, C, ldc, s), true;
    return reconstruct_any<T, Lv, N + 1>(moduli, L, ws, rp, m, n, e, f, alpha, beta, C, ldc, s);
  }
}

int from_cuda(cudaError_t e) { return e == cudaSuccess ? 0 : 3; }

// Where the time of one call goes (environment TDISC_OZAKI_PHASES set): events on the stream after each
// phase, summed per phase and printed to stderr when the call ends (which then waits for the stream:
// diagnostics only, never on by default).
class Phases {
 public:
  enum { start, scaling, residues, int8_products, reductions, reconstruction, count };
  explicit Phases(cudaStream_t s) : s_(s), on_(std::getenv("TDISC_OZAKI_PHASES") != nullptr) {}
  Phases(const Phases&) = delete;
  Phases& operator=(const Phases&) = delete;
  void mark(int phase) {
    if (!on_ || n_ == kMax) return;
    cudaEventCreate(&events_[n_]);
    cudaEventRecord(events_[n_], s_);
    phase_[n_++] = phase;
  }
  void print(const std::string& what) {
    if (!on_ || n_ < 2) return;
    cudaEventSynchronize(events_[n_ - 1]);
    float ms[count] = {};
    for (int i = 1; i < n_; ++i) {
      float t = 0;
      cudaEventElapsedTime(&t, events_[i - 1], events_[i]);
      ms[phase_[i]] += t;
    }
    std::fprintf(stderr,
                 "tdisc_gemm %s phases (ms): scaling %.3f, residues %.3f, INT8 products %.3f, "
                 "reductions and C combinations %.3f, reconstruction %.3f\n",
                 what.c_str(), ms[scaling], ms[residues], ms[int8_products], ms[reductions],
                 ms[reconstruction]);
  }
  ~Phases() {
    for (int i = 0; i < n_; ++i) cudaEventDestroy(events_[i]);
  }

 private:
  static constexpr int kMax = 4 * kMaxModuli + 8;
  cudaStream_t s_;
  bool on_;
  int n_ = 0;
  cudaEvent_t events_[kMax] = {};
  int phase_[kMax] = {};
};

// Columns of B per INT8 product. On an H100 (cuBLAS 13.1) one INT8 product of 16384³ took 11.3 ms per
// modulus, in panels of 8192 or 4096 columns 6.2 ms (oz2 f64 at 17 moduli: 228 ms → 139 ms;
// bench/results/ozaki-2026-11-26-h100-panels.json); two moduli in one strided-batched call 7.97 ms a
// modulus (int8-h100-2026-11-27.json). TDISC_OZAKI_PANEL overrides it (0: one product), for measurement.
long long panel_columns(long long np) {
  static const long long chosen = [] {
    const char* env = std::getenv("TDISC_OZAKI_PANEL");
    return env ? std::atoll(env) : kDefaultPanel;
  }();
  return chosen > 0 ? std::min(np, (chosen + kPad - 1) / kPad * kPad) : np;
}

// P (mr × nc, INT32, ld mr) = Xt^T·Y for Xt (kd × mr) and Y (kd × nc), both int8 with ld kd (the TN layout
// of the tensor cores): cublasGemmEx in panels of Y's columns.
int int8_product(cublasHandle_t h, long long mr, long long nc, long long kd, const int8_t* Xt, const int8_t* Y,
                 int32_t* P) {
  const int32_t one = 1, zero = 0;
  const long long panel = panel_columns(nc);
  for (long long j0 = 0; j0 < nc; j0 += panel) {
    const long long w = std::min(panel, nc - j0);
    const cublasStatus_t cs = cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, (int)mr, (int)w, (int)kd, &one, Xt, CUDA_R_8I,
                                           (int)kd, Y + j0 * kd, CUDA_R_8I, (int)kd, &zero, P + j0 * mr, CUDA_R_32I,
                                           (int)mr, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT);
    if (cs != CUBLAS_STATUS_SUCCESS) return 2;
  }
  return 0;
}

int blocks_for(long long count) { return (int)std::min<long long>(4096, (count + 255) / 256); }

// Modulus l: its R INT8 products (operand r of At_l and Bt_l), kept for the reconstruction (fused) or,
// lean, reduced (no level) or combined (the level's C blocks) into the int8 residues of C, Rl.
template <class Lv>
int product_mod(cublasHandle_t h, cudaStream_t s, const Layout& L, const int8_t* At, const int8_t* Bt, int l,
                char* ws, int8_t* Rl, Phases& ph) {
  const size_t block = (size_t)L.mb * L.nb;
  int32_t* M = reinterpret_cast<int32_t*>(ws + L.cp) + (L.fused ? (size_t)l * L.rank * block : 0);
  for (int r = 0; r < L.rank; ++r)
    if (int st = int8_product(h, L.mb, L.nb, L.kb, At + (size_t)r * L.kb * L.mb, Bt + (size_t)r * L.kb * L.nb,
                              M + r * block))
      return st;
  ph.mark(Phases::int8_products);
  if (L.fused) return 0;  // reduced in the reconstruction
  const int p = kModuli[l];
  if constexpr (plain<Lv>)
    reduce_product<<<blocks_for(L.mp * L.np / 4), 256, 0, s>>>(M, L.mp * L.np, small_mod(p), Rl);
  else
    level_combine<Lv><<<grid2(L.mb, L.nb, kCombineRows<Lv>, 256), 256, 0, s>>>(M, L.mb, L.nb, small_mod(p),
                                                                               level_factors<Lv>(p), Rl, L.mp);
  return from_cuda(cudaGetLastError());
}

// The residue kernels with the fewest limbs that hold the scaled integers (f32 at 7 moduli: 2, f64 at 14: 4).
template <class T, class Lv, int NL>
void launch_residues_nl(const T* A, long long lda, const T* B, long long ldb, long long m, long long n, long long k,
                        const int* e, const int* f, const ResidueParams& rp, int8_t* At, int8_t* Bt, const Layout& L,
                        cudaStream_t s) {
  if constexpr (plain<Lv>) {
    residues_a<T, NL><<<dim3((unsigned)(L.mp / 32), (unsigned)((L.kp + kTileH - 1) / kTileH)), dim3(32, 8), 0, s>>>(
        A, lda, m, k, e, rp, At, L.mp, L.kp);
    residues_b<T, NL><<<grid2(L.kp, L.np, 4, 256), 256, 0, s>>>(B, ldb, k, n, f, rp, Bt, L.kp, L.np);
  } else {
    constexpr int H = kLanes<Lv>;
    constexpr int TX = kTileX<Lv>, TH = kLevelTileH;
    level_residues_a<T, NL, Lv><<<dim3((unsigned)((L.mb + TX - 1) / TX), (unsigned)((L.kb + TH - 1) / TH)),
                                  dim3(TH / H, TX), 0, s>>>(A, lda, m, k, e, rp, At, L.mb, L.kb);
    level_residues_b<T, NL, Lv><<<grid2(L.kb, L.nb, H, 256), 256, 0, s>>>(B, ldb, k, n, f, rp, Bt, L.nb, L.kb);
  }
}

template <class T, class Lv>
void launch_residues(int limbs, const T* A, long long lda, const T* B, long long ldb, long long m, long long n,
                     long long k, const int* e, const int* f, const ResidueParams& rp, int8_t* At, int8_t* Bt,
                     const Layout& L, cudaStream_t s) {
  if (limbs == 2) launch_residues_nl<T, Lv, 2>(A, lda, B, ldb, m, n, k, e, f, rp, At, Bt, L, s);
  else if (limbs == 3) launch_residues_nl<T, Lv, 3>(A, lda, B, ldb, m, n, k, e, f, rp, At, Bt, L, s);
  else if (limbs == 4) launch_residues_nl<T, Lv, 4>(A, lda, B, ldb, m, n, k, e, f, rp, At, Bt, L, s);
  else launch_residues_nl<T, Lv, 5>(A, lda, B, ldb, m, n, k, e, f, rp, At, Bt, L, s);
}

template <class T, class Lv>
int emulate_as(cublasHandle_t h, cudaStream_t s, const char* plan, int moduli, long long m, long long n, long long k,
               double alpha, const T* A, long long lda, const T* B, long long ldb, double beta, T* C, long long ldc,
               void* workspace_ptr, size_t bytes) {
  Level level;
  bool has_level = false;
  if (!level_named(plan, level, has_level) || !unsupported(plan, m, n, k, moduli).empty()) return 1;
  const Level* lv = has_level ? &level : nullptr;
  if (has_level == plain<Lv> || level.b != Lv::B || level.rank != Lv::R) return 1;
  // The fastest layout the workspace holds (the caller offers workspace_within its limit); for the GPU
  // check, which compares the paths bit for bit: TDISC_OZAKI_LEAN set, the lean path; TDISC_OZAKI_PASSES=n,
  // the lean path in n residue passes.
  const char* passes = std::getenv("TDISC_OZAKI_PASSES");
  const Layout L = layout_within(lv, m, n, k, moduli, bytes, std::getenv("TDISC_OZAKI_LEAN") != nullptr,
                                 passes ? std::atoi(passes) : 0);
  if (L.total == 0 || reinterpret_cast<uintptr_t>(workspace_ptr) % 16 != 0) return 1;
  char* ws = static_cast<char*>(workspace_ptr);
  int* e = reinterpret_cast<int*>(ws + L.e);
  int* f = reinterpret_cast<int*>(ws + L.f);
  int8_t* At = reinterpret_cast<int8_t*>(ws + L.at);
  int8_t* Bt = reinterpret_cast<int8_t*>(ws + L.bt);
  int8_t* Rres = L.fused ? nullptr : reinterpret_cast<int8_t*>(ws + L.res);  // fused: no int8 residues of C
  const double limit = line_limit(moduli), hk = 0.5 * std::sqrt((double)k);
  Phases ph(s);
  ph.mark(Phases::start);

  row_shifts<T><<<(unsigned)(L.mp / kRowsPerBlock), dim3(kRowsPerBlock, kSlices), 0, s>>>(A, lda, m, k, limit, hk, e,
                                                                                         L.mp);
  col_shifts<T><<<(unsigned)((L.np + 7) / 8), dim3(32, 8), 0, s>>>(B, ldb, k, n, limit, hk, f, L.np);
  ph.mark(Phases::scaling);
  const size_t per_a = (size_t)L.rank * L.kb * L.mb, per_b = (size_t)L.rank * L.kb * L.nb;
  for (int first = 0; first < moduli; first += L.group) {  // one residue pass, then its moduli's products
    const int count = std::min(L.group, moduli - first);
    launch_residues<T, Lv>(limbs_for(limit), A, lda, B, ldb, m, n, k, e, f, residue_params(first, count), At, Bt, L,
                           s);
    if (int st = from_cuda(cudaGetLastError())) return st;
    ph.mark(Phases::residues);
    for (int l = first; l < first + count; ++l) {
      const int st = product_mod<Lv>(h, s, L, At + (l - first) * per_a, Bt + (l - first) * per_b, l, ws,
                                     Rres ? Rres + (size_t)l * L.mp * L.np : nullptr, ph);
      if (st) return st;
      ph.mark(Phases::reductions);
    }
  }
  if (!reconstruct_any<T, Lv>(moduli, L, ws, residue_params(0, moduli), m, n, e, f, alpha, beta, C, ldc, s)) return 1;
  ph.mark(Phases::reconstruction);
  ph.print(std::string(plan) + " " + std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) + ", " +
           std::to_string(moduli) + " moduli");
  return from_cuda(cudaGetLastError());
}

template <class T>
int emulate(cublasHandle_t h, cudaStream_t s, const char* plan, int moduli, long long m, long long n, long long k,
            double alpha, const T* A, long long lda, const T* B, long long ldb, double beta, T* C, long long ldc,
            void* ws, size_t bytes) {
  const std::string p = plan ? plan : "";
  auto as = [&](auto level) {
    return emulate_as<T, decltype(level)>(h, s, plan, moduli, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, ws, bytes);
  };
  if (p == "oz2") return as(NoLevel{});
  if (p == "oz2-s1") return as(Level_s1{});
  if (p == "oz2-s2") return as(Level_s2{});
  if (p == "oz2-r48") return as(Level_r48{});
  return 1;
}

}  // namespace

bool is_emulated(const char* plan) { return plan && std::strncmp(plan, "oz2", 3) == 0; }

bool known_emulated(const char* plan) {
  Level l;
  bool has = false;
  return plan && level_named(plan, l, has);
}

int default_moduli(int dtype, long long k) { return moduli_for(dtype == 1 ? 53 : 24, k); }

std::string unsupported(const char* plan, long long m, long long n, long long k, int moduli) {
  Level l;
  bool has = false;
  if (!plan || !level_named(plan, l, has)) return std::string("no emulated plan ") + (plan ? plan : "(null)");
  if (moduli < 2 || moduli > kMaxModuli) return "moduli " + std::to_string(moduli) + " not in 2.." + std::to_string(kMaxModuli);
  const long long kp = padded(k) / (has ? l.b : 1);
  if (kp > kMaxK) return "k = " + std::to_string(k) + " too deep for exact INT32 products";
  if (0.5 * std::sqrt((double)k) >= line_limit(moduli) / 4)  // shift_for's condition
    return "k = " + std::to_string(k) + " too deep for " + std::to_string(moduli) + " moduli";
  if (padded(m) > INT32_MAX / 2 || padded(n) > INT32_MAX / 2) return "m or n too large for cublasGemmEx";
  return "";
}

size_t workspace_within(const char* plan, long long m, long long n, long long k, int moduli, size_t budget) {
  Level l;
  bool has = false;
  if (!level_named(plan, l, has)) return 0;
  return layout_within(has ? &l : nullptr, m, n, k, moduli, budget, false, 0).total;
}
size_t workspace(const char* plan, long long m, long long n, long long k, int moduli) {
  Level l;
  bool has = false;
  if (!level_named(plan, l, has)) return 0;
  return layout(has ? &l : nullptr, m, n, k, moduli, false, group_of(moduli, kMaxPasses)).total;
}

int gemm_f64(cublasHandle_t h, cudaStream_t s, const char* plan, int moduli, long long m, long long n, long long k,
             double alpha, const double* A, long long lda, const double* B, long long ldb, double beta, double* C,
             long long ldc, void* ws, size_t bytes) {
  return emulate<double>(h, s, plan, moduli, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, ws, bytes);
}
int gemm_f32(cublasHandle_t h, cudaStream_t s, const char* plan, int moduli, long long m, long long n, long long k,
             float alpha, const float* A, long long lda, const float* B, long long ldb, float beta, float* C,
             long long ldc, void* ws, size_t bytes) {
  return emulate<float>(h, s, plan, moduli, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, ws, bytes);
}

}  // namespace tdisc_gemm::ozaki
