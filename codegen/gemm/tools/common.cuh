// Shared by tdisc_gemm_check and tdisc_gemm_bench: checked CUDA/cuBLAS calls, device fills from a
// counter-based generator (any seed reproduces), and cuBLAS of either dtype.
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "tdisc/gemm.h"

#define CK(x)                                                                                   \
  do {                                                                                          \
    cudaError_t e_ = (x);                                                                       \
    if (e_ != cudaSuccess) {                                                                    \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));          \
      std::exit(1);                                                                             \
    }                                                                                           \
  } while (0)
#define CB(x)                                                                                   \
  do {                                                                                          \
    cublasStatus_t s_ = (x);                                                                    \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                                          \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cublasGetStatusString(s_));       \
      std::exit(1);                                                                             \
    }                                                                                           \
  } while (0)

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
template <class T>
void fill_dev(T* p, long long count, unsigned long long seed, int mode, T value = 0) {
  fill<T><<<1024, 256>>>(p, count, seed, mode, value);
  CK(cudaGetLastError());
}

inline cublasStatus_t xgemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, long long m, long long n,
                            long long k, const float* al, const float* A, long long lda, const float* B, long long ldb,
                            const float* be, float* C, long long ldc) {
  return cublasSgemm_64(h, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc);
}
inline cublasStatus_t xgemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, long long m, long long n,
                            long long k, const double* al, const double* A, long long lda, const double* B,
                            long long ldb, const double* be, double* C, long long ldc) {
  return cublasDgemm_64(h, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc);
}
inline tdisc_gemm_status_t ours(tdisc_gemm_handle_t h, const tdisc_gemm_plan_t* p, cublasOperation_t ta,
                                cublasOperation_t tb, long long m, long long n, long long k, const float* al,
                                const float* A, long long lda, const float* B, long long ldb, const float* be,
                                float* C, long long ldc) {
  return p ? tdisc_gemm_sgemm_plan(h, p, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc)
           : tdisc_gemm_sgemm(h, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc);
}
inline tdisc_gemm_status_t ours(tdisc_gemm_handle_t h, const tdisc_gemm_plan_t* p, cublasOperation_t ta,
                                cublasOperation_t tb, long long m, long long n, long long k, const double* al,
                                const double* A, long long lda, const double* B, long long ldb, const double* be,
                                double* C, long long ldc) {
  return p ? tdisc_gemm_dgemm_plan(h, p, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc)
           : tdisc_gemm_dgemm(h, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc);
}
inline bool gpu_present() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
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
template <class T>
__global__ void gather_rows(const T* C, long long ldc, long long N, const long long* rows, double* out) {
  const long long j = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (j >= N) return;
  for (int s = 0; s < kSample; ++s) out[s * N + j] = (double)C[rows[s] + j * ldc];
}

// Relative Frobenius error of sampled rows against the reference (NaN when an element was unwritten).
inline double sampled_error(const std::vector<double>& got, const std::vector<double>& ref) {
  double num = 0, den = 0;
  for (size_t q = 0; q < got.size(); ++q) num += (got[q] - ref[q]) * (got[q] - ref[q]), den += ref[q] * ref[q];
  return std::sqrt(num / den);
}

// What a benchmark JSON records about its run: the command line, the UTC date, the load average and
// the commit (TDISC_COMMIT, set by bench/gemm_lib.sh; empty when unset).
struct RunProvenance {
  std::string command, date, load = "?", commit;
};
inline RunProvenance run_provenance(int argc, char** argv) {
  RunProvenance p;
  for (int i = 0; i < argc; ++i) p.command += (i ? " " : "") + std::string(argv[i]);
  if (std::FILE* la = std::fopen("/proc/loadavg", "r")) {
    char buf[64] = {0};
    if (std::fgets(buf, sizeof buf, la)) p.load = std::string(buf, std::strcspn(buf, "\n"));
    std::fclose(la);
  }
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  p.date = date;
  if (const char* c = std::getenv("TDISC_COMMIT")) p.commit = c;
  return p;
}
