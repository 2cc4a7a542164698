// tdisc_gemm_ozaki: the emulated plans beside cuBLAS and the native plans, in one process (issue 30).
// Per dtype and square n: cuBLAS, the library's native choice, Ozaki-II alone ("oz2") and with scheme
// levels over Z/p ("oz2-s1", "oz2-r48", …), on the same inputs; CUDA events, one warm-up, median of
// --reps; error of 16 sampled rows (relative Frobenius) against a double-double reference; every
// level's result compared bit for bit with oz2's (a scheme over Z/p must change no bit). With
// --wide-at n: the same on inputs uniform in [-1,1) times 2^e, e uniform in [-16,16] per element.
// --sweep-at n,…: oz2 with moduli default-4 … default+3 (error and time), to find the smallest count
// whose error is no worse than cuBLAS's. Also one INT8 product alone (the tensor-core floor per modulus).
// --phases-at n: one more call of each emulated plan at n with TDISC_OZAKI_PHASES set, so that the
// library prints where its time goes (scaling, residues, INT8 products, reductions and
// C combinations, reconstruction). Self-checking: exits 1 when a level's result differs from oz2's or an
// emulated call fails.
// Usage: tdisc_gemm_ozaki OUT.json [--dtypes f64,f32] [--sizes 4096,8192,16384] [--reps 5]
//        [--variants oz2,oz2-s1,oz2-r48] [--wide-at 4096] [--sweep-at 4096,16384] [--phases-at 16384]
#include <algorithm>
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

using harness::format;

__device__ __forceinline__ bool same_bits(double a, double b) { return __double_as_longlong(a) == __double_as_longlong(b); }
__device__ __forceinline__ bool same_bits(float a, float b) { return __float_as_int(a) == __float_as_int(b); }

template <class T>
__global__ void count_different(const T* x, const T* y, long long count, unsigned long long* diff) {
  unsigned long long local = 0;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count; i += (long long)gridDim.x * blockDim.x)
    local += !same_bits(x[i], y[i]);
  atomicAdd(diff, local);
}

int failures = 0;

// One dtype, size and input: the inputs (uniform in [-1, 1), optionally widened), C, oz2's result kept
// for the levels' bit comparison, the sampled reference and the timer.
template <class T>
struct Bench {
  tdisc_gemm_handle_t h;
  cublasHandle_t cb;
  long long n;
  DeviceBuffer<T> A, B, C, Ckeep;
  harness::SampledReference ref;
  harness::EventTimer timer;

  Bench(tdisc_gemm_handle_t h_, cublasHandle_t cb_, long long n_, bool wide)
      : h(h_), cb(cb_), n(n_), A(harness::uniform_input<T>(n_ * n_, 20261123, wide, 1)),
        B(harness::uniform_input<T>(n_ * n_, 20261124, wide, 2)), C(n_ * n_), Ckeep(n_ * n_),
        ref(A.get(), n_, false, B.get(), n_, false, n_, n_, n_, 0) {}

  // One call of a variant: "cublas", "native" (the library's own choice), or an emulated plan name
  // (moduli 0: the dtype's default).
  tdisc_gemm_status_t call(const std::string& v, int moduli) {
    const T one = 1, zero = 0;
    if (v == "cublas") {
      CB(xgemm(cb, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A.get(), n, B.get(), n, &zero, C.get(), n));
      return TDISC_GEMM_SUCCESS;
    }
    if (v == "native")
      return ours(h, nullptr, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A.get(), n, B.get(), n, &zero, C.get(), n);
    tdisc_gemm_plan_t p{};
    std::snprintf(p.name, sizeof p.name, "%s", v.c_str());
    p.moduli = moduli;
    return ours(h, &p, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A.get(), n, B.get(), n, &zero, C.get(), n);
  }

  // One warm-up call, then the median of reps timed calls; -1 when a call fails.
  double time_ms(const std::string& v, int moduli, int reps) {
    if (call(v, moduli) != TDISC_GEMM_SUCCESS) return -1;
    CK(cudaDeviceSynchronize());
    std::vector<float> ms;
    bool failed = false;
    for (int r = 0; r < reps && !failed; ++r)
      ms.push_back(timer.time(nullptr, [&] { failed = call(v, moduli) != TDISC_GEMM_SUCCESS; }));
    return failed ? -1 : harness::median(ms);
  }

  double error() { return ref.error(C.get(), n); }

  long long differing(const T* x, const T* y) {
    DeviceBuffer<unsigned long long> d(1);
    CK(cudaMemset(d.get(), 0, sizeof(unsigned long long)));
    count_different<T><<<1024, 256>>>(x, y, n * n, d.get());
    return (long long)d.to_host()[0];
  }
};

// The INT8 product alone (TN, n×n×n, INT32 out): the tensor-core floor of one modulus.
double int8_gemm_ms(cublasHandle_t cb, long long n, int reps) {
  DeviceBuffer<int8_t> a(n * n), b(n * n);
  DeviceBuffer<int32_t> c(n * n);
  CK(cudaMemset(a.get(), 1, n * n));
  CK(cudaMemset(b.get(), 1, n * n));
  const int32_t one = 1, zero = 0;
  harness::EventTimer timer;
  std::vector<float> ms;
  for (int r = 0; r <= reps; ++r) {
    const float t = timer.time(nullptr, [&] {
      CB(cublasGemmEx(cb, CUBLAS_OP_T, CUBLAS_OP_N, (int)n, (int)n, (int)n, &one, a.get(), CUDA_R_8I, (int)n, b.get(),
                      CUDA_R_8I, (int)n, &zero, c.get(), CUDA_R_32I, (int)n, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT));
    });
    if (r) ms.push_back(t);
  }
  return harness::median(ms);
}

// What a run prints and writes of one variant.
struct Labels {
  const char* dt;
  long long n;
  const char* input;
};

// One variant timed and checked: its error, and for a scheme level whether it is bit-identical to oz2;
// at --phases-at one more call with TDISC_OZAKI_PHASES set (the library prints its phases on stderr).
template <class T>
void variant_row(Bench<T>& b, const std::string& v, const Labels& l, bool wide, int base, int reps, const Options& o,
                 double& cublas_ms, double& cublas_err, bool& have_oz2, harness::JsonRows& json) {
  const int moduli = v.rfind("oz2", 0) == 0 ? base : 0;  // the emulated choice's count (the table's, or the rule's)
  const double ms = b.time_ms(v, moduli, reps);
  if (ms < 0) {
    std::printf("%s n=%lld %s %-8s FAILED (status)\n", l.dt, l.n, l.input, v.c_str());
    ++failures;
    json.row(format("\"dtype\": \"%s\", \"n\": %lld, \"input\": \"%s\", \"variant\": \"%s\", \"failed\": true", l.dt,
                    l.n, l.input, v.c_str()));
    return;
  }
  const double err = b.error();
  if (v == "cublas") cublas_ms = ms, cublas_err = err;
  long long diff = -1;
  if (v == "oz2") {
    b.Ckeep.copy_from(b.C);
    have_oz2 = true;
  } else if (v.rfind("oz2-", 0) == 0 && have_oz2) {
    diff = b.differing(b.C.get(), b.Ckeep.get());
    if (diff) ++failures;
  }
  if (v.rfind("oz2", 0) == 0 && l.n == o.phases_at && !wide) {  // one more call, its phases on stderr
    setenv("TDISC_OZAKI_PHASES", "1", 1);
    b.call(v, moduli);
    CK(cudaDeviceSynchronize());
    unsetenv("TDISC_OZAKI_PHASES");
  }
  tdisc_gemm_plan_t chosen{};
  if (v == "native")
    tdisc_gemm_choose(b.h, sizeof(T) == 8 ? TDISC_GEMM_F64 : TDISC_GEMM_F32, CUBLAS_OP_N, CUBLAS_OP_N, l.n, l.n, l.n,
                      &chosen);
  std::printf("%s n=%-6lld %-7s %-8s %9.3f ms  %5.3fx cuBLAS  error %.3e (%.3fx cuBLAS's)%s%s\n", l.dt, l.n, l.input,
              v.c_str(), ms, cublas_ms / ms, err, err / cublas_err,
              diff < 0 ? "" : diff == 0 ? "  bit-identical to oz2" : "  DIFFERS from oz2",
              v == "native" ? (std::string("  plan ") + chosen.name).c_str() : "");
  json.row(format("\"dtype\": \"%s\", \"n\": %lld, \"input\": \"%s\", \"variant\": \"%s\", \"moduli\": %d, "
                  "\"ms\": %.4f, \"speedup_vs_cublas\": %.4f, \"error\": %.4e, \"error_vs_cublas\": %.4f, "
                  "\"differing_from_oz2\": %lld%s",
                  l.dt, l.n, l.input, v.c_str(), moduli, ms, cublas_ms / ms, err,
                  err / cublas_err, diff, v == "native" ? (std::string(", \"plan\": \"") + chosen.name + "\"").c_str() : ""));
}

// oz2 with moduli default-4 … default+3: error and time, to find the smallest count as accurate as cuBLAS.
template <class T>
void moduli_sweep(Bench<T>& b, const Labels& l, int base, const Options& o, double cublas_ms, double cublas_err,
                  harness::JsonRows& json) {
  for (int moduli = std::max(2, base - 4); moduli <= std::min(24, base + 3); ++moduli) {
    const double ms = b.time_ms("oz2", moduli, o.reps);
    const double err = ms < 0 ? -1 : b.error();
    std::printf("%s n=%-6lld %-7s oz2 moduli %2d %9.3f ms  %5.3fx cuBLAS  error %.3e (%.3fx cuBLAS's)\n", l.dt, l.n,
                l.input, moduli, ms, cublas_ms / ms, err, err / cublas_err);
    json.row(format("\"dtype\": \"%s\", \"n\": %lld, \"input\": \"%s\", \"variant\": \"oz2\", \"moduli\": %d, "
                    "\"sweep\": true, \"ms\": %.4f, \"speedup_vs_cublas\": %.4f, \"error\": %.4e, \"error_vs_cublas\": %.4f",
                    l.dt, l.n, l.input, moduli, ms, cublas_ms / ms, err, err / cublas_err));
  }
}

// Every variant on one dtype, size and input, then (sweep) the moduli sweep.
template <class T>
void run(tdisc_gemm_handle_t h, cublasHandle_t cb, long long n, bool wide, bool sweep, const Options& o,
         harness::JsonRows& json) {
  const Labels l{sizeof(T) == 8 ? "f64" : "f32", n, wide ? "wide" : "uniform"};
  Bench<T> b(h, cb, n, wide);
  // The library's default moduli for this dtype and k: what tdisc_gemm_choose puts into an emulated plan.
  tdisc_gemm_plan_t chosen_emulated{};
  tdisc_gemm_set_accuracy(h, TDISC_GEMM_EMULATED);
  tdisc_gemm_choose(h, sizeof(T) == 8 ? TDISC_GEMM_F64 : TDISC_GEMM_F32, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n,
                    &chosen_emulated);
  tdisc_gemm_set_accuracy(h, TDISC_GEMM_NATIVE);
  const int base = chosen_emulated.moduli;
  std::printf("%s n=%lld %s: emulated choice \"%s\", %d moduli (%s)\n", l.dt, n, l.input, chosen_emulated.name, base,
              chosen_emulated.why);
  const int reps = wide ? 1 : o.reps;  // wide inputs: the error is the point
  std::vector<std::string> variants{"cublas", "native"};
  variants.insert(variants.end(), o.variants.begin(), o.variants.end());
  double cublas_ms = 0, cublas_err = 0;
  bool have_oz2 = false;
  for (const std::string& v : variants)
    variant_row(b, v, l, wide, base, reps, o, cublas_ms, cublas_err, have_oz2, json);
  if (sweep && base > 0) moduli_sweep(b, l, base, o, cublas_ms, cublas_err, json);
}

Options parse(int argc, char** argv) {
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
    } else {
      std::fprintf(stderr, "tdisc: %s:%d: unknown option %s\n", __FILE__, __LINE__, a.c_str());
      std::exit(2);
    }
  }
  return o;
}

// One workspace for every call (the library's pool keeps what it once allocated; at 16384 the
// emulated plans with levels need up to ~17 GiB): all free memory but the inputs' and a margin, so that
// no plan falls back to cuBLAS for want of memory.
DeviceBuffer<char> shared_workspace(tdisc_gemm_handle_t h, const Options& o) {
  long long nmax = o.wide_at;
  for (long long n : o.sizes) nmax = std::max(nmax, n);
  size_t free_bytes = 0, total_bytes = 0;
  CK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const size_t keep = (size_t)4 * nmax * nmax * 8 + ((size_t)3 << 30);  // A, B, C and oz2's C kept
  DeviceBuffer<char> ws(free_bytes > keep ? (long long)(free_bytes - keep) : 0);
  tdisc_gemm_set_workspace(h, ws.get(), ws.bytes());
  std::printf("workspace %.1f GiB of %.1f GiB free\n", ws.bytes() / 1073741824.0, free_bytes / 1073741824.0);
  return ws;
}

// The document's head: provenance, GPU, cuBLAS and the method.
void json_head(std::FILE* f, const RunProvenance& prov, const char* gpu, int cublas_version) {
  std::fprintf(f, "{\n  \"benchmark\": \"ozaki\",\n  ");
  harness::json_provenance(f, prov);
  std::fprintf(f, ",\n  \"gpu\": \"%s\",\n  \"cublas\": %d,\n"
                  "  \"method\": \"same inputs (uniform in [-1,1), or times 2^e, e in [-16,16], for input wide); error: "
                  "relative Frobenius of 16 sampled rows against double-double; median of reps; "
                  "differing_from_oz2: elements whose bits differ from oz2's (-1: not compared)\",\n  \"rows\": [\n",
               gpu, cublas_version);
}

}  // namespace

int main(int argc, char** argv) {
  if (!gpu_present()) {
    std::fprintf(stderr, "tdisc_gemm_ozaki: no GPU\n");
    return 77;
  }
  const Options o = parse(argc, argv);
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
  json_head(f, run_provenance(argc, argv), gpu, cublas_version);
  harness::JsonRows json{f};
  std::printf("%s, cuBLAS %d\n", gpu, cublas_version);
  // Where the time of oz2 goes, coarsely: one INT8 product per modulus (this) against the whole call.
  for (long long n : o.sizes) {
    const double ms = int8_gemm_ms(cb, n, 3);
    std::printf("INT8 product alone (TN, INT32 out), n=%lld: %.3f ms per modulus\n", n, ms);
    json.row(format("\"variant\": \"int8-product\", \"n\": %lld, \"ms\": %.4f", n, ms));
  }
  {
    const DeviceBuffer<char> ws = shared_workspace(h, o);
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
  }
  std::printf("%s: %d failure(s)\n", o.out.c_str(), failures);
  return failures ? 1 : 0;
}
