// GEMMul8 (RIKEN-RCCS, Ozaki scheme II: f32/f64 GEMM emulated on INT8 tensor cores) beside cuBLAS
// and libtdisc_gemm in one process, for bench/gemm_lib.sh: square n in --sizes, moduli counts in
// --moduli (f64: 12..20, f32: 5..8 are its accurate-to-working-precision range), accurate mode.
// Same inputs, error on sampled rows against a double-double reference, median of 20 timed calls.
// Built on the GPU machine against GEMMul8's own build (its code is not in this repository).
#include <algorithm>
#include <string>
#include <vector>

#include "common.cuh"  // codegen/gemm/tools
#include "gemmul8.hpp"

namespace {

double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

template <class T>
void run(tdisc_gemm_handle_t h, long long n, const std::vector<int>& moduli, std::FILE* json, bool& first) {
  cublasHandle_t cb = tdisc_gemm_cublas(h);
  T *A, *B, *C;
  CK(cudaMalloc(&A, n * n * sizeof(T)));
  CK(cudaMalloc(&B, n * n * sizeof(T)));
  CK(cudaMalloc(&C, n * n * sizeof(T)));
  fill_dev<T>(A, n * n, 20261123, 0);
  fill_dev<T>(B, n * n, 20261124, 0);
  long long rows[kSample];
  for (int q = 0; q < kSample; ++q) rows[q] = (long long)((q * 2654435761ull + 20261123) % (unsigned long long)n);
  long long* drows;
  double *dref, *dgot;
  CK(cudaMalloc(&drows, sizeof rows));
  CK(cudaMalloc(&dref, kSample * n * sizeof(double)));
  CK(cudaMalloc(&dgot, kSample * n * sizeof(double)));
  CK(cudaMemcpy(drows, rows, sizeof rows, cudaMemcpyHostToDevice));
  const unsigned blocks = (unsigned)((n + 127) / 128);
  reference_rows<T><<<blocks, 128>>>(A, n, 0, B, n, 0, n, n, drows, dref);
  std::vector<double> ref(kSample * n), got(kSample * n);
  CK(cudaMemcpy(ref.data(), dref, ref.size() * sizeof(double), cudaMemcpyDeviceToHost));
  const T one = 1, zero = 0;
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  auto timed = [&](auto&& call) {
    fill_dev<T>(C, n * n, 0, 2, T(NAN));
    call();
    gather_rows<T><<<blocks, 128>>>(C, n, n, drows, dgot);
    CK(cudaMemcpy(got.data(), dgot, got.size() * sizeof(double), cudaMemcpyDeviceToHost));
    const double err = sampled_error(got, ref);
    std::vector<float> ms;
    for (int r = 0; r < 22; ++r) {
      CK(cudaEventRecord(e0));
      call();
      CK(cudaEventRecord(e1));
      CK(cudaEventSynchronize(e1));
      float t = 0;
      CK(cudaEventElapsedTime(&t, e0, e1));
      if (r >= 2) ms.push_back(t);
    }
    return std::make_pair(median(ms), err);
  };
  const auto base = timed([&] { CB(xgemm(cb, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, B, n, &zero, C, n)); });
  const auto ours_r = timed([&] { ours(h, nullptr, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, B, n, &zero, C, n); });
  const double tflop = 2.0 * n * n * n * 1e-9;
  const char* dt = sizeof(T) == 8 ? "f64" : "f32";
  std::printf("%s n=%lld cuBLAS %.2f ms (%.1f TFLOP/s, err %.2e) | tdisc %.2f ms %.3fx (err %.2e)\n", dt, n, base.first,
              tflop / base.first, base.second, ours_r.first, base.first / ours_r.first, ours_r.second);
  std::fprintf(json, "%s    {\"dtype\": \"%s\", \"n\": %lld, \"method\": \"cublas\", \"ms\": %.4f, \"err\": %.3e},\n"
                     "    {\"dtype\": \"%s\", \"n\": %lld, \"method\": \"tdisc\", \"ms\": %.4f, \"speedup\": %.4f, \"err\": %.3e}",
               first ? "" : ",\n", dt, n, base.first, base.second, dt, n, ours_r.first, base.first / ours_r.first,
               ours_r.second);
  first = false;
  for (int mod : moduli) {
    const size_t bytes = gemmul8::workSize(n, n, n, mod);
    void* work = nullptr;
    if (cudaMalloc(&work, bytes) != cudaSuccess) {
      cudaGetLastError();
      std::printf("%s n=%lld GEMMul8 moduli %d: workspace %zu bytes not available\n", dt, n, mod, bytes);
      continue;
    }
    const auto g = timed([&] {
      gemmul8::gemm<T>(cb, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, B, n, &zero, C, n, mod, false, work);
    });
    std::printf("%s n=%lld GEMMul8 moduli %2d: %.2f ms %.3fx (err %.2e, %.2fx cuBLAS's; workspace %.2f GiB)\n", dt, n,
                mod, g.first, base.first / g.first, g.second, g.second / base.second, bytes / 1073741824.0);
    std::fprintf(json, ",\n    {\"dtype\": \"%s\", \"n\": %lld, \"method\": \"gemmul8\", \"moduli\": %d, \"ms\": %.4f, "
                       "\"speedup\": %.4f, \"err\": %.3e, \"err_ratio\": %.3f, \"workspace_bytes\": %zu}",
                 dt, n, mod, g.first, base.first / g.first, g.second, g.second / base.second, bytes);
    CK(cudaFree(work));
  }
  std::fflush(stdout);
  CK(cudaFree(A));
  CK(cudaFree(B));
  CK(cudaFree(C));
  CK(cudaFree(drows));
  CK(cudaFree(dref));
  CK(cudaFree(dgot));
}

}  // namespace

int main(int argc, char** argv) {
  const std::string out = argc > 1 ? argv[1] : "gemmul8.json";
  if (!gpu_present()) return 77;
  tdisc_gemm_handle_t h = nullptr;
  if (tdisc_gemm_create(&h, nullptr) != TDISC_GEMM_SUCCESS) return 1;
  std::FILE* json = std::fopen(out.c_str(), "w");
  std::fprintf(json, "{\n  \"note\": \"GEMMul8 accurate mode (INT8 backend), seed 20261123\",\n  \"rows\": [\n");
  bool first = true;
  for (long long n : {8192LL, 16384LL}) {
    run<double>(h, n, {12, 14, 16, 18}, json, first);
    run<float>(h, n, {5, 6, 7, 8}, json, first);
  }
  std::fprintf(json, "\n  ]\n}\n");
  std::fclose(json);
  tdisc_gemm_destroy(h);
  return 0;
}
