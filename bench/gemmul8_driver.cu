// GEMMul8 (RIKEN-RCCS; Ozaki scheme II: f32/f64 GEMM emulated on INT8 tensor cores, Uchino, Ozaki,
// Imamura 2025) beside cuBLAS and libtdisc_gemm in one process, for bench/gemm_lib.sh (issue 13).
// Per dtype and square n: the same inputs for all; the error of 16 sampled rows (relative Frobenius)
// against a double-double reference; CUDA events, 2 warm-ups, median of --reps (--reps-large from
// 32768 up). GEMMul8 runs through its public API (include/gemmul8.hpp) in accurate and fast mode with
// ascending moduli counts, each mode stopping at the first count whose error is at most cuBLAS's:
// that count is the one "equivalent to working precision" on these inputs. Inputs: uniform in
// [-1, 1) (seed 20261123/20261124), and with --wide-at n also uniform times 2^e, e uniform in
// [-16, 16] per element (a wide exponent range). GEMMul8's code is built outside this repository.
// Usage: gemmul8_driver OUT.json [--sizes-f64 8192,16384] [--sizes-f32 …] [--reps 10] [--reps-large 3]
//        [--wide-at 8192] [--commit HASH]
#include <algorithm>
#include <cstdarg>
#include <chrono>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common.cuh"  // codegen/gemm/tools
#include "gemmul8.hpp"

namespace {

struct Options {
  std::vector<long long> f64{8192, 16384, 32768}, f32{8192, 16384};
  int reps = 10, reps_large = 3;
  long long wide_at = 8192;
  std::string out = "gemmul8.json", commit = "unknown", command;
};

std::vector<long long> sizes(const char* s) {
  std::vector<long long> v;
  std::stringstream in(s);
  for (std::string x; std::getline(in, x, ',');)
    if (!x.empty()) v.push_back(std::atoll(x.c_str()));
  return v;
}

double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

// Uniform in [-1, 1) times 2^e, e uniform in [-16, 16]: a wide exponent range per element.
template <class T>
__global__ void widen(T* p, long long count, unsigned long long seed) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count; i += (long long)gridDim.x * blockDim.x)
    p[i] = T(ldexp((double)p[i], (int)(splitmix(seed ^ (0xA5A5ull + i)) % 33) - 16));
}

struct Json {
  std::FILE* f;
  bool first = true;
  void row(const std::string& body) {
    std::fprintf(f, "%s    {%s}", first ? "" : ",\n", body.c_str());
    first = false;
  }
};

std::string fmt(const char* f, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, f);
  std::vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

template <class T>
void run(cublasHandle_t cb, long long n, bool wide, int reps, Json& json) {
  const char* dt = sizeof(T) == 8 ? "f64" : "f32";
  const char* input = wide ? "wide" : "uniform";
  T *A, *B, *C;
  CK(cudaMalloc(&A, n * n * sizeof(T)));
  CK(cudaMalloc(&B, n * n * sizeof(T)));
  CK(cudaMalloc(&C, n * n * sizeof(T)));
  fill_dev<T>(A, n * n, 20261123, 0);
  fill_dev<T>(B, n * n, 20261124, 0);
  if (wide) {
    widen<T><<<1024, 256>>>(A, n * n, 1);
    widen<T><<<1024, 256>>>(B, n * n, 2);
  }
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
  auto timed = [&](auto&& call) {  // error of the first call, then 2 warm-ups and `reps` timed calls
    fill_dev<T>(C, n * n, 0, 2, T(NAN));
    call();
    gather_rows<T><<<blocks, 128>>>(C, n, n, drows, dgot);
    CK(cudaMemcpy(got.data(), dgot, got.size() * sizeof(double), cudaMemcpyDeviceToHost));
    const double err = sampled_error(got, ref);
    std::vector<float> ms;
    for (int r = 0; r < reps + 2; ++r) {
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
  const double tflop = 2.0 * n * n * n * 1e-9;
  const auto base = timed([&] { CB(xgemm(cb, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, B, n, &zero, C, n)); });
  std::printf("%s %s n=%lld cuBLAS %.2f ms (%.1f TFLOP/s, err %.2e)\n", dt, input, n, base.first, tflop / base.first,
              base.second);
  json.row(fmt("\"dtype\": \"%s\", \"input\": \"%s\", \"n\": %lld, \"method\": \"cublas\", \"ms\": %.4f, \"err\": %.3e",
               dt, input, n, base.first, base.second));
  {  // the library as a user calls it; its handle (and workspace pool) is gone before GEMMul8 runs
    tdisc_gemm_handle_t h = nullptr;
    if (tdisc_gemm_create(&h, cb) != TDISC_GEMM_SUCCESS) std::exit(1);
    tdisc_gemm_plan_t plan{};
    tdisc_gemm_choose(h, sizeof(T) == 8 ? TDISC_GEMM_F64 : TDISC_GEMM_F32, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &plan);
    const auto o = timed([&] { ours(h, nullptr, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, B, n, &zero, C, n); });
    std::printf("%s %s n=%lld tdisc %.2f ms %.3fx (err %.2e, %.2fx cuBLAS's; plan %s leaf %d)\n", dt, input, n, o.first,
                base.first / o.first, o.second, o.second / base.second, plan.name, plan.leaf);
    json.row(fmt("\"dtype\": \"%s\", \"input\": \"%s\", \"n\": %lld, \"method\": \"tdisc\", \"plan\": \"%s\", "
                 "\"leaf\": %d, \"ms\": %.4f, \"speedup\": %.4f, \"err\": %.3e, \"err_ratio\": %.3f, "
                 "\"workspace_bytes\": %zu",
                 dt, input, n, plan.name, plan.leaf, o.first, base.first / o.first, o.second, o.second / base.second,
                 plan.workspace_bytes));
    CK(cudaDeviceSynchronize());
    tdisc_gemm_destroy(h);
  }
  const unsigned lo = sizeof(T) == 8 ? 12 : 5, hi = sizeof(T) == 8 ? 20 : 13;
  for (bool fast : {false, true}) {
    for (unsigned mod = lo; mod <= hi; ++mod) {
      const size_t bytes = gemmul8::workSize(n, n, n, mod);
      void* work = nullptr;
      if (cudaMalloc(&work, bytes) != cudaSuccess) {
        cudaGetLastError();
        std::printf("%s %s n=%lld GEMMul8 %s %u moduli: workspace %.2f GiB not available\n", dt, input, n,
                    fast ? "fast" : "accurate", mod, bytes / 1073741824.0);
        break;
      }
      const auto g = timed([&] {
        gemmul8::gemm<T>(cb, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, B, n, &zero, C, n, mod, fast, work);
      });
      CK(cudaFree(work));
      std::printf("%s %s n=%lld GEMMul8 %-8s %2u moduli: %.2f ms %.3fx (err %.2e, %.2fx cuBLAS's; workspace %.2f GiB)\n",
                  dt, input, n, fast ? "fast" : "accurate", mod, g.first, base.first / g.first, g.second,
                  g.second / base.second, bytes / 1073741824.0);
      json.row(fmt("\"dtype\": \"%s\", \"input\": \"%s\", \"n\": %lld, \"method\": \"gemmul8\", \"mode\": \"%s\", "
                   "\"moduli\": %u, \"ms\": %.4f, \"speedup\": %.4f, \"err\": %.3e, \"err_ratio\": %.3f, "
                   "\"workspace_bytes\": %zu",
                   dt, input, n, fast ? "fast" : "accurate", mod, g.first, base.first / g.first, g.second,
                   g.second / base.second, bytes));
      std::fflush(stdout);
      if (g.second <= base.second) break;  // the smallest count as accurate as cuBLAS on these inputs
    }
  }
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  CK(cudaFree(A));
  CK(cudaFree(B));
  CK(cudaFree(C));
  CK(cudaFree(drows));
  CK(cudaFree(dref));
  CK(cudaFree(dgot));
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (argc > 1) o.out = argv[1];
  for (int i = 0; i < argc; ++i) o.command += std::string(i ? " " : "") + argv[i];
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--sizes-f64") o.f64 = sizes(argv[i + 1]);
    else if (a == "--sizes-f32") o.f32 = sizes(argv[i + 1]);
    else if (a == "--reps") o.reps = std::atoi(argv[i + 1]);
    else if (a == "--reps-large") o.reps_large = std::atoi(argv[i + 1]);
    else if (a == "--wide-at") o.wide_at = std::atoll(argv[i + 1]);
    else if (a == "--commit") o.commit = argv[i + 1];
    else {
      std::fprintf(stderr, "tdisc: %s:%d: unknown option %s\n", __FILE__, __LINE__, a.c_str());
      return 1;
    }
  }
  if (!gpu_present()) return 77;
  cublasHandle_t cb;
  CB(cublasCreate(&cb));  // default math mode: no TF32 for the f32 baseline
  cudaDeviceProp prop{};
  CK(cudaGetDeviceProperties(&prop, 0));
  int cublas_version = 0;
  CB(cublasGetVersion(cb, &cublas_version));
  std::FILE* f = std::fopen((o.out + ".tmp").c_str(), "w");
  if (!f) return 1;
  std::string load;
  std::getline(std::ifstream("/proc/loadavg"), load);
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%FT%TZ", std::gmtime(&now));
  std::fprintf(f,
               "{\n  \"date\": \"%s\", \"machine\": \"%s\", \"cublas_version\": %d, \"commit\": \"%s\",\n"
               "  \"command\": \"%s\", \"seeds\": [20261123, 20261124], \"loadavg_start\": \"%s\",\n"
               "  \"note\": \"GEMMul8 INT8 backend, accurate and fast mode, moduli ascending until the error is at most "
               "cuBLAS's; error: relative Frobenius of 16 sampled rows against double-double; median of reps\",\n"
               "  \"rows\": [\n",
               date, prop.name, cublas_version, o.commit.c_str(), o.command.c_str(), load.c_str());
  Json json{f};
  for (long long n : o.f64) run<double>(cb, n, false, n >= 32768 ? o.reps_large : o.reps, json);
  for (long long n : o.f32) run<float>(cb, n, false, n >= 32768 ? o.reps_large : o.reps, json);
  if (o.wide_at > 0) {
    run<double>(cb, o.wide_at, true, o.reps, json);
    run<float>(cb, o.wide_at, true, o.reps, json);
  }
  std::getline(std::ifstream("/proc/loadavg"), load);
  std::fprintf(f, "\n  ],\n  \"loadavg_end\": \"%s\"\n}\n", load.c_str());
  std::fclose(f);
  std::rename((o.out + ".tmp").c_str(), o.out.c_str());
  cublasDestroy(cb);
  return 0;
}
