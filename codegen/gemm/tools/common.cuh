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
#include "../src/test_inputs.cuh"

using namespace tdisc_gemm::inputs;

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
