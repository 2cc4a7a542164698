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
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common.cuh"  // codegen/gemm/tools: the measurement harness (codegen/runtime/harness.cuh), the library
#include "gemmul8.hpp"

namespace {

using harness::format;

struct Options {
  std::vector<long long> f64{8192, 16384, 32768}, f32{8192, 16384};
  int reps = 10, reps_large = 3;
  long long wide_at = 8192;
  std::string out = "gemmul8.json", commit = "unknown";
};

std::vector<long long> sizes(const char* s) {
  std::vector<long long> v;
  std::stringstream in(s);
  for (std::string x; std::getline(in, x, ',');)
    if (!x.empty()) v.push_back(std::atoll(x.c_str()));
  return v;
}

// One dtype and size: the inputs (the same for every method), their reference and the timer.
template <class T>
struct Case {
  long long n;
  bool wide;
  int reps;
  DeviceBuffer<T> A, B, C;
  harness::SampledReference ref;
  harness::EventTimer timer;
  Case(long long n_, bool wide_, int reps_)
      : n(n_), wide(wide_), reps(reps_), A(harness::uniform_input<T>(n_ * n_, 20261123, wide_, 1)),
        B(harness::uniform_input<T>(n_ * n_, 20261124, wide_, 2)), C(n_ * n_), ref(A.get(), n_, false, B.get(), n_, false, n_, n_, n_, 20261123) {}
  const char* dtype() const { return sizeof(T) == 8 ? "f64" : "f32"; }
  const char* input_name() const { return wide ? "wide" : "uniform"; }
  // The error of the first call (C poisoned), then 2 warm-ups and `reps` timed calls: (median ms, error).
  template <class F>
  std::pair<double, double> measure(F&& call) {
    harness::poison(C);
    call();
    const double err = ref.error(C.get(), n);
    std::vector<float> ms;
    for (int r = 0; r < reps + 2; ++r) {
      const float t = timer.time(nullptr, call);
      if (r >= 2) ms.push_back(t);
    }
    return {harness::median(ms), err};
  }
};

// The library as a user calls it; its handle (and workspace pool) is gone before GEMMul8 runs.
template <class T>
void library_row(cublasHandle_t cb, Case<T>& c, std::pair<double, double> base, harness::JsonRows& json) {
  const long long n = c.n;
  const T one = 1, zero = 0;
  tdisc_gemm_handle_t h = nullptr;
  if (tdisc_gemm_create(&h, cb) != TDISC_GEMM_SUCCESS) std::exit(1);
  tdisc_gemm_plan_t plan{};
  tdisc_gemm_choose(h, sizeof(T) == 8 ? TDISC_GEMM_F64 : TDISC_GEMM_F32, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &plan);
  const auto o = c.measure([&] {
    ours(h, nullptr, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, c.A.get(), n, c.B.get(), n, &zero, c.C.get(), n);
  });
  std::printf("%s %s n=%lld tdisc %.2f ms %.3fx (err %.2e, %.2fx cuBLAS's; plan %s leaf %d)\n", c.dtype(),
              c.input_name(), n, o.first, base.first / o.first, o.second, o.second / base.second, plan.name, plan.leaf);
  json.row(format("\"dtype\": \"%s\", \"input\": \"%s\", \"n\": %lld, \"method\": \"tdisc\", \"plan\": \"%s\", "
                  "\"leaf\": %d, \"ms\": %.4f, \"speedup\": %.4f, \"err\": %.3e, \"err_ratio\": %.3f, "
                  "\"workspace_bytes\": %zu",
                  c.dtype(), c.input_name(), n, plan.name, plan.leaf, o.first, base.first / o.first, o.second,
                  o.second / base.second, plan.workspace_bytes));
  CK(cudaDeviceSynchronize());
  tdisc_gemm_destroy(h);
}

// GEMMul8 in one mode with ascending moduli counts, stopping at the first whose error is at most
// cuBLAS's (or whose workspace is not available).
template <class T>
void gemmul8_rows(cublasHandle_t cb, Case<T>& c, bool fast, std::pair<double, double> base, harness::JsonRows& json) {
  const long long n = c.n;
  const T one = 1, zero = 0;
  const char* mode = fast ? "fast" : "accurate";
  const unsigned lo = sizeof(T) == 8 ? 12 : 5, hi = sizeof(T) == 8 ? 20 : 13;
  for (unsigned mod = lo; mod <= hi; ++mod) {
    const size_t bytes = gemmul8::workSize(n, n, n, mod);
    void* work = nullptr;
    if (cudaMalloc(&work, bytes) != cudaSuccess) {
      cudaGetLastError();
      std::printf("%s %s n=%lld GEMMul8 %s %u moduli: workspace %.2f GiB not available\n", c.dtype(), c.input_name(), n,
                  mode, mod, bytes / 1073741824.0);
      break;
    }
    const auto g = c.measure([&] {
      gemmul8::gemm<T>(cb, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, c.A.get(), n, c.B.get(), n, &zero, c.C.get(), n, mod,
                       fast, work);
    });
    CK(cudaFree(work));
    std::printf("%s %s n=%lld GEMMul8 %-8s %2u moduli: %.2f ms %.3fx (err %.2e, %.2fx cuBLAS's; workspace %.2f GiB)\n",
                c.dtype(), c.input_name(), n, mode, mod, g.first, base.first / g.first, g.second, g.second / base.second,
                bytes / 1073741824.0);
    json.row(format("\"dtype\": \"%s\", \"input\": \"%s\", \"n\": %lld, \"method\": \"gemmul8\", \"mode\": \"%s\", "
                    "\"moduli\": %u, \"ms\": %.4f, \"speedup\": %.4f, \"err\": %.3e, \"err_ratio\": %.3f, "
                    "\"workspace_bytes\": %zu",
                    c.dtype(), c.input_name(), n, mode, mod, g.first, base.first / g.first, g.second,
                    g.second / base.second, bytes));
    std::fflush(stdout);
    if (g.second <= base.second) break;  // the smallest count as accurate as cuBLAS on these inputs
  }
}

// cuBLAS, the library and GEMMul8 (accurate, then fast) on one dtype, size and input.
template <class T>
void run(cublasHandle_t cb, long long n, bool wide, int reps, harness::JsonRows& json) {
  Case<T> c(n, wide, reps);
  const T one = 1, zero = 0;
  const double tflop = 2.0 * n * n * n * 1e-9;
  const auto base = c.measure([&] {
    CB(xgemm(cb, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, c.A.get(), n, c.B.get(), n, &zero, c.C.get(), n));
  });
  std::printf("%s %s n=%lld cuBLAS %.2f ms (%.1f TFLOP/s, err %.2e)\n", c.dtype(), c.input_name(), n, base.first,
              tflop / base.first, base.second);
  json.row(format("\"dtype\": \"%s\", \"input\": \"%s\", \"n\": %lld, \"method\": \"cublas\", \"ms\": %.4f, \"err\": %.3e",
                  c.dtype(), c.input_name(), n, base.first, base.second));
  library_row(cb, c, base, json);
  for (bool fast : {false, true}) gemmul8_rows(cb, c, fast, base, json);
}

Options parse(int argc, char** argv) {
  Options o;
  if (argc > 1) o.out = argv[1];
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
      std::exit(1);
    }
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  if (!gpu_present()) return 77;
  cublasHandle_t cb;
  CB(cublasCreate(&cb));  // default math mode: no TF32 for the f32 baseline
  cudaDeviceProp prop{};
  CK(cudaGetDeviceProperties(&prop, 0));
  int cublas_version = 0;
  CB(cublasGetVersion(cb, &cublas_version));
  std::FILE* f = std::fopen((o.out + ".tmp").c_str(), "w");
  if (!f) return 1;
  RunProvenance run_info = run_provenance(argc, argv);
  if (run_info.commit.empty()) run_info.commit = o.commit;
  std::fprintf(f, "{\n  ");
  harness::json_provenance(f, run_info);
  std::fprintf(f,
               ",\n  \"machine\": \"%s\", \"cublas_version\": %d, \"seeds\": [20261123, 20261124],\n"
               "  \"note\": \"GEMMul8 INT8 backend, accurate and fast mode, moduli ascending until the error is at most "
               "cuBLAS's; error: relative Frobenius of 16 sampled rows against double-double; median of reps\",\n"
               "  \"rows\": [\n",
               prop.name, cublas_version);
  harness::JsonRows json{f};
  for (long long n : o.f64) run<double>(cb, n, false, n >= 32768 ? o.reps_large : o.reps, json);
  for (long long n : o.f32) run<float>(cb, n, false, n >= 32768 ? o.reps_large : o.reps, json);
  if (o.wide_at > 0) {
    run<double>(cb, o.wide_at, true, o.reps, json);
    run<float>(cb, o.wide_at, true, o.reps, json);
  }
  std::string load;
  std::getline(std::ifstream("/proc/loadavg"), load);
  std::fprintf(f, "\n  ],\n  \"loadavg_end\": \"%s\"\n}\n", load.c_str());
  std::fclose(f);
  std::rename((o.out + ".tmp").c_str(), o.out.c_str());
  cublasDestroy(cb);
  return 0;
}
