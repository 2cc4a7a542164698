// Example user of the installed libtdisc_gemm: lists the compiled plans (no GPU needed), then, where a
// GPU is present, multiplies two 4096² matrices of ones with tdisc::gemm::gemm and checks C = 4096.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "tdisc/gemm.hpp"

int main() {
  const int plans = tdisc_gemm_plan_count(TDISC_GEMM_F64);
  for (int i = 0; i < plans; ++i) std::printf("plan %s: %s\n", tdisc_gemm_plan_name(TDISC_GEMM_F64, i), tdisc_gemm_plan_describe(TDISC_GEMM_F64, i));
  if (plans < 1) return 1;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no GPU: linked and loaded, nothing to multiply\n");
    return 0;
  }
  const long long n = 4096;
  double *A, *B, *C;
  cudaMalloc(&A, n * n * sizeof(double));
  cudaMalloc(&B, n * n * sizeof(double));
  cudaMalloc(&C, n * n * sizeof(double));
  std::vector<double> ones(n * n, 1.0);
  cudaMemcpy(A, ones.data(), n * n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(B, ones.data(), n * n * sizeof(double), cudaMemcpyHostToDevice);
  tdisc::gemm::Handle h;
  const tdisc::gemm::Plan p = tdisc::gemm::choose<double>(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n);
  std::printf("plan for %lld^3: %s (%s)\n", n, p.name, p.why);
  const double one = 1, zero = 0;
  if (tdisc::gemm::gemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, B, n, &zero, C, n) != TDISC_GEMM_SUCCESS) return 1;
  cudaMemcpy(ones.data(), C, n * n * sizeof(double), cudaMemcpyDeviceToHost);
  for (double c : ones)
    if (c != (double)n) return std::printf("wrong result %g\n", c), 1;
  std::printf("C = A·B correct\n");
  cudaFree(A), cudaFree(B), cudaFree(C);
  return 0;
}
