// tdisc_gemm_time: what `tdisc tune` measures. Random inputs in [-1, 1) allocated here, one warm-up
// call, then `reps` calls each timed by CUDA events on the handle's stream; the median is returned.
// A plan whose workspace does not fit the handle's limit is refused (NOT_FOUND), never timed as cuBLAS.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "context.hpp"
#include "ozaki.hpp"
#include "plans.hpp"
#include "tdisc/gemm.h"

namespace {

__global__ void fill_uniform(void* p, long long count, unsigned long long seed, int f64) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count; i += (long long)gridDim.x * blockDim.x) {
    unsigned long long x = seed * 0x9E3779B97F4A7C15ull + (unsigned long long)i;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x ^= x >> 31;
    const double v = (double)(x >> 11) * (2.0 / 9007199254740992.0) - 1.0;
    if (f64) static_cast<double*>(p)[i] = v;
    else static_cast<float*>(p)[i] = (float)v;
  }
}

tdisc_gemm_status_t call(tdisc_gemm_handle_t h, int f64, const tdisc_gemm_plan_t* plan, int64_t m, int64_t n,
                         int64_t k, const void* A, const void* B, void* C) {
  const float sone = 1, szero = 0;
  const double done = 1, dzero = 0;
  if (!plan) {
    const cublasStatus_t s =
        f64 ? cublasDgemm_64(h->cublas, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &done, (const double*)A, m, (const double*)B,
                             k, &dzero, (double*)C, m)
            : cublasSgemm_64(h->cublas, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &sone, (const float*)A, m, (const float*)B, k,
                             &szero, (float*)C, m);
    return s == CUBLAS_STATUS_SUCCESS ? TDISC_GEMM_SUCCESS : TDISC_GEMM_CUBLAS_ERROR;
  }
  return f64 ? tdisc_gemm_dgemm_plan(h, plan, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &done, (const double*)A, m,
                                     (const double*)B, k, &dzero, (double*)C, m)
             : tdisc_gemm_sgemm_plan(h, plan, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &sone, (const float*)A, m,
                                     (const float*)B, k, &szero, (float*)C, m);
}

}  // namespace

extern "C" tdisc_gemm_status_t tdisc_gemm_time(tdisc_gemm_handle_t h, tdisc_gemm_dtype_t dtype,
                                               const tdisc_gemm_plan_t* plan, int64_t m, int64_t n, int64_t k,
                                               int reps, double* median_ms) {
  if (!h || !median_ms || reps < 1 || m < 1 || n < 1 || k < 1) return TDISC_GEMM_BAD_ARGUMENT;
  const int f64 = dtype == TDISC_GEMM_F64;
  if (plan && std::strcmp(plan->name, "cublas") == 0) plan = nullptr;
  if (plan && tdisc_gemm::ozaki::is_emulated(plan->name)) {
    const int moduli = plan->moduli > 0 ? plan->moduli : tdisc_gemm::ozaki::default_moduli(f64, k);
    if (!tdisc_gemm::ozaki::unsupported(plan->name, m, n, k, moduli).empty() ||
        tdisc_gemm::ozaki::workspace(plan->name, m, n, k, moduli) > limit_of(h))
      return TDISC_GEMM_NOT_FOUND;
  } else if (plan) {
    const tdisc_gemm::PlanKernel* kernel = nullptr;
    for (int i = 0; i < tdisc_gemm::kPlanCount; ++i)
      if (tdisc_gemm::kPlans[i]->dtype == f64 && std::strcmp(tdisc_gemm::kPlans[i]->name, plan->name) == 0)
        kernel = tdisc_gemm::kPlans[i];
    if (!kernel || kernel->workspace(m, n, k, plan->leaf, plan->group) > limit_of(h)) return TDISC_GEMM_NOT_FOUND;
  }
  const size_t el = f64 ? 8 : 4;
  void *A = nullptr, *B = nullptr, *C = nullptr;
  cudaStream_t s = nullptr;
  cublasGetStream(h->cublas, &s);
  std::vector<float> ms;
  cudaEvent_t e0 = nullptr, e1 = nullptr;
  tdisc_gemm_status_t st = TDISC_GEMM_CUDA_ERROR;
  if (cudaMalloc(&A, m * k * el) == cudaSuccess && cudaMalloc(&B, k * n * el) == cudaSuccess &&
      cudaMalloc(&C, m * n * el) == cudaSuccess && cudaEventCreate(&e0) == cudaSuccess &&
      cudaEventCreate(&e1) == cudaSuccess) {
    fill_uniform<<<1024, 256, 0, s>>>(A, m * k, 1, f64);
    fill_uniform<<<1024, 256, 0, s>>>(B, k * n, 2, f64);
    st = call(h, f64, plan, m, n, k, A, B, C);
    for (int r = 0; r < reps && st == TDISC_GEMM_SUCCESS; ++r) {
      cudaEventRecord(e0, s);
      st = call(h, f64, plan, m, n, k, A, B, C);
      cudaEventRecord(e1, s);
      float t = 0;
      if (cudaEventSynchronize(e1) != cudaSuccess || cudaEventElapsedTime(&t, e0, e1) != cudaSuccess)
        st = TDISC_GEMM_CUDA_ERROR;
      ms.push_back(t);
    }
  }
  if (st == TDISC_GEMM_SUCCESS && cudaGetLastError() != cudaSuccess) st = TDISC_GEMM_CUDA_ERROR;
  cudaFree(A), cudaFree(B), cudaFree(C);
  if (e0) cudaEventDestroy(e0);
  if (e1) cudaEventDestroy(e1);
  if (st != TDISC_GEMM_SUCCESS) return st;
  std::sort(ms.begin(), ms.end());
  *median_ms = ms.size() % 2 ? ms[ms.size() / 2] : 0.5 * (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]);
  return TDISC_GEMM_SUCCESS;
}
