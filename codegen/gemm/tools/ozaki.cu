// tdisc_gemm_ozaki: the emulated plans beside cuBLAS and the native plans, in one process (issue 30).
// Per dtype and square n: cuBLAS, the library's native choice, Ozaki-II alone ("oz2") and with scheme
// levels over Z/p ("oz2-s1", "oz2-r48", …), on the same inputs; CUDA events, one warm-up, median of
// --reps; error of 16 sampled rows (relative Frobenius) against a double-double reference; every
// level's result compared bit for bit with oz2's (a scheme over Z/p must change no bit). With
// --wide-at n: the same on inputs uniform in [-1,1) times 2^e, e uniform in [-16,16] per element.
// --sweep-at n,…: oz2 with moduli default-4 … default+3 (error and time), to find the smallest count
// whose error is no worse than cuBLAS's. Also one INT8 product alone (the tensor-core floor per modulus).
// --phases-at n: one more call of each emulated plan at n with TDISC_OZAKI_PHASES set, so that the
// library prints where its time goes (scaling, residues, operand sums, INT8 products, reductions and
// C combinations, reconstruction). Self-checking: exits 1 when a level's result differs from oz2's or an
// emulated call fails.
// Usage: tdisc_gemm_ozaki OUT.json [--dtypes f64,f32] [--sizes 4096,8192,16384] [--reps 5]
//        [--variants oz2,oz2-s1,oz2-r48] [--wide-at 4096] [--sweep-at 4096,16384] [--phases-at 16384]
#include <algorithm>
#include <cstdarg>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "common.cuh"

namespace {

struct Options {
  std::vector<std::string> dtypes{"f64", "f32"}, variants{"oz2", "oz2-s1", "oz2-r48"};
  std::vector<long long> sizes{4096, 8192, 16384};
  int reps = 5;
  long long wide_at = 4096, phases_at = 16384;
  std::vector<long long> sweep_at{4096, 16384};
  std::string out = "ozaki.json";
};

std::vector<std::string> split(const char* s) {
  std::vector<std::string> v;
  std::stringstream in(s);
  for (std::string x; std::getline(in, x, ',');)
    if (!x.empty()) v.push_back(x);
  return v;
}

std::string fmt(const char* f, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, f);
  std::vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

__device__ __forceinline__ bool same_bits(double a, double b) { return __double_as_longlong(a) == __double_as_longlong(b); }
__device__ __forceinline__ bool same_bits(float a, float b) { return __float_as_int(a) == __float_as_int(b); }

template <class T>
__global__ void count_different(const T* x, const T* y, long long count, unsigned long long* diff) {
  unsigned long long local = 0;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count; i += (long long)gridDim.x * blockDim.x)
    local += !same_bits(x[i], y[i]);
  atomicAdd(diff, local);
}

struct Json {
  std::FILE* f;
  bool first = true;
  void row(const std::string& body) {
    std::fprintf(f, "%s    {%s}", first ? "" : ",\n", body.c_str());
    std::fflush(f);
    first = false;
  }
};

double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

int failures = 0;

template <class T>
struct Bench {
  tdisc_gemm_handle_t h;
  cublasHandle_t cb;
  long long n;
  T *A, *B, *C, *Ckeep;
  long long* drows;
  double *dref, *dgot;
  std::vector<double> ref;
  cudaEvent_t e0, e1;

  // One call of a variant: "cublas", "native" (the library's own choice), or an emulated plan name
  // (moduli 0: the dtype's default).
  tdisc_gemm_status_t call(const std::string& v, int moduli) {
    const T one = 1, zero = 0;
    if (v == "cublas") {
      CB(xgemm(cb, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, B, n, &zero, C, n));
      return TDISC_GEMM_SUCCESS;
    }
    if (v == "native") return ours(h, nullptr, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, B, n, &zero, C, n);
    tdisc_gemm_plan_t p{};
    std::snprintf(p.name, sizeof p.name, "%s", v.c_str());
    p.moduli = moduli;
    return ours(h, &p, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, B, n, &zero, C, n);
  }

  double time_ms(const std::string& v, int moduli, int reps) {
    if (call(v, moduli) != TDISC_GEMM_SUCCESS) return -1;
    CK(cudaDeviceSynchronize());
    std::vector<float> ms;
    for (int r = 0; r < reps; ++r) {
      CK(cudaEventRecord(e0));
      if (call(v, moduli) != TDISC_GEMM_SUCCESS) return -1;
      CK(cudaEventRecord(e1));
      CK(cudaEventSynchronize(e1));
      float t = 0;
      CK(cudaEventElapsedTime(&t, e0, e1));
      ms.push_back(t);
    }
    return median(ms);
  }

  void reference() {
    const std::vector<long long> rows = sample_rows(n);
    CK(cudaMemcpy(drows, rows.data(), kSample * sizeof(long long), cudaMemcpyHostToDevice));
    reference_rows<T><<<(unsigned)((n + 127) / 128), 128>>>(A, n, 0, B, n, 0, n, n, drows, dref);
    CK(cudaGetLastError());
    ref.assign(kSample * n, 0);
    CK(cudaMemcpy(ref.data(), dref, ref.size() * sizeof(double), cudaMemcpyDeviceToHost));
  }

  double error() {
    gather_rows<T><<<(unsigned)((n + 127) / 128), 128>>>(C, n, n, drows, dgot);
    CK(cudaGetLastError());
    std::vector<double> got(kSample * n);
    CK(cudaMemcpy(got.data(), dgot, got.size() * sizeof(double), cudaMemcpyDeviceToHost));
    return sampled_error(got, ref);
  }

  long long differing(const T* x, const T* y) {
    unsigned long long* d = nullptr;
    CK(cudaMalloc(&d, sizeof *d));
    CK(cudaMemset(d, 0, sizeof *d));
    count_different<T><<<1024, 256>>>(x, y, n * n, d);
    unsigned long long out = 0;
    CK(cudaMemcpy(&out, d, sizeof out, cudaMemcpyDeviceToHost));
    CK(cudaFree(d));
    return (long long)out;
  }
};

}  // namespace

namespace {

// The INT8 product alone (TN, n×n×n, INT32 out): the tensor-core floor of one modulus.
double int8_gemm_ms(cublasHandle_t cb, long long n, int reps) {
  int8_t *a, *b;
  int32_t* c;
  CK(cudaMalloc(&a, n * n));
  CK(cudaMalloc(&b, n * n));
  CK(cudaMalloc(&c, n * n * 4));
  CK(cudaMemset(a, 1, n * n));
  CK(cudaMemset(b, 1, n * n));
  const int32_t one = 1, zero = 0;
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  std::vector<float> ms;
  for (int r = 0; r <= reps; ++r) {
    CK(cudaEventRecord(e0));
    CB(cublasGemmEx(cb, CUBLAS_OP_T, CUBLAS_OP_N, (int)n, (int)n, (int)n, &one, a, CUDA_R_8I, (int)n, b, CUDA_R_8I,
                    (int)n, &zero, c, CUDA_R_32I, (int)n, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT));
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float t = 0;
    CK(cudaEventElapsedTime(&t, e0, e1));
    if (r) ms.push_back(t);
  }
  CK(cudaFree(a)); CK(cudaFree(b)); CK(cudaFree(c));
  return median(ms);
}

template <class T>
void run(tdisc_gemm_handle_t h, cublasHandle_t cb, long long n, bool wide, bool sweep, const Options& o, Json& json) {
  const char* dt = sizeof(T) == 8 ? "f64" : "f32";
  const char* input = wide ? "wide" : "uniform";
  Bench<T> b{h, cb, n};
  CK(cudaMalloc(&b.A, n * n * sizeof(T)));
  CK(cudaMalloc(&b.B, n * n * sizeof(T)));
  CK(cudaMalloc(&b.C, n * n * sizeof(T)));
  CK(cudaMalloc(&b.Ckeep, n * n * sizeof(T)));
  CK(cudaMalloc(&b.drows, kSample * sizeof(long long)));
  CK(cudaMalloc(&b.dref, kSample * n * sizeof(double)));
  CK(cudaMalloc(&b.dgot, kSample * n * sizeof(double)));
  CK(cudaEventCreate(&b.e0));
  CK(cudaEventCreate(&b.e1));
  fill_dev<T>(b.A, n * n, 20261123, 0);
  fill_dev<T>(b.B, n * n, 20261124, 0);
  if (wide) {
    widen<T><<<1024, 256>>>(b.A, n * n, 1);
    widen<T><<<1024, 256>>>(b.B, n * n, 2);
  }
  b.reference();
  // The library's default moduli for this dtype and k: what tdisc_gemm_choose puts into an emulated plan.
  tdisc_gemm_plan_t chosen_emulated{};
  tdisc_gemm_set_accuracy(h, TDISC_GEMM_EMULATED);
  tdisc_gemm_choose(h, sizeof(T) == 8 ? TDISC_GEMM_F64 : TDISC_GEMM_F32, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n,
                    &chosen_emulated);
  tdisc_gemm_set_accuracy(h, TDISC_GEMM_NATIVE);
  const int base = chosen_emulated.moduli;
  std::printf("%s n=%lld %s: emulated choice \"%s\", %d moduli (%s)\n", dt, n, input, chosen_emulated.name, base,
              chosen_emulated.why);
  const int reps = wide ? 1 : o.reps;  // wide inputs: the error is the point
  std::vector<std::string> variants{"cublas", "native"};
  variants.insert(variants.end(), o.variants.begin(), o.variants.end());
  double cublas_ms = 0, cublas_err = 0;
  bool have_oz2 = false;
  for (const std::string& v : variants) {
    const double ms = b.time_ms(v, 0, reps);
    if (ms < 0) {
      std::printf("%s n=%lld %s %-8s FAILED (status)\n", dt, n, input, v.c_str());
      ++failures;
      json.row(fmt("\"dtype\": \"%s\", \"n\": %lld, \"input\": \"%s\", \"variant\": \"%s\", \"failed\": true", dt, n,
                   input, v.c_str()));
      continue;
    }
    const double err = b.error();
    if (v == "cublas") cublas_ms = ms, cublas_err = err;
    long long diff = -1;
    if (v == "oz2") {
      CK(cudaMemcpy(b.Ckeep, b.C, n * n * sizeof(T), cudaMemcpyDeviceToDevice));
      have_oz2 = true;
    } else if (v.rfind("oz2-", 0) == 0 && have_oz2) {
      diff = b.differing(b.C, b.Ckeep);
      if (diff) ++failures;
    }
    if (v.rfind("oz2", 0) == 0 && n == o.phases_at && !wide) {  // one more call, its phases on stderr
      setenv("TDISC_OZAKI_PHASES", "1", 1);
      b.call(v, 0);
      CK(cudaDeviceSynchronize());
      unsetenv("TDISC_OZAKI_PHASES");
    }
    tdisc_gemm_plan_t chosen{};
    if (v == "native")
      tdisc_gemm_choose(h, sizeof(T) == 8 ? TDISC_GEMM_F64 : TDISC_GEMM_F32, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &chosen);
    std::printf("%s n=%-6lld %-7s %-8s %9.3f ms  %5.3fx cuBLAS  error %.3e (%.3fx cuBLAS's)%s%s\n", dt, n, input,
                v.c_str(), ms, cublas_ms / ms, err, err / cublas_err,
                diff < 0 ? "" : diff == 0 ? "  bit-identical to oz2" : "  DIFFERS from oz2",
                v == "native" ? (std::string("  plan ") + chosen.name).c_str() : "");
    json.row(fmt("\"dtype\": \"%s\", \"n\": %lld, \"input\": \"%s\", \"variant\": \"%s\", \"moduli\": %d, "
                 "\"ms\": %.4f, \"speedup_vs_cublas\": %.4f, \"error\": %.4e, \"error_vs_cublas\": %.4f, "
                 "\"differing_from_oz2\": %lld%s",
                 dt, n, input, v.c_str(), v.rfind("oz2", 0) == 0 ? base : 0, ms, cublas_ms / ms, err, err / cublas_err,
                 diff, v == "native" ? (std::string(", \"plan\": \"") + chosen.name + "\"").c_str() : ""));
  }
  if (sweep && base > 0) {
    for (int moduli = std::max(2, base - 4); moduli <= std::min(24, base + 3); ++moduli) {
      const double ms = b.time_ms("oz2", moduli, std::max(1, o.reps / 2));
      const double err = ms < 0 ? -1 : b.error();
      std::printf("%s n=%-6lld %-7s oz2 moduli %2d %9.3f ms  %5.3fx cuBLAS  error %.3e (%.3fx cuBLAS's)\n", dt, n, input,
                  moduli, ms, cublas_ms / ms, err, err / cublas_err);
      json.row(fmt("\"dtype\": \"%s\", \"n\": %lld, \"input\": \"%s\", \"variant\": \"oz2\", \"moduli\": %d, "
                   "\"sweep\": true, \"ms\": %.4f, \"speedup_vs_cublas\": %.4f, \"error\": %.4e, \"error_vs_cublas\": %.4f",
                   dt, n, input, moduli, ms, cublas_ms / ms, err, err / cublas_err));
    }
  }
  CK(cudaFree(b.A)); CK(cudaFree(b.B)); CK(cudaFree(b.C)); CK(cudaFree(b.Ckeep));
  CK(cudaFree(b.drows)); CK(cudaFree(b.dref)); CK(cudaFree(b.dgot));
  CK(cudaEventDestroy(b.e0)); CK(cudaEventDestroy(b.e1));
}

}  // namespace

int main(int argc, char** argv) {
  if (!gpu_present()) {
    std::fprintf(stderr, "tdisc_gemm_ozaki: no GPU\n");
    return 77;
  }
  Options o;
  if (argc > 1) o.out = argv[1];
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--dtypes") o.dtypes = split(argv[i + 1]);
    else if (a == "--variants") o.variants = split(argv[i + 1]);
    else if (a == "--sizes") {
      o.sizes.clear();
      for (const std::string& s : split(argv[i + 1])) o.sizes.push_back(std::atoll(s.c_str()));
    } else if (a == "--reps") o.reps = std::atoi(argv[i + 1]);
    else if (a == "--wide-at") o.wide_at = std::atoll(argv[i + 1]);
    else if (a == "--phases-at") o.phases_at = std::atoll(argv[i + 1]);
    else if (a == "--sweep-at") {
      o.sweep_at.clear();
      for (const std::string& s : split(argv[i + 1])) o.sweep_at.push_back(std::atoll(s.c_str()));
    }
    else {
      std::fprintf(stderr, "tdisc: %s:%d: unknown option %s\n", __FILE__, __LINE__, a.c_str());
      return 2;
    }
  }
  const RunProvenance prov = run_provenance(argc, argv);
  tdisc_gemm_handle_t h;
  if (tdisc_gemm_create(&h, nullptr) != TDISC_GEMM_SUCCESS) {
    std::fprintf(stderr, "tdisc: %s:%d: tdisc_gemm_create failed\n", __FILE__, __LINE__);
    return 1;
  }
  cublasHandle_t cb = tdisc_gemm_cublas(h);
  char gpu[128] = {0};
  int cublas_version = 0;
  tdisc_gemm_device(h, gpu, sizeof gpu, &cublas_version);
  const std::string tmp = o.out + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "tdisc: %s:%d: cannot write %s\n", __FILE__, __LINE__, tmp.c_str());
    return 1;
  }
  std::fprintf(f, "{\n  \"benchmark\": \"ozaki\",\n  \"gpu\": \"%s\",\n  \"cublas\": %d,\n  \"command\": \"%s\",\n"
                  "  \"date\": \"%s\",\n  \"load\": \"%s\",\n  \"commit\": \"%s\",\n"
                  "  \"method\": \"same inputs (uniform in [-1,1), or times 2^e, e in [-16,16], for input wide); error: "
                  "relative Frobenius of 16 sampled rows against double-double; median of reps; "
                  "differing_from_oz2: elements whose bits differ from oz2's (-1: not compared)\",\n  \"rows\": [\n",
               gpu, cublas_version, prov.command.c_str(), prov.date.c_str(), prov.load.c_str(), prov.commit.c_str());
  Json json{f};
  std::printf("%s, cuBLAS %d\n", gpu, cublas_version);
  // Where the time of oz2 goes, coarsely: one INT8 product per modulus (this) against the whole call.
  for (long long n : o.sizes) {
    const double ms = int8_gemm_ms(cb, n, 3);
    std::printf("INT8 product alone (TN, INT32 out), n=%lld: %.3f ms per modulus\n", n, ms);
    json.row(fmt("\"variant\": \"int8-product\", \"n\": %lld, \"ms\": %.4f", n, ms));
  }
  // One workspace for every call (the library's pool keeps what it once allocated; at 16384 the
  // emulated plans with levels need up to ~17 GiB): all free memory but the inputs' and a margin, so that
  // no plan falls back to cuBLAS for want of memory.
  long long nmax = o.wide_at;
  for (long long n : o.sizes) nmax = std::max(nmax, n);
  size_t free_bytes = 0, total_bytes = 0;
  CK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const size_t keep = (size_t)5 * nmax * nmax * 8 + ((size_t)3 << 30);
  const size_t ws_bytes = free_bytes > keep ? free_bytes - keep : 0;
  void* ws = nullptr;
  if (ws_bytes) CK(cudaMalloc(&ws, ws_bytes));
  tdisc_gemm_set_workspace(h, ws, ws_bytes);
  std::printf("workspace %.1f GiB of %.1f GiB free\n", ws_bytes / 1073741824.0, free_bytes / 1073741824.0);
  for (const std::string& dt : o.dtypes) {
    for (long long n : o.sizes) {
      const bool sweep = std::find(o.sweep_at.begin(), o.sweep_at.end(), n) != o.sweep_at.end();
      if (dt == "f64") run<double>(h, cb, n, false, sweep, o, json);
      else run<float>(h, cb, n, false, sweep, o, json);
    }
    if (o.wide_at > 0) {
      if (dt == "f64") run<double>(h, cb, o.wide_at, true, true, o, json);
      else run<float>(h, cb, o.wide_at, true, true, o, json);
    }
  }
  std::fprintf(f, "\n  ],\n  \"failures\": %d\n}\n", failures);
  std::fclose(f);
  std::rename(tmp.c_str(), o.out.c_str());
  tdisc_gemm_destroy(h);
  if (ws) CK(cudaFree(ws));
  std::printf("%s: %d failure(s)\n", o.out.c_str(), failures);
  return failures ? 1 : 0;
}
