// Inputs and the accuracy yardstick shared by the library's own measurements (tdisc_gemm_time,
// tdisc_gemm_error: what `tdisc tune` ranks and gates by) and the benchmark tools (tools/common.cuh):
// device fills from a counter-based generator (any seed reproduces), the wide exponent range, and a
// double-double reference of sampled rows with the relative Frobenius error against it.
#pragma once
#include <cuda_runtime.h>

#include <cmath>
#include <vector>

namespace tdisc_gemm::inputs {

__device__ __forceinline__ unsigned long long splitmix(unsigned long long x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// mode 0: uniform in [-1, 1); mode 1: integers in [-2, 2]; mode 2: the constant value.
template <class T>
__global__ void fill(T* p, long long count, unsigned long long seed, int mode, T value) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count; i += (long long)gridDim.x * blockDim.x) {
    const unsigned long long r = splitmix(seed * 0x100000001B3ull + (unsigned long long)i);
    if (mode == 0) p[i] = T((double)(r >> 11) * (2.0 / 9007199254740992.0) - 1.0);
    else if (mode == 1) p[i] = T((int)(r % 5) - 2);
    else p[i] = value;
  }
}

// The wide exponent range: every element times 2^e, e uniform in [-16, 16].
template <class T>
__global__ void widen(T* p, long long count, unsigned long long seed) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count; i += (long long)gridDim.x * blockDim.x)
    p[i] = T(ldexp((double)p[i], (int)(splitmix(seed ^ (0xA5A5ull + i)) % 33) - 16));
}

// ---- double-double reference of sampled rows of op(A)·op(B) ----
__device__ __forceinline__ void dd_fma(double& hi, double& lo, double a, double b) {
  const double p = a * b, e = fma(a, b, -p);
  const double s = hi + p, bb = s - hi, err = (hi - (s - bb)) + (p - bb);
  lo += err + e;
  hi = s + lo;
  lo = lo - (hi - s);
}
inline constexpr int kSample = 16;
// out: kSample × N, row s of it the reference of row rows[s] of op(A)·op(B) (op(A) M×K, op(B) K×N).
template <class T>
__global__ void reference_rows(const T* A, long long lda, int ta, const T* B, long long ldb, int tb, long long N,
                               long long K, const long long* rows, double* out) {
  const long long j = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (j >= N) return;
  double hi[kSample], lo[kSample];
  for (int s = 0; s < kSample; ++s) hi[s] = lo[s] = 0;
  for (long long k = 0; k < K; ++k) {
    const double b = (double)(tb ? B[j + k * ldb] : B[k + j * ldb]);
    for (int s = 0; s < kSample; ++s) {
      const long long i = rows[s];
      dd_fma(hi[s], lo[s], (double)(ta ? A[k + i * lda] : A[i + k * lda]), b);
    }
  }
  for (int s = 0; s < kSample; ++s) out[s * N + j] = hi[s] + lo[s];
}
// out: kSample × N, the sampled rows of C (ldc).
template <class T>
__global__ void gather_rows(const T* C, long long ldc, long long N, const long long* rows, double* out) {
  const long long j = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (j >= N) return;
  for (int s = 0; s < kSample; ++s) out[s * N + j] = (double)C[rows[s] + j * ldc];
}

// The sampled rows of an M-row product: a multiplicative hash of the sample index (plus seed) mod M.
inline std::vector<long long> sample_rows(long long M, unsigned long long seed = 0) {
  std::vector<long long> rows(kSample);
  for (int s = 0; s < kSample; ++s) rows[s] = (long long)((s * 2654435761ull + seed) % (unsigned long long)M);
  return rows;
}

// Relative Frobenius error of sampled rows against the reference (NaN when an element was unwritten).
inline double sampled_error(const std::vector<double>& got, const std::vector<double>& ref) {
  double num = 0, den = 0;
  for (size_t q = 0; q < got.size(); ++q) num += (got[q] - ref[q]) * (got[q] - ref[q]), den += ref[q] * ref[q];
  return std::sqrt(num / den);
}

}  // namespace tdisc_gemm::inputs
