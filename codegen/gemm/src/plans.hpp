// The plans compiled into libtdisc_gemm: each is a generated recursion (codegen/gemm/plans/*.cu,
// written by `tdisc codegen`), wrapped by plan_entry.cu.in into one PlanKernel; the registry lists
// those CMake was asked to build (TDISC_GEMM_PLANS).
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstddef>

namespace tdisc_gemm {

struct PlanKernel {
  const char* name;      // "s2"
  int dtype;             // 0 f32, 1 f64
  int last_rank;         // rank of the last stage: the largest useful lean group
  const char* describe;  // schemes, stages, ranks, additions
  size_t (*workspace)(long long M, long long N, long long K, int leaf, int group);
  // Column-major C = alpha·A·B + beta·C (alpha, beta: host pointers to T); returns the generated Status.
  int (*gemm)(cublasHandle_t h, cudaStream_t s, long long M, long long N, long long K, const void* alpha,
              const void* A, long long lda, const void* B, long long ldb, const void* beta, void* C, long long ldc,
              void* ws, size_t bytes, int leaf, int group);
};

extern const PlanKernel* const kPlans[];
extern const int kPlanCount;
extern const char* const kBuiltinTables;  // default plan tables (plans/default_tables.json)

}  // namespace tdisc_gemm
