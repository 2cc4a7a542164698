// Shared by libtdisc_gemm's tools (tdisc_gemm_check, _bench, _phases, _ozaki): the measurement
// harness (codegen/runtime/harness.cuh: checked calls, buffers, fills, exact check, double-double
// reference, event timing, provenance) and the library or cuBLAS called for either dtype.
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

#include "../../runtime/harness.cuh"
#include "tdisc/gemm.h"

using harness::DeviceBuffer;
using harness::Fill;
using harness::gpu_present;
using harness::kSample;
using harness::run_provenance;
using harness::RunProvenance;

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
