// Ozaki scheme II (Ozaki, Uchino, Imamura, arXiv:2504.08009) on INT8 tensor cores, with an optional
// scheme level over Z/p on every modular product. Steps of one call (ozaki_math.hpp has the maths):
//   1. exponents: per row of A and column of B, a power of two that brings its 2-norm below line_limit;
//   2. residues: A' = rint(2^e_i·A), B' = rint(B·2^f_j) reduced mod every p_l into int8, A' stored
//      transposed (k × m) so that every INT8 product is the TN layout the tensor cores take;
//   3. per modulus: A'_l·B'_l in INT32 by cublasGemmEx (panels of B's columns), kept for step 4 (the fused
//      path, where the workspace holds every product) or reduced mod p_l into int8 at once (the lean path);
//      or through a scheme level: the generated operand sums mod p (ozaki_levels.hpp), R INT8 products, the
//      generated C combinations;
//   4. reconstruction: (fused: each INT32 product reduced mod p_l first) Garner's balanced digits, Horner
//      in double, unscaling, alpha and beta.
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

ResidueParams residue_params(int n) {
  ResidueParams rp{};
  rp.n = n;
  for (int l = 0; l < n; ++l) rp.mod[l] = limb_mod(kModuli[l]);
  return rp;
}

// A row or column holding Inf or NaN: its exponent is this mark, its residues are zero, and the
// reconstruction writes NaN into its row or column of C (IEEE arithmetic would give Inf or NaN there).
constexpr int kNonFinite = INT_MIN;

// Four lanes of int, for the generated level code (+, −, small constant times).
struct I4 {
  int x, y, z, w;
};
__device__ inline I4 operator+(I4 a, I4 b) { return {a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w}; }
__device__ inline I4 operator-(I4 a, I4 b) { return {a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w}; }
__device__ inline I4 operator-(I4 a) { return {-a.x, -a.y, -a.z, -a.w}; }
[[maybe_unused]] __device__ inline I4 operator*(int c, I4 a) { return {c * a.x, c * a.y, c * a.z, c * a.w}; }
__device__ inline I4 load4(const int8_t* p) {
  const char4 c = *reinterpret_cast<const char4*>(p);
  return {c.x, c.y, c.z, c.w};
}
__device__ inline void store4(int8_t* p, int x, int y, int z, int w) {
  *reinterpret_cast<char4*>(p) = make_char4((signed char)x, (signed char)y, (signed char)z, (signed char)w);
}

// ---- 1. exponents. One pass over each line in the common case: its largest |element| and its sum of
// squares unscaled, which is exact enough (relatively 2^−105 lost to underflow, no overflow for k ≤ 2^17)
// when the largest lies in [2^−450, 2^450] (always for f32); otherwise a second pass sums the squares of
// the line scaled by 2^−ilogb(max).
__device__ inline bool one_pass_safe(double amax) { return amax >= 0x1p-450 && amax <= 0x1p450; }

// Rows of A (m × k, lda): 32 rows × 8 slices of k per block.
template <class T>
__global__ void row_shifts(const T* A, long long lda, long long m, long long k, double limit, double hk, int* e,
                           long long mp) {
  __shared__ double part[8][32], part_sum[8][32];
  __shared__ int bad[8][32];
  const long long i = blockIdx.x * 32LL + threadIdx.x;
  double amax = 0, sum = 0;
  int nonfinite = 0;
  if (i < m)
    for (long long h = threadIdx.y; h < k; h += 8) {
      const double a = (double)A[i + h * lda];
      amax = fmax(amax, fabs(a));
      sum = fma(a, a, sum);
      nonfinite |= !isfinite(a);
    }
  part[threadIdx.y][threadIdx.x] = amax, part_sum[threadIdx.y][threadIdx.x] = sum;
  bad[threadIdx.y][threadIdx.x] = nonfinite;
  __syncthreads();
  amax = 0, sum = 0;
  for (int s = 0; s < 8; ++s)
    amax = fmax(amax, part[s][threadIdx.x]), sum += part_sum[s][threadIdx.x], nonfinite |= bad[s][threadIdx.x];
  int sc = 0;
  const bool again = !nonfinite && amax > 0 && !one_pass_safe(amax);  // the same for the 8 threads of row i
  __syncthreads();
  if (again) {
    sc = -ilogb(amax), sum = 0;
    for (long long h = threadIdx.y; h < k; h += 8) {
      const double x = ldexp((double)A[i + h * lda], sc);
      sum = fma(x, x, sum);
    }
    part_sum[threadIdx.y][threadIdx.x] = sum;
  }
  __syncthreads();
  if (again) {
    sum = 0;
    for (int s = 0; s < 8; ++s) sum += part_sum[s][threadIdx.x];
  }
  if (threadIdx.y == 0 && i < mp)
    e[i] = nonfinite ? kNonFinite : i < m && amax > 0 ? shift_for(sqrt(sum), limit, hk) + sc : 0;
}

// Columns of B (k × n, ldb): one warp per column.
template <class T>
__global__ void col_shifts(const T* B, long long ldb, long long k, long long n, double limit, double hk, int* f,
                           long long np) {
  const long long j = blockIdx.x * 8LL + threadIdx.y;
  double amax = 0, sum = 0;
  int nonfinite = 0;
  if (j < n)
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
// float multiply-adds only (residue_of_limbs). Every thread writes four consecutive h of one line per modulus (char4 stores: a warp
// writes 128 contiguous bytes per modulus).
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
    int8_t* out = At + h + (i0 + il) * kp;
    for (int l = 0; l < rp.n; ++l)
      store4(out + l * kp * mp, residue_of_limbs(v[0], rp.mod[l]), residue_of_limbs(v[1], rp.mod[l]),
             residue_of_limbs(v[2], rp.mod[l]), residue_of_limbs(v[3], rp.mod[l]));
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
      int8_t* out = Bt + h + j * kp;
      for (int l = 0; l < rp.n; ++l)
        store4(out + l * count, residue_of_limbs(v[0], rp.mod[l]), residue_of_limbs(v[1], rp.mod[l]),
               residue_of_limbs(v[2], rp.mod[l]), residue_of_limbs(v[3], rp.mod[l]));
    }
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

// Level operand sums over Z/p: X (kp × B·xb, ld kp: At_l or Bt_l) split into B×B blocks of kb × xb;
// out_r = scale_r·den^-1·(emitted r) mod p (kb × xb each, R of them; the generated L::sums_a/sums_b).
// A's block (a,c) is x-block a, k-block c (q = a·B + c); B's block (c,d) is k-block c, x-block d (q = c·B + d).
// Thread: four consecutive h (kb a multiple of 16) of one x; each result reduced and stored as it comes.
// Bytes per modulus: reads B²·kb·xb, writes R·kb·xb (all in 4-byte coalesced accesses).
// Blocks of 128 threads: the r48 sums take 168 registers (no spills), which leaves room for 12 warps
// per SM in blocks of 128 (only 8 in blocks of 256); capping them at 128 registers spills.
constexpr int kOperandThreads = 128;
template <class L, bool IsA>
__global__ void __launch_bounds__(kOperandThreads)
    level_operand(const int8_t* X, long long kp, long long kb, long long xb, SmallMod m, LevelFactors fac,
                  int8_t* out) {
  constexpr int B = L::B, Q = B * B;
  constexpr bool unit = IsA ? L::unit_a : L::unit_b;
  constexpr int l1 = IsA ? L::l1_a : L::l1_b;
  const long long count = kb * xb;
  for (long long x = blockIdx.y; x < xb; x += gridDim.y)
    for (long long h = 4 * (blockIdx.x * (long long)blockDim.x + threadIdx.x); h < kb;
         h += 4LL * gridDim.x * blockDim.x) {
      I4 val[Q];
#pragma unroll
      for (int xq = 0; xq < B; ++xq)
#pragma unroll
        for (int hq = 0; hq < B; ++hq)
          val[IsA ? xq * B + hq : hq * B + xq] = load4(X + (h + hq * kb) + (x + xq * xb) * kp);
      const long long idx = h + x * kb;
      auto put = [&](int r, I4 s) {
        const int f = IsA ? fac.a[r] : fac.b[r];
        store4(out + r * count + idx, reduce_sum<l1, unit>(s.x, f, m), reduce_sum<l1, unit>(s.y, f, m),
               reduce_sum<l1, unit>(s.z, f, m), reduce_sum<l1, unit>(s.w, f, m));
      };
      if constexpr (IsA) L::sums_a(val, put);
      else L::sums_b(val, put);
    }
}

// Level products (R of mb × nb, INT32) → C blocks mod p into R_l (mp × np): block (a,d) gets
// scale·den^-1·(emitted combination of the folded M_r) (the generated L::combine). One i per thread
// (the int32 reads, 4R bytes per entry against B² written, coalesced in 128-byte rows per warp).
template <class L>
__global__ void level_combine(const int32_t* M, long long mb, long long nb, SmallMod m, LevelFactors fac,
                              int8_t* Rl, long long mp) {
  constexpr int B = L::B, R = L::R;
  const long long count = mb * nb;
  for (long long j = blockIdx.y; j < nb; j += gridDim.y)
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < mb;
         i += (long long)gridDim.x * blockDim.x) {
      const long long idx = i + j * mb;
      int mr[R];
#pragma unroll
      for (int r = 0; r < R; ++r) mr[r] = fold17(M[r * count + idx], m);
      L::combine(mr, [&](int q, int c) {
        const int a = q / B, d = q % B;  // constants after unrolling
        Rl[(i + a * mb) + (j + d * nb) * mp] = (int8_t)reduce_combination<L::l1_c, L::unit_c>(c, fac.c[q], m);
      });
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
  bool fused;
  size_t e, f, at, bt, res, cp, s, t, mm, total;  // byte offsets
};

// fused (plain plan only): every modulus's INT32 product kept (moduli·mp·np·4 bytes) and reduced inside the
// reconstruction, with no int8 residues of C; else one INT32 buffer reduced after each product.
Layout layout(const Level* level, long long m, long long n, long long k, int moduli, bool fused) {
  Layout L{};
  L.fused = fused && !level;
  L.mp = padded(m), L.np = padded(n), L.kp = padded(k);
  const int b = level ? level->b : 1, R = level ? level->rank : 1;
  L.mb = L.mp / b, L.nb = L.np / b, L.kb = L.kp / b;
  size_t at = 0;
  auto take = [&](size_t bytes) { const size_t o = at; at += aligned(bytes); return o; };
  L.e = take(L.mp * sizeof(int)), L.f = take(L.np * sizeof(int));
  L.at = take((size_t)moduli * L.kp * L.mp), L.bt = take((size_t)moduli * L.kp * L.np);
  if (!L.fused) L.res = take((size_t)moduli * L.mp * L.np);
  if (level) {
    L.s = take((size_t)R * L.kb * L.mb), L.t = take((size_t)R * L.kb * L.nb);
    L.mm = take((size_t)R * L.mb * L.nb * sizeof(int32_t));
  } else {
    // One INT32 product buffer. Reducing product l on a second stream while product l + 1 runs into a
    // second buffer was slower on an H100 (oz2 f64 16384, 16 moduli: 123.3 ms against 119.1 ms in one
    // stream; f32 8 moduli 60.6 against 59.8): the INT8 products run at the card's power limit, and the
    // reduction's memory traffic slowed them by more than it hid (bench/results/ozaki-overlap-h100-2026-11-27.json).
    L.cp = take((size_t)(L.fused ? moduli : 1) * L.mp * L.np * sizeof(int32_t));
  }
  L.total = at;
  return L;
}

// ---- 4. reconstruction, unscaling, alpha and beta. Four consecutive rows per thread: one char4 load per
// modulus (mp is a multiple of 64), then Garner per element.

// x·2^s as ldexp(x, s) gives it, by one multiplication where 2^s is a normal double (one rounding, the
// same as ldexp's), by ldexp elsewhere.
__device__ inline double times_pow2(double x, int s) {
  return s >= -1022 && s <= 1023 ? x * __longlong_as_double((long long)(s + 1023) << 52) : ldexp(x, s);
}

// Residues of four consecutive rows (i … i+3, column j) for every modulus: int8 residues of C (char4), or,
// fused, the INT32 products (int4) reduced here by fold17 and reduce_small.
template <int N, bool Fused>
__device__ inline void load_residues(const void* R, long long count, long long idx, const ResidueParams& rp,
                                     int (&r)[4][N]) {
#pragma unroll
  for (int l = 0; l < N; ++l) {
    if constexpr (Fused) {
      const int4 q = *reinterpret_cast<const int4*>(static_cast<const int32_t*>(R) + l * count + idx);
      const SmallMod& m = rp.mod[l].small;
      r[0][l] = reduce_small(fold17(q.x, m), m), r[1][l] = reduce_small(fold17(q.y, m), m);
      r[2][l] = reduce_small(fold17(q.z, m), m), r[3][l] = reduce_small(fold17(q.w, m), m);
    } else {
      const char4 q = *reinterpret_cast<const char4*>(static_cast<const int8_t*>(R) + l * count + idx);
      r[0][l] = q.x, r[1][l] = q.y, r[2][l] = q.z, r[3][l] = q.w;
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

template <class T, int N, bool Fused>
__global__ void reconstruct_c(const void* R, long long mp, long long np, long long m, long long n, const int* e,
                              const int* f, ResidueParams rp, GarnerTable g, double alpha, double beta, T* C,
                              long long ldc) {
  for (long long j = blockIdx.y; j < n; j += gridDim.y)
    for (long long i = 4 * (blockIdx.x * (long long)blockDim.x + threadIdx.x); i < m;
         i += 4LL * gridDim.x * blockDim.x) {
      int r[4][N];
      load_residues<N, Fused>(R, mp * np, i + j * mp, rp, r);
      const int fj = f[j];
      T* out = C + i + j * ldc;
      const bool vec = quad_aligned(out, i, m);
      Quad<T> q = beta != 0 ? load_quad(out, vec, m - i) : Quad<T>{};
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        if (e[i + c] == kNonFinite || fj == kNonFinite) {  // e is padded to mp: i + c < mp
          q.v[c] = T(NAN);
          continue;
        }
        double y = alpha * times_pow2(reconstruct(r[c], g, N), -(e[i + c] + fj));
        if (beta != 0) y = fma(beta, (double)q.v[c], y);
        q.v[c] = (T)y;
      }
      store_quad(out, q, vec, m - i);
    }
}

template <class T, int N>
void launch_reconstruct(const Layout& L, const char* ws, const ResidueParams& rp, long long m, long long n, const int* e,
                        const int* f, double alpha, double beta, T* C, long long ldc, cudaStream_t s) {
  const dim3 grid = grid2(L.mp, n, 4, 256);
  if (L.fused)
    reconstruct_c<T, N, true><<<grid, 256, 0, s>>>(ws + L.cp, L.mp, L.np, m, n, e, f, rp, garner_table(N), alpha, beta,
                                                   C, ldc);
  else
    reconstruct_c<T, N, false><<<grid, 256, 0, s>>>(ws + L.res, L.mp, L.np, m, n, e, f, rp, garner_table(N), alpha,
                                                    beta, C, ldc);
}

template <class T, int N = 2>
bool reconstruct_any(int moduli, const Layout& L, const char* ws, const ResidueParams& rp, long long m, long long n,
                     const int* e, const int* f, double alpha, double beta, T* C, long long ldc, cudaStream_t s) {
  if constexpr (N > kMaxModuli) {
    return false;
  } else {
    if (moduli == N) return launch_reconstruct<T, N>(L, ws, rp, m, n, e, f, alpha, beta, C, ldc, s), true;
    return reconstruct_any<T, N + 1>(moduli, L, ws, rp, m, n, e, f, alpha, beta, C, ldc, s);
  }
}

int from_cuda(cudaError_t e) { return e == cudaSuccess ? 0 : 3; }

// Where the time of one call goes (environment TDISC_OZAKI_PHASES set): events on the stream after each
// phase, summed per phase and printed to stderr when the call ends (which then waits for the stream:
// diagnostics only, never on by default).
class Phases {
 public:
  enum { start, scaling, residues, operand_sums, int8_products, reductions, reconstruction, count };
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
                 "tdisc_gemm %s phases (ms): scaling %.3f, residues %.3f, operand sums %.3f, INT8 products %.3f, "
                 "reductions and C combinations %.3f, reconstruction %.3f\n",
                 what.c_str(), ms[scaling], ms[residues], ms[operand_sums], ms[int8_products], ms[reductions],
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

int blocks_for(long long count) { return (int)std::min<long long>(4096, (count + 255) / 256); }

// One modulus's product through a level: sums, R INT8 products (strided batched), combination.
template <class Lv>
int level_product(cublasHandle_t h, cudaStream_t s, const Layout& L, const int8_t* At, const int8_t* Bt, int p,
                  char* ws, int8_t* Rl, Phases& ph) {
  int8_t* S = reinterpret_cast<int8_t*>(ws + L.s);
  int8_t* T = reinterpret_cast<int8_t*>(ws + L.t);
  int32_t* M = reinterpret_cast<int32_t*>(ws + L.mm);
  constexpr int R = Lv::R;
  const SmallMod m = small_mod(p);
  const LevelFactors fac = level_factors<Lv>(p);
  constexpr int th = kOperandThreads;
  level_operand<Lv, true><<<grid2(L.kb, L.mb, 4, th), th, 0, s>>>(At, L.kp, L.kb, L.mb, m, fac, S);
  level_operand<Lv, false><<<grid2(L.kb, L.nb, 4, th), th, 0, s>>>(Bt, L.kp, L.kb, L.nb, m, fac, T);
  if (int st = from_cuda(cudaGetLastError())) return st;
  ph.mark(Phases::operand_sums);
  const int32_t one = 1, zero = 0;
  const cublasStatus_t cs = cublasGemmStridedBatchedEx(
      h, CUBLAS_OP_T, CUBLAS_OP_N, (int)L.mb, (int)L.nb, (int)L.kb, &one, S, CUDA_R_8I, (int)L.kb, L.kb * L.mb, T,
      CUDA_R_8I, (int)L.kb, L.kb * L.nb, &zero, M, CUDA_R_32I, (int)L.mb, L.mb * L.nb, R, CUBLAS_COMPUTE_32I,
      CUBLAS_GEMM_DEFAULT);
  if (cs != CUBLAS_STATUS_SUCCESS) return 2;
  ph.mark(Phases::int8_products);
  level_combine<Lv><<<grid2(L.mb, L.nb, 1, 256), 256, 0, s>>>(M, L.mb, L.nb, m, fac, Rl, L.mp);
  return from_cuda(cudaGetLastError());
}

// Columns of B per INT8 product of the plain plan. On an H100 (cuBLAS 13.1) one INT8 product of 16384³
// took 11.3 ms per modulus, in panels of 8192 or 4096 columns 6.2 ms (oz2 f64 at 17 moduli: 228 ms →
// 139 ms; bench/results/ozaki-2026-11-26-h100-panels.json). TDISC_OZAKI_PANEL overrides it (0: one
// product), for measurement.
long long panel_columns(long long np) {
  static const long long chosen = [] {
    const char* env = std::getenv("TDISC_OZAKI_PANEL");
    return env ? std::atoll(env) : kDefaultPanel;
  }();
  return chosen > 0 ? std::min(np, (chosen + kPad - 1) / kPad * kPad) : np;
}

int product_mod(cublasHandle_t h, cudaStream_t s, const std::string& plan, const Layout& L, const int8_t* At,
                const int8_t* Bt, int l, char* ws, int8_t* Rl, Phases& ph) {
  const int p = kModuli[l];
  if (plan == "oz2") {
    int32_t* Cp = reinterpret_cast<int32_t*>(ws + L.cp) + (L.fused ? (size_t)l * L.mp * L.np : 0);
    const int32_t one = 1, zero = 0;
    const long long panel = panel_columns(L.np);
    for (long long j0 = 0; j0 < L.np; j0 += panel) {
      const long long w = std::min(panel, L.np - j0);
      const cublasStatus_t cs = cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, (int)L.mp, (int)w, (int)L.kp, &one, At,
                                             CUDA_R_8I, (int)L.kp, Bt + j0 * L.kp, CUDA_R_8I, (int)L.kp, &zero,
                                             Cp + j0 * L.mp, CUDA_R_32I, (int)L.mp, CUBLAS_COMPUTE_32I,
                                             CUBLAS_GEMM_DEFAULT);
      if (cs != CUBLAS_STATUS_SUCCESS) return 2;
    }
    ph.mark(Phases::int8_products);
    if (L.fused) return 0;  // reduced in the reconstruction
    reduce_product<<<blocks_for(L.mp * L.np / 4), 256, 0, s>>>(Cp, L.mp * L.np, small_mod(p), Rl);
    return from_cuda(cudaGetLastError());
  }
  if (plan == "oz2-s1") return level_product<Level_s1>(h, s, L, At, Bt, p, ws, Rl, ph);
  if (plan == "oz2-s2") return level_product<Level_s2>(h, s, L, At, Bt, p, ws, Rl, ph);
  if (plan == "oz2-r48") return level_product<Level_r48>(h, s, L, At, Bt, p, ws, Rl, ph);
  return 1;
}

// The residue kernels with the fewest limbs that hold the scaled integers (f32 at 7 moduli: 3).
template <class T, int NL>
void launch_residues_nl(const T* A, long long lda, const T* B, long long ldb, long long m, long long n, long long k,
                        const int* e, const int* f, const ResidueParams& rp, int8_t* At, int8_t* Bt, long long mp,
                        long long np, long long kp, cudaStream_t s) {
  residues_a<T, NL><<<dim3((unsigned)(mp / 32), (unsigned)((kp + kTileH - 1) / kTileH)), dim3(32, 8), 0, s>>>(
      A, lda, m, k, e, rp, At, mp, kp);
  residues_b<T, NL><<<grid2(kp, np, 4, 256), 256, 0, s>>>(B, ldb, k, n, f, rp, Bt, kp, np);
}

template <class T>
void launch_residues(int limbs, const T* A, long long lda, const T* B, long long ldb, long long m, long long n,
                     long long k, const int* e, const int* f, const ResidueParams& rp, int8_t* At, int8_t* Bt,
                     const Layout& L, cudaStream_t s) {
  if (limbs == 3) launch_residues_nl<T, 3>(A, lda, B, ldb, m, n, k, e, f, rp, At, Bt, L.mp, L.np, L.kp, s);
  else if (limbs == 4) launch_residues_nl<T, 4>(A, lda, B, ldb, m, n, k, e, f, rp, At, Bt, L.mp, L.np, L.kp, s);
  else launch_residues_nl<T, 5>(A, lda, B, ldb, m, n, k, e, f, rp, At, Bt, L.mp, L.np, L.kp, s);
}

template <class T>
int emulate(cublasHandle_t h, cudaStream_t s, const char* plan, int moduli, long long m, long long n, long long k,
            double alpha, const T* A, long long lda, const T* B, long long ldb, double beta, T* C, long long ldc,
            void* workspace_ptr, size_t bytes) {
  Level level;
  bool has_level = false;
  if (!level_named(plan, level, has_level) || !unsupported(plan, m, n, k, moduli).empty()) return 1;
  const Level* lv = has_level ? &level : nullptr;
  // Fused where the workspace holds it (the caller offers workspace_fast when it fits its limit);
  // TDISC_OZAKI_LEAN set: the lean path always (the GPU check compares the two bit for bit).
  const Layout fused = layout(lv, m, n, k, moduli, true);
  const Layout L = bytes >= fused.total && !std::getenv("TDISC_OZAKI_LEAN") ? fused : layout(lv, m, n, k, moduli, false);
  if (bytes < L.total || reinterpret_cast<uintptr_t>(workspace_ptr) % 16 != 0) return 1;
  char* ws = static_cast<char*>(workspace_ptr);
  int* e = reinterpret_cast<int*>(ws + L.e);
  int* f = reinterpret_cast<int*>(ws + L.f);
  int8_t* At = reinterpret_cast<int8_t*>(ws + L.at);
  int8_t* Bt = reinterpret_cast<int8_t*>(ws + L.bt);
  int8_t* Rres = L.fused ? nullptr : reinterpret_cast<int8_t*>(ws + L.res);  // fused: no int8 residues of C
  const double limit = line_limit(moduli), hk = 0.5 * std::sqrt((double)k);
  Phases ph(s);
  ph.mark(Phases::start);

  row_shifts<T><<<(unsigned)((L.mp + 31) / 32), dim3(32, 8), 0, s>>>(A, lda, m, k, limit, hk, e, L.mp);
  col_shifts<T><<<(unsigned)((L.np + 7) / 8), dim3(32, 8), 0, s>>>(B, ldb, k, n, limit, hk, f, L.np);
  ph.mark(Phases::scaling);
  const ResidueParams rp = residue_params(moduli);
  launch_residues<T>(limbs_for(limit), A, lda, B, ldb, m, n, k, e, f, rp, At, Bt, L, s);
  if (int st = from_cuda(cudaGetLastError())) return st;
  ph.mark(Phases::residues);
  for (int l = 0; l < moduli; ++l) {
    const int st = product_mod(h, s, plan, L, At + (size_t)l * L.kp * L.mp, Bt + (size_t)l * L.kp * L.np, l, ws,
                               Rres ? Rres + (size_t)l * L.mp * L.np : nullptr, ph);
    if (st) return st;
    ph.mark(Phases::reductions);
  }
  if (!reconstruct_any<T>(moduli, L, ws, rp, m, n, e, f, alpha, beta, C, ldc, s)) return 1;
  ph.mark(Phases::reconstruction);
  ph.print(std::string(plan) + " " + std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) + ", " +
           std::to_string(moduli) + " moduli");
  return from_cuda(cudaGetLastError());
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

namespace {
size_t layout_bytes(const char* plan, long long m, long long n, long long k, int moduli, bool fused) {
  Level l;
  bool has = false;
  if (!level_named(plan, l, has)) return 0;
  return layout(has ? &l : nullptr, m, n, k, moduli, fused).total;
}
}  // namespace

size_t workspace(const char* plan, long long m, long long n, long long k, int moduli) {
  return layout_bytes(plan, m, n, k, moduli, false);
}
size_t workspace_fast(const char* plan, long long m, long long n, long long k, int moduli) {
  return layout_bytes(plan, m, n, k, moduli, true);
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
