// tdisc_gemm_int8: how fast cuBLAS runs the INT8 product of the emulated plans (Ozaki-II's A'_l·B'_l,
// TN layout, INT32 result) on this card, by each way of calling it: one cublasGemmEx, panels of B's
// columns, two moduli in one strided batched call; then 14 products back to back as oz2 runs them at f64
// (the rate the card sustains at its power limit: a single product ends before the clocks settle): in panels
// of 8192 columns into one INT32 buffer, or each modulus with its own operands and result (as in the fused
// path), in panels of 8192 rows, in the NN layout, and by every algorithm cuBLASLt's heuristic offers for a panel of 8192
// columns (each timed, not trusted). Prints one JSON object; bench/ozaki.sh step int8.
// Usage: tdisc_gemm_int8 OUT.json [N] [REPS]   (defaults 16384, 5; inputs random int8, seed 1)
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

#define CHECK_CUDA(x)                                                                   \
  do {                                                                                  \
    if ((x) != cudaSuccess) {                                                           \
      std::fprintf(stderr, "tdisc_gemm_int8: %s failed at line %d\n", #x, __LINE__); \
      std::exit(1);                                                                     \
    }                                                                                   \
  } while (0)

// Median time (ms) of `reps` runs of f, after one warm-up.
double median_ms(const std::function<bool()>& f, int reps) {
  cudaEvent_t a, b;
  cudaEventCreate(&a), cudaEventCreate(&b);
  if (!f()) return -1;
  cudaDeviceSynchronize();
  std::vector<float> t;
  for (int r = 0; r < reps; ++r) {
    cudaEventRecord(a);
    if (!f()) return -1;
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms);
  }
  cudaEventDestroy(a), cudaEventDestroy(b);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// Random int8 in [-127, 127] (a hash of the index and seed: the same on every run).
__global__ void fill_random(int8_t* x, size_t count, unsigned seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x) {
    unsigned h = (unsigned)i * 2654435761u ^ (unsigned)(i >> 32) * 40503u ^ seed;
    h ^= h >> 15, h *= 2246822519u, h ^= h >> 13;
    x[i] = (int8_t)((int)(h % 255) - 127);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: tdisc_gemm_int8 OUT.json [N] [REPS]\n");
    return 2;
  }
  const long long n = argc > 2 ? std::atoll(argv[2]) : 16384;
  const int reps = argc > 3 ? std::atoi(argv[3]) : 5;
  // At (n × n, ld n: A' transposed), B (n × n), two moduli each; C two INT32 n × n.
  const size_t el = (size_t)n * n;
  int8_t *A, *B;
  int32_t* C;
  CHECK_CUDA(cudaMalloc(&A, 2 * el));
  CHECK_CUDA(cudaMalloc(&B, 2 * el));
  CHECK_CUDA(cudaMalloc(&C, 2 * el * sizeof(int32_t)));
  {
    std::mt19937 g(1);
    std::vector<int8_t> h(2 * el);
    for (auto& v : h) v = (int8_t)((int)(g() % 255) - 127);
    CHECK_CUDA(cudaMemcpy(A, h.data(), 2 * el, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(B, h.data(), 2 * el, cudaMemcpyHostToDevice));
  }
  cublasHandle_t h;
  cublasCreate(&h);
  const int32_t one = 1, zero = 0;
  auto gemm_ex = [&](long long cols, long long j0) {
    return cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, (int)n, (int)cols, (int)n, &one, A, CUDA_R_8I, (int)n,
                        B + j0 * n, CUDA_R_8I, (int)n, &zero, C + j0 * n, CUDA_R_32I, (int)n, CUBLAS_COMPUTE_32I,
                        CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS;
  };
  struct Row {
    std::string how;
    double ms;
  };
  std::vector<Row> rows;
  rows.push_back({"cublasGemmEx, one product", median_ms([&] { return gemm_ex(n, 0); }, reps)});
  for (long long panel : {8192LL, 4096LL, 2048LL}) {
    if (panel >= n) continue;
    rows.push_back({"cublasGemmEx, panels of " + std::to_string(panel), median_ms([&] {
                      for (long long j0 = 0; j0 < n; j0 += panel)
                        if (!gemm_ex(std::min(panel, n - j0), j0)) return false;
                      return true;
                    }, reps)});
  }
  const double batched = median_ms([&] {
    return cublasGemmStridedBatchedEx(h, CUBLAS_OP_T, CUBLAS_OP_N, (int)n, (int)n, (int)n, &one, A, CUDA_R_8I, (int)n,
                                      (long long)el, B, CUDA_R_8I, (int)n, (long long)el, &zero, C, CUDA_R_32I, (int)n,
                                      (long long)el, 2, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS;
  }, reps);
  rows.push_back({"cublasGemmStridedBatchedEx, two moduli, per modulus", batched / 2});

  // 14 products back to back, panels of 8192: into one result, and with every modulus's own operands and
  // result (21 GiB at 16384; skipped where they do not fit).
  constexpr int kModuli = 14;
  const long long panel = std::min(n, 8192LL);
  auto panels = [&](const int8_t* a, const int8_t* b, int32_t* c) {
    for (long long j0 = 0; j0 < n; j0 += panel)
      if (cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, (int)n, (int)std::min(panel, n - j0), (int)n, &one, a, CUDA_R_8I,
                       (int)n, b + j0 * n, CUDA_R_8I, (int)n, &zero, c + j0 * n, CUDA_R_32I, (int)n, CUBLAS_COMPUTE_32I,
                       CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS)
        return false;
    return true;
  };
  auto sustained = [&](const std::function<bool()>& product) {
    return median_ms([&] {
      for (int l = 0; l < kModuli; ++l)
        if (!product()) return false;
      return true;
    }, reps) / kModuli;
  };
  rows.push_back({"14 products back to back, one result, per product", sustained([&] { return panels(A, B, C); })});
  // the same in panels of 8192 rows of A' (C's rows)
  rows.push_back({"14 products back to back, panels of 8192 rows, per product", sustained([&] {
                    for (long long i0 = 0; i0 < n; i0 += panel)
                      if (cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, (int)std::min(panel, n - i0), (int)n, (int)n, &one,
                                       A + i0 * n, CUDA_R_8I, (int)n, B, CUDA_R_8I, (int)n, &zero, C + i0, CUDA_R_32I,
                                       (int)n, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS)
                        return false;
                    return true;
                  })});
  // A' as m × k (ld m, not transposed): if cuBLAS runs the NN layout as fast, the residues of A need no transpose
  rows.push_back({"14 products back to back, NN layout (A' not transposed), per product", sustained([&] {
                    for (long long j0 = 0; j0 < n; j0 += panel)
                      if (cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)std::min(panel, n - j0), (int)n, &one,
                                       A, CUDA_R_8I, (int)n, B + j0 * n, CUDA_R_8I, (int)n, &zero, C + j0 * n,
                                       CUDA_R_32I, (int)n, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS)
                        return false;
                    return true;
                  })});
  int8_t *As = nullptr, *Bs = nullptr;
  int32_t* Cs = nullptr;
  if (cudaMalloc(&As, kModuli * el) == cudaSuccess && cudaMalloc(&Bs, kModuli * el) == cudaSuccess &&
      cudaMalloc(&Cs, kModuli * el * sizeof(int32_t)) == cudaSuccess) {
    fill_random<<<4096, 256>>>(As, kModuli * el, 1), fill_random<<<4096, 256>>>(Bs, kModuli * el, 2);
    rows.push_back({"14 products back to back, each its own operands and result, per product", median_ms([&] {
                      for (int l = 0; l < kModuli; ++l)
                        if (!panels(As + l * el, Bs + l * el, Cs + l * el)) return false;
                      return true;
                    }, reps) / kModuli});
  }
  cudaFree(As), cudaFree(Bs), cudaFree(Cs);
  cudaGetLastError();

  cublasLtHandle_t lt;
  cublasLtCreate(&lt);
  cublasLtMatmulDesc_t desc;
  cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32I, CUDA_R_32I);
  const cublasOperation_t opT = CUBLAS_OP_T, opN = CUBLAS_OP_N;
  cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &opT, sizeof opT);
  cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &opN, sizeof opN);
  size_t ws_bytes = 64u << 20;
  void* ws;
  CHECK_CUDA(cudaMalloc(&ws, ws_bytes));
  cublasLtMatmulPreference_t pref;
  cublasLtMatmulPreferenceCreate(&pref);
  cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws_bytes, sizeof ws_bytes);
  // Every algorithm of the heuristic (up to 32) for a panel of 8192 columns, 14 products back to back: the
  // rate each sustains at the card's power limit (a single product runs before the clocks settle).
  {
    cublasLtMatrixLayout_t la, lb, lc;
    cublasLtMatrixLayoutCreate(&la, CUDA_R_8I, n, n, n);
    cublasLtMatrixLayoutCreate(&lb, CUDA_R_8I, n, panel, n);
    cublasLtMatrixLayoutCreate(&lc, CUDA_R_32I, n, panel, n);
    cublasLtMatmulHeuristicResult_t heur[32];
    int found = 0;
    cublasLtMatmulAlgoGetHeuristic(lt, desc, la, lb, lc, lc, pref, 32, heur, &found);
    for (int a = 0; a < found; ++a) {
      const double ms = sustained([&] {
        for (long long j0 = 0; j0 < n; j0 += panel)
          if (cublasLtMatmul(lt, desc, &one, A, la, B + j0 * n, lb, &zero, C + j0 * n, lc, C + j0 * n, lc, &heur[a].algo,
                             ws, ws_bytes, 0) != CUBLAS_STATUS_SUCCESS)
            return false;
        return true;
      });
      int tile = 0, stages = 0, id = 0;
      cublasLtMatmulAlgoConfigGetAttribute(&heur[a].algo, CUBLASLT_ALGO_CONFIG_ID, &id, sizeof id, nullptr);
      cublasLtMatmulAlgoConfigGetAttribute(&heur[a].algo, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile, sizeof tile, nullptr);
      cublasLtMatmulAlgoConfigGetAttribute(&heur[a].algo, CUBLASLT_ALGO_CONFIG_STAGES_ID, &stages, sizeof stages, nullptr);
      rows.push_back({"cublasLtMatmul, panels of 8192, 14 back to back, heuristic " + std::to_string(a) + " (algo " +
                          std::to_string(id) + " tile " + std::to_string(tile) + " stages " + std::to_string(stages) + ")",
                      ms});
    }
  }

  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  const double ops = 2.0 * n * n * n;
  FILE* out = std::fopen(argv[1], "w");
  if (!out) return 1;
  std::fprintf(out, "{\"device\": \"%s\", \"n\": %lld, \"reps\": %d, \"rows\": [", prop.name, n, reps);
  for (size_t r = 0; r < rows.size(); ++r) {
    const double tops = rows[r].ms > 0 ? ops / rows[r].ms * 1e-9 : 0;
    std::printf("int8 %lld^3: %-58s %8.3f ms  %6.0f TOPS\n", n, rows[r].how.c_str(), rows[r].ms, tops);
    std::fprintf(out, "%s\n {\"how\": \"%s\", \"ms\": %.4f, \"tops\": %.1f}", r ? "," : "", rows[r].how.c_str(),
                 rows[r].ms, tops);
  }
  std::fprintf(out, "]}\n");
  std::fclose(out);
  return 0;
}
