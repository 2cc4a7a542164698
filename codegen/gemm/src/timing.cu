// What `tdisc tune` measures. tdisc_gemm_time: random inputs in [-1, 1) allocated here, one warm-up
// call, then `reps` calls each timed by CUDA events on the handle's stream; the median is returned.
// tdisc_gemm_error: the error of a plan and of cuBLAS on the same inputs (uniform, or with a wide
// exponent range) against a double-double reference of sampled rows, the gate of the emulated plans.
// A plan whose workspace does not fit the handle's limit is refused (NOT_FOUND), never run as cuBLAS.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>
#include <cstring>
#include <vector>

#include "context.hpp"
#include "ozaki.hpp"
#include "plans.hpp"
#include "tdisc/gemm.h"
#include "test_inputs.cuh"

namespace {

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

// Whether a named plan runs at this shape within the handle's workspace limit.
bool fits(tdisc_gemm_handle_t h, int f64, const tdisc_gemm_plan_t* plan, int64_t m, int64_t n, int64_t k) {
  if (tdisc_gemm::ozaki::is_emulated(plan->name)) {
    const int moduli = plan->moduli > 0 ? plan->moduli : tdisc_gemm::ozaki::default_moduli(f64, k);
    return tdisc_gemm::ozaki::unsupported(plan->name, m, n, k, moduli).empty() &&
           tdisc_gemm::ozaki::workspace(plan->name, m, n, k, moduli) <= limit_of(h);
  }
  for (int i = 0; i < tdisc_gemm::kPlanCount; ++i)
    if (tdisc_gemm::kPlans[i]->dtype == f64 && std::strcmp(tdisc_gemm::kPlans[i]->name, plan->name) == 0)
      return tdisc_gemm::kPlans[i]->workspace(m, n, k, plan->leaf, plan->group) <= limit_of(h);
  return false;
}

// A (ak elements) and B (bk elements) uniform in [-1, 1), or times 2^e per element (wide).
void fill_inputs(int f64, void* A, long long ak, void* B, long long bk, bool wide, cudaStream_t s) {
  using namespace tdisc_gemm::inputs;
  if (f64) {
    fill<double><<<1024, 256, 0, s>>>((double*)A, ak, 1, 0, 0.0);
    fill<double><<<1024, 256, 0, s>>>((double*)B, bk, 2, 0, 0.0);
    if (wide) widen<double><<<1024, 256, 0, s>>>((double*)A, ak, 1), widen<double><<<1024, 256, 0, s>>>((double*)B, bk, 2);
  } else {
    fill<float><<<1024, 256, 0, s>>>((float*)A, ak, 1, 0, 0.0f);
    fill<float><<<1024, 256, 0, s>>>((float*)B, bk, 2, 0, 0.0f);
    if (wide) widen<float><<<1024, 256, 0, s>>>((float*)A, ak, 1), widen<float><<<1024, 256, 0, s>>>((float*)B, bk, 2);
  }
}

// The sampled rows of C (m × n, ld m) as doubles into got (kSample × n).
void gather(int f64, const void* C, int64_t m, int64_t n, const long long* drows, double* dgot, cudaStream_t s) {
  using namespace tdisc_gemm::inputs;
  const unsigned blocks = (unsigned)((n + 127) / 128);
  if (f64) gather_rows<double><<<blocks, 128, 0, s>>>((const double*)C, m, n, drows, dgot);
  else gather_rows<float><<<blocks, 128, 0, s>>>((const float*)C, m, n, drows, dgot);
}

}  // namespace

extern "C" tdisc_gemm_status_t tdisc_gemm_time(tdisc_gemm_handle_t h, tdisc_gemm_dtype_t dtype,
                                               const tdisc_gemm_plan_t* plan, int64_t m, int64_t n, int64_t k,
                                               int reps, double* median_ms) {
  if (!h || !median_ms || reps < 1 || m < 1 || n < 1 || k < 1) return TDISC_GEMM_BAD_ARGUMENT;
  const int f64 = dtype == TDISC_GEMM_F64;
  if (plan && std::strcmp(plan->name, "cublas") == 0) plan = nullptr;
  if (plan && !fits(h, f64, plan, m, n, k)) return TDISC_GEMM_NOT_FOUND;
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
    fill_inputs(f64, A, m * k, B, k * n, false, s);
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

// The reference rows and cuBLAS's error per (dtype, m, n, k, wide): the inputs come from fixed seeds, so a
// tune that probes several moduli counts at one shape computes the double-double reference once.
struct Reference {
  std::vector<double> rows;
  double cublas_error = 0;
};
std::mutex reference_mutex;
std::map<std::tuple<int, int64_t, int64_t, int64_t, int>, Reference> reference_cache;

extern "C" tdisc_gemm_status_t tdisc_gemm_error(tdisc_gemm_handle_t h, tdisc_gemm_dtype_t dtype,
                                                const tdisc_gemm_plan_t* plan, int64_t m, int64_t n, int64_t k,
                                                int wide, double* error, double* cublas_error) {
  using namespace tdisc_gemm::inputs;
  if (!h || !error || !cublas_error || m < 1 || n < 1 || k < 1) return TDISC_GEMM_BAD_ARGUMENT;
  const int f64 = dtype == TDISC_GEMM_F64;
  if (plan && std::strcmp(plan->name, "cublas") == 0) plan = nullptr;
  if (plan && !fits(h, f64, plan, m, n, k)) return TDISC_GEMM_NOT_FOUND;
  const auto key = std::make_tuple(f64, m, n, k, wide != 0);
  std::lock_guard<std::mutex> lock(reference_mutex);
  const bool cached = reference_cache.count(key) > 0;
  Reference& ref = reference_cache[key];
  const size_t el = f64 ? 8 : 4;
  void *A = nullptr, *B = nullptr, *C = nullptr;
  long long* drows = nullptr;
  double *dref = nullptr, *dgot = nullptr;
  cudaStream_t s = nullptr;
  cublasGetStream(h->cublas, &s);
  const std::vector<long long> rows = sample_rows(m);
  std::vector<double> got(kSample * n);
  tdisc_gemm_status_t st = TDISC_GEMM_CUDA_ERROR;
  // C = op(A)·op(B) of the plan (or cuBLAS), its sampled rows against the reference: relative error.
  auto measure = [&](const tdisc_gemm_plan_t* p, double* out) {
    tdisc_gemm_status_t r = call(h, f64, p, m, n, k, A, B, C);
    if (r != TDISC_GEMM_SUCCESS) return r;
    gather(f64, C, m, n, drows, dgot, s);
    if (cudaMemcpyAsync(got.data(), dgot, kSample * n * sizeof(double), cudaMemcpyDeviceToHost, s) != cudaSuccess ||
        cudaStreamSynchronize(s) != cudaSuccess)
      return TDISC_GEMM_CUDA_ERROR;
    *out = sampled_error(got, ref.rows);
    return TDISC_GEMM_SUCCESS;
  };
  if (cudaMalloc(&A, m * k * el) == cudaSuccess && cudaMalloc(&B, k * n * el) == cudaSuccess &&
      cudaMalloc(&C, m * n * el) == cudaSuccess && cudaMalloc(&drows, kSample * sizeof(long long)) == cudaSuccess &&
      cudaMalloc(&dgot, kSample * n * sizeof(double)) == cudaSuccess &&
      cudaMemcpyAsync(drows, rows.data(), kSample * sizeof(long long), cudaMemcpyHostToDevice, s) == cudaSuccess) {
    fill_inputs(f64, A, m * k, B, k * n, wide != 0, s);
    st = TDISC_GEMM_SUCCESS;
    if (!cached) {
      ref.rows.assign(kSample * n, 0);
      const unsigned blocks = (unsigned)((n + 127) / 128);
      if (cudaMalloc(&dref, kSample * n * sizeof(double)) != cudaSuccess) st = TDISC_GEMM_CUDA_ERROR;
      else if (f64) reference_rows<double><<<blocks, 128, 0, s>>>((const double*)A, m, 0, (const double*)B, k, 0, n, k, drows, dref);
      else reference_rows<float><<<blocks, 128, 0, s>>>((const float*)A, m, 0, (const float*)B, k, 0, n, k, drows, dref);
      if (st == TDISC_GEMM_SUCCESS &&
          cudaMemcpyAsync(ref.rows.data(), dref, kSample * n * sizeof(double), cudaMemcpyDeviceToHost, s) != cudaSuccess)
        st = TDISC_GEMM_CUDA_ERROR;
      if (st == TDISC_GEMM_SUCCESS) st = measure(nullptr, &ref.cublas_error);
    }
    if (st == TDISC_GEMM_SUCCESS) st = measure(plan, error);
  }
  if (st == TDISC_GEMM_SUCCESS && cudaGetLastError() != cudaSuccess) st = TDISC_GEMM_CUDA_ERROR;
  if (st != TDISC_GEMM_SUCCESS && !cached) reference_cache.erase(key);
  else *cublas_error = ref.cublas_error;
  cudaFree(A), cudaFree(B), cudaFree(C), cudaFree(drows), cudaFree(dref), cudaFree(dgot);
  return st;
}
