// tdisc bench harness (hand-written: codegen/runtime/bench_main.cu; `tdisc bench` writes it and
// harness.cuh next to the generated variants and compiles it with nvcc). Method of DESIGN §6 and
// CUTLASS's profiler guide, from the shared harness (harness.cuh):
// exact check against cuBLAS on small integers first (poisoned outputs, padded leading dimensions),
// then relative Frobenius error on random inputs against a double-double reference of sampled rows,
// then timing: warm-up, CUDA events, median of the repetitions, input sets rotated beyond 3× L2,
// nothing allocated in the timed loop, methods interleaved so that clock drift hits all alike.
#include "harness.cuh"  // checked calls, buffers, fills, exact check, reference, timing, provenance

typedef long long i64;
using harness::DeviceBuffer;
using harness::Fill;

struct BenchVariant {
  const char* name;       // "strassen.json x2"
  const char* summary;    // stages, ranks, additions
  double stability;       // stability factor of the whole recursion (verifier/stats.hpp)
  size_t (*workspace)(i64 M, i64 N, i64 K, int leaf);
  int (*gemm)(cublasHandle_t h, cudaStream_t s, int layout, i64 M, i64 N, i64 K, const void* alpha, const void* A,
              i64 lda, const void* B, i64 ldb, const void* beta, void* C, i64 ldc, void* ws, size_t bytes, int leaf);
};

#include "variants.inc"  // typedef Real; kDtype; kVariants[]; kVariantCount

namespace {

// Leaf modes of the generated API (Leaf::Separate, Batched, Streams); Auto resolves to one of them.
constexpr int kLeafModes = 3;
const char* leaf_name(int leaf) { return leaf == 0 ? "separate" : leaf == 1 ? "batched" : "streams"; }

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "tdisc: bench: %s\n", what.c_str());
  std::exit(1);
}

// ---- options ----
struct Options {
  std::vector<i64> sizes;                  // square sizes, timed
  std::vector<std::vector<i64>> shapes;    // extra M,N,K shapes (non-square, non-divisible), timed
  int reps = 20, warmup = 3;
  unsigned long long seed = 20261121;
  bool check_only = false;
  std::string json;
  int leaf = -1;  // -1: both modes
};

std::vector<i64> parse_list(const char* s) {
  std::vector<i64> v;
  for (const char* p = s; *p;) {
    char* end = nullptr;
    v.push_back(std::strtoll(p, &end, 10));
    if (end == p) break;
    p = *end ? end + 1 : end;
  }
  return v;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> const char* {
      if (i + 1 >= argc) die("missing value after " + a);
      return argv[++i];
    };
    if (a == "--sizes") o.sizes = parse_list(next());
    else if (a == "--shapes") {
      std::string s = next();
      for (size_t at = 0; at < s.size();) {
        size_t comma = s.find(',', at);
        std::string one = s.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
        for (char& c : one)
          if (c == 'x') c = ',';
        std::vector<i64> mnk = parse_list(one.c_str());
        if (mnk.size() == 3) o.shapes.push_back(mnk);
        if (comma == std::string::npos) break;
        at = comma + 1;
      }
    } else if (a == "--reps") o.reps = std::atoi(next());
    else if (a == "--warmup") o.warmup = std::atoi(next());
    else if (a == "--seed") o.seed = std::strtoull(next(), nullptr, 10);
    else if (a == "--json") o.json = next();
    else if (a == "--check-only") o.check_only = true;
    else if (a == "--leaf") {
      std::string l = next();
      o.leaf = l == "separate" ? 0 : l == "batched" ? 1 : l == "streams" ? 2 : -1;
    } else die("unknown option " + a);
  }
  if (o.reps < 20) die("--reps must be at least 20 (DESIGN §6)");
  return o;
}

struct Ctx {
  cublasHandle_t h;
  cudaStream_t s;
};

// cuBLAS as the baseline, in either layout (row-major: C^T = B^T A^T).
void cublas_gemm(Ctx& c, int layout, i64 M, i64 N, i64 K, Real alpha, const Real* A, i64 lda, const Real* B,
                 i64 ldb, Real beta, Real* C, i64 ldc) {
  if (layout == 0) CB(kXgemm(c.h, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &alpha, A, lda, B, ldb, &beta, C, ldc));
  else CB(kXgemm(c.h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, ldb, A, lda, &beta, C, ldc));
}

int ours(Ctx& c, const BenchVariant& v, int layout, i64 M, i64 N, i64 K, Real alpha, const Real* A, i64 lda,
         const Real* B, i64 ldb, Real beta, Real* C, i64 ldc, void* ws, size_t bytes, int leaf) {
  return v.gemm(c.h, c.s, layout, M, N, K, &alpha, A, lda, B, ldb, &beta, C, ldc, ws, bytes, leaf);
}

// ---- exact check on small integers ----
struct ExactCase {
  i64 M, N, K;
  int layout;
  Real alpha, beta;
};
const ExactCase kExactCases[] = {{512, 512, 512, 0, 1, 0}, {515, 509, 600, 0, 2, -1}, {257, 1000, 123, 0, 1, 0},
                                 {512, 384, 640, 1, 1, 0}, {515, 509, 600, 1, -1, 2}, {1031, 17, 260, 1, 1, 0},
                                 {3, 5, 7, 0, 1, 1},       {1024, 1024, 1024, 0, 1, 1}};

// One variant, case and leaf mode against cuBLAS on padded leading dimensions: A and B small integers,
// C poisoned by NaN when beta = 0 (it must not be read), else small integers.
harness::ExactCount exact_case(Ctx& c, const BenchVariant& v, const ExactCase& e, int leaf, int seed, int& status) {
  const bool col = e.layout == 0;
  const i64 lda = (col ? e.M : e.K) + 5, ldb = (col ? e.K : e.N) + 3, ldc = (col ? e.M : e.N) + 7;
  DeviceBuffer<Real> A(lda * (col ? e.K : e.M)), B(ldb * (col ? e.N : e.K)), C0(ldc * (col ? e.N : e.M));
  harness::fill(A, 11 + seed, Fill::SmallInt);
  harness::fill(B, 23 + seed, Fill::SmallInt);
  if (e.beta == 0) harness::poison(C0);
  else harness::fill(C0, 37 + seed, Fill::SmallInt);
  DeviceBuffer<Real> C1(C0.count());
  C1.copy_from(C0);
  const std::vector<Real> before = C0.to_host();
  DeviceBuffer<char> ws((i64)v.workspace(e.M, e.N, e.K, leaf));
  cublas_gemm(c, e.layout, e.M, e.N, e.K, e.alpha, A.get(), lda, B.get(), ldb, e.beta, C0.get(), ldc);
  status = ours(c, v, e.layout, e.M, e.N, e.K, e.alpha, A.get(), lda, B.get(), ldb, e.beta, C1.get(), ldc, ws.get(),
                ws.bytes(), leaf);
  CK(cudaStreamSynchronize(c.s));
  CK(cudaGetLastError());
  return harness::count_exact(C0.to_host(), C1.to_host(), before, ldc, col ? e.M : e.N);
}

// Every variant × case × leaf mode; returns the number of failing ones, each printed and in the JSON.
int exact_checks(Ctx& c, std::FILE* json) {
  int failures = 0, count = 0;
  std::fprintf(json, "  \"exact_checks\": [\n");
  for (int v = 0; v < kVariantCount; ++v)
    for (const ExactCase& e : kExactCases)
      for (int leaf = 0; leaf < kLeafModes; ++leaf) {
        int st = 0;
        const harness::ExactCount n = exact_case(c, kVariants[v], e, leaf, count, st);
        const bool ok = st == 0 && n.ok();
        failures += !ok;
        const char* lay = e.layout == 0 ? "col" : "row";
        std::printf("exact %-28s %5lldx%-5lldx%-5lld %s alpha=%g beta=%g leaf=%s: %s (status %d, %lld differ, %lld/%lld nonzero)\n",
                    kVariants[v].name, e.M, e.N, e.K, lay, (double)e.alpha, (double)e.beta, leaf_name(leaf),
                    ok ? "ok" : "FAIL", st, n.differ, n.nonzero, n.inside);
        std::fprintf(json,
                     "%s    {\"variant\": \"%s\", \"M\": %lld, \"N\": %lld, \"K\": %lld, \"layout\": \"%s\", "
                     "\"alpha\": %g, \"beta\": %g, \"leaf\": \"%s\", \"ok\": %s, \"differ\": %lld}",
                     count ? ",\n" : "", kVariants[v].name, e.M, e.N, e.K, lay, (double)e.alpha, (double)e.beta,
                     leaf_name(leaf), ok ? "true" : "false", n.differ);
        ++count;
      }
  std::fprintf(json, "\n  ],\n");
  return failures;
}

// ---- timing on random inputs ----
struct Row {
  std::string variant;
  int leaf;
  i64 M, N, K;
  double cublas_ms, ours_ms, err_ours, err_cublas;
  size_t workspace;
  int status;
};

// Input sets of one shape (rotated beyond 3× L2), C poisoned: every method must write every element.
struct InputSets {
  std::vector<DeviceBuffer<Real>> A, B, C;
  InputSets(i64 M, i64 N, i64 K, unsigned long long seed, size_t l2) {
    const int sets = harness::rotation_sets((size_t)(M * K + K * N + M * N) * sizeof(Real), l2, 2);
    for (int s = 0; s < sets; ++s) {
      A.emplace_back(M * K), B.emplace_back(K * N), C.emplace_back(M * N);
      harness::fill(A[s], seed + 3 * s, Fill::Uniform);
      harness::fill(B[s], seed + 3 * s + 1, Fill::Uniform);
      harness::poison(C[s]);
    }
  }
  int count() const { return (int)A.size(); }
};

// A method of a timed shape: cuBLAS (v < 0) or a variant with a leaf mode.
struct Method {
  int v, leaf;
  int status = 0;
  double err = NAN;
  std::vector<float> ms;
};

// Column-major M × N × K on input set s: cuBLAS or the method's variant (its status kept).
void call(Ctx& c, Method& m, InputSets& in, int s, i64 M, i64 N, i64 K, void* ws, size_t ws_bytes) {
  Real* A = in.A[s].get();
  Real* B = in.B[s].get();
  Real* C = in.C[s].get();
  if (m.v < 0) return cublas_gemm(c, 0, M, N, K, 1, A, M, B, K, 0, C, M);
  const int st = ours(c, kVariants[m.v], 0, M, N, K, 1, A, M, B, K, 0, C, M, ws, ws_bytes, m.leaf);
  if (st) m.status = st;
}

// Errors on set 0 against the sampled double-double reference, C poisoned before each method.
void sampled_errors(Ctx& c, std::vector<Method>& methods, InputSets& in, const Options& o, i64 M, i64 N, i64 K,
                    void* ws, size_t ws_bytes) {
  harness::SampledReference ref(in.A[0].get(), M, false, in.B[0].get(), K, false, M, N, K, o.seed, c.s);
  for (Method& m : methods) {
    harness::poison(in.C[0], c.s);
    call(c, m, in, 0, M, N, K, ws, ws_bytes);
    m.err = ref.error(in.C[0].get(), M, c.s);
  }
}

// Interleaved repetitions after the warm-up, the input set rotated at every call.
void time_methods(Ctx& c, std::vector<Method>& methods, InputSets& in, const Options& o, i64 M, i64 N, i64 K,
                  void* ws, size_t ws_bytes) {
  harness::EventTimer timer;
  int turn = 0;
  for (int rep = -o.warmup; rep < o.reps; ++rep)
    for (Method& m : methods) {
      const int s = turn++ % in.count();
      const float t = timer.time(c.s, [&] { call(c, m, in, s, M, N, K, ws, ws_bytes); });
      if (rep >= 0) m.ms.push_back(t);
    }
}

// Times cuBLAS and every variant (all leaf modes unless one is asked for) on one shape.
void time_shape(Ctx& c, const Options& o, i64 M, i64 N, i64 K, size_t l2, std::vector<Row>& rows) {
  const std::vector<int> leaves = o.leaf < 0 ? std::vector<int>{0, 1, 2} : std::vector<int>{o.leaf};
  std::vector<Method> methods{{-1, 0}};
  size_t ws_bytes = 0;
  for (int v = 0; v < kVariantCount; ++v)
    for (int leaf : leaves) {
      methods.push_back({v, leaf});
      ws_bytes = std::max(ws_bytes, kVariants[v].workspace(M, N, K, leaf));
    }
  InputSets in(M, N, K, o.seed, l2);
  DeviceBuffer<char> ws((i64)ws_bytes);
  sampled_errors(c, methods, in, o, M, N, K, ws.get(), ws_bytes);
  time_methods(c, methods, in, o, M, N, K, ws.get(), ws_bytes);
  const double base = harness::median(methods[0].ms);
  for (size_t m = 1; m < methods.size(); ++m) {
    const BenchVariant& v = kVariants[methods[m].v];
    rows.push_back({v.name, methods[m].leaf, M, N, K, base, harness::median(methods[m].ms), methods[m].err,
                    methods[0].err, v.workspace(M, N, K, methods[m].leaf), methods[m].status});
  }
}

// ---- report ----
bool correct(const Row& r, bool exact_ok) {
  return exact_ok && r.status == 0 && std::isfinite(r.err_ours) && r.err_ours <= 10 * std::max(r.err_cublas, 1e-300);
}

void print_header() {
  std::printf("\n%-22s %-8s %-19s %9s %9s %8s %9s %9s %9s\n", "variant", "leaf", "MxNxK", "cuBLAS TF", "ours TF",
              "speedup", "err", "err ratio", "ws GiB");
}
void print_row(const Row& r, bool exact_ok) {
  std::printf("%-22s %-8s %5lldx%5lldx%-5lld %9.2f %9.2f %8.3f %9.2e %9.2f %9.2f%s\n", r.variant.c_str(),
              leaf_name(r.leaf), r.M, r.N, r.K, harness::tflops(r.M, r.N, r.K, r.cublas_ms),
              harness::tflops(r.M, r.N, r.K, r.ours_ms), r.cublas_ms / r.ours_ms, r.err_ours, r.err_ours / r.err_cublas,
              r.workspace / 1073741824.0, correct(r, exact_ok) ? "" : "  INCORRECT");
}

// The document's head: provenance, device, dtype, baseline and variants.
void json_head(std::FILE* json, const harness::RunProvenance& run, const cudaDeviceProp& prop, const Options& o) {
  std::fprintf(json, "{\n  \"format\": \"tdisc-bench\", ");
  harness::json_provenance(json, run);
  std::fprintf(json, ",\n  \"device\": \"%s\", \"sms\": %d, \"l2_bytes\": %d, \"dtype\": \"%s\", \"reps\": %d, \"seed\": %llu,\n",
               prop.name, prop.multiProcessorCount, prop.l2CacheSize, kDtype, o.reps, o.seed);
  std::fprintf(json, "  \"baseline\": \"cuBLAS %s, CUBLAS_DEFAULT_MATH (no TF32)\",\n", kXgemmName);
  std::fprintf(json, "  \"variants\": [");
  for (int v = 0; v < kVariantCount; ++v)
    std::fprintf(json, "%s{\"name\": \"%s\", \"summary\": \"%s\", \"stability\": %g}", v ? ", " : "", kVariants[v].name,
                 kVariants[v].summary, kVariants[v].stability);
  std::fprintf(json, "],\n");
}

void json_rows(std::FILE* json, const std::vector<Row>& rows, bool exact_ok) {
  std::fprintf(json, "  \"rows\": [\n");
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    std::fprintf(json,
                 "%s    {\"variant\": \"%s\", \"leaf\": \"%s\", \"M\": %lld, \"N\": %lld, \"K\": %lld, \"cublas_ms\": %.4f, "
                 "\"ours_ms\": %.4f, \"cublas_tflops\": %.3f, \"ours_tflops\": %.3f, \"speedup\": %.4f, "
                 "\"err_ours\": %.3e, \"err_cublas\": %.3e, \"err_ratio\": %.3f, \"workspace_bytes\": %zu, \"status\": %d, "
                 "\"correct\": %s}",
                 i ? ",\n" : "", r.variant.c_str(), leaf_name(r.leaf), r.M, r.N, r.K, r.cublas_ms, r.ours_ms,
                 harness::tflops(r.M, r.N, r.K, r.cublas_ms), harness::tflops(r.M, r.N, r.K, r.ours_ms),
                 r.cublas_ms / r.ours_ms, r.err_ours, r.err_cublas, r.err_ours / r.err_cublas, r.workspace, r.status,
                 correct(r, exact_ok) ? "true" : "false");
  }
  std::fprintf(json, "\n  ],\n");
}

// fast_p: share of shapes that are correct and faster than cuBLAS by more than p (KernelBench), and the
// smallest square size where a variant wins, per variant and leaf mode.
void fast_p(std::FILE* json, const std::vector<Row>& rows, bool exact_ok) {
  std::fprintf(json, "  \"fast_p\": [");
  std::printf("\n");
  bool first = true;
  for (int v = 0; v < kVariantCount; ++v)
    for (int leaf = 0; leaf < kLeafModes; ++leaf) {
      const double ps[] = {1.0, 1.1, 1.2};
      int n = 0, fast[3] = {0, 0, 0};
      i64 crossover = -1;
      for (const Row& r : rows) {
        if (r.variant != kVariants[v].name || r.leaf != leaf) continue;
        ++n;
        const double sp = r.cublas_ms / r.ours_ms;
        for (int q = 0; q < 3; ++q) fast[q] += correct(r, exact_ok) && sp > ps[q];
        if (r.M == r.N && r.N == r.K && sp > 1 && (crossover < 0 || r.M < crossover)) crossover = r.M;
      }
      if (!n) continue;
      std::printf("fast_p %-30s %-8s over %d shapes: fast_1.0 %.2f  fast_1.1 %.2f  fast_1.2 %.2f; crossover n = %lld\n",
                  kVariants[v].name, leaf_name(leaf), n, fast[0] / (double)n, fast[1] / (double)n,
                  fast[2] / (double)n, crossover);
      std::fprintf(json,
                   "%s\n    {\"variant\": \"%s\", \"leaf\": \"%s\", \"shapes\": %d, \"fast_1.0\": %.3f, \"fast_1.1\": %.3f, "
                   "\"fast_1.2\": %.3f, \"crossover_n\": %lld}",
                   first ? "" : ",", kVariants[v].name, leaf_name(leaf), n, fast[0] / (double)n,
                   fast[1] / (double)n, fast[2] / (double)n, crossover);
      first = false;
    }
  std::fprintf(json, "\n  ],\n");
}

// The baseline as a user gets it without TF32: default math (no tensor-op down-conversion).
Ctx make_context() {
  Ctx c;
  CB(cublasCreate(&c.h));
  CK(cudaStreamCreate(&c.s));
  CB(cublasSetStream(c.h, c.s));
  CB(cublasSetMathMode(c.h, CUBLAS_DEFAULT_MATH));
  return c;
}

void print_device(const cudaDeviceProp& prop, const Options& o) {
  std::printf("device: %s, %d SMs, L2 %d MB, cc %d.%d; dtype %s; TF32 off (CUBLAS_DEFAULT_MATH); seed %llu\n",
              prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20, prop.major, prop.minor, kDtype, o.seed);
  for (int v = 0; v < kVariantCount; ++v)
    std::printf("variant %d: %s — %s; stability factor %.4g\n", v, kVariants[v].name, kVariants[v].summary,
                kVariants[v].stability);
}

// Every square size and extra shape, printed as it comes.
std::vector<Row> time_all(Ctx& c, const Options& o, size_t l2) {
  std::vector<std::vector<i64>> shapes;
  for (i64 n : o.sizes) shapes.push_back({n, n, n});
  for (const auto& s : o.shapes) shapes.push_back(s);
  std::vector<Row> rows;
  print_header();
  for (const auto& s : shapes) {
    const size_t before = rows.size();
    time_shape(c, o, s[0], s[1], s[2], l2, rows);
    for (size_t i = before; i < rows.size(); ++i) print_row(rows[i], true);
    std::fflush(stdout);
  }
  return rows;
}

}  // namespace

// Exact checks, then (only when all pass: a wrong kernel's speed means nothing) the timed shapes.
int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  if (!harness::gpu_present()) {
    std::fprintf(stderr, "tdisc: bench: no CUDA device\n");
    return 77;
  }
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  Ctx c = make_context();
  print_device(prop, o);
  std::FILE* json = std::fopen(o.json.empty() ? "/dev/null" : o.json.c_str(), "w");
  if (!json) die("cannot write " + o.json);
  json_head(json, harness::run_provenance(argc, argv), prop, o);
  const int failures = exact_checks(c, json);
  std::printf("exact checks: %s (%d failing)\n", failures ? "FAILED" : "all equal to cuBLAS bit for bit", failures);
  std::vector<Row> rows;
  if (!o.check_only && failures == 0) rows = time_all(c, o, (size_t)prop.l2CacheSize);
  json_rows(json, rows, failures == 0);
  fast_p(json, rows, failures == 0);
  std::fprintf(json, "  \"exact_ok\": %s\n}\n", failures ? "false" : "true");
  std::fclose(json);
  CB(cublasDestroy(c.h));
  CK(cudaStreamDestroy(c.s));
  return failures ? 2 : 0;
}
