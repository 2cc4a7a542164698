// tdisc bench harness (hand-written: codegen/runtime/bench_main.cu; `tdisc bench` writes it next to
// the generated variants and compiles it with nvcc). Method of DESIGN §6 and CUTLASS's profiler guide:
// exact check against cuBLAS on small integers first (poisoned outputs, padded leading dimensions),
// then relative Frobenius error on random inputs against a double-double reference of sampled rows,
// then timing: warm-up, CUDA events, median of the repetitions, input sets rotated beyond 2x L2,
// nothing allocated in the timed loop, methods interleaved so that clock drift hits all alike.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

typedef long long i64;

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

void die(const char* what, const char* file, int line) {
  std::fprintf(stderr, "bench: %s:%d: %s\n", file, line, what);
  std::exit(1);
}
#define CK(x)                                                                      \
  do {                                                                             \
    cudaError_t e_ = (x);                                                          \
    if (e_ != cudaSuccess) die(cudaGetErrorString(e_), __FILE__, __LINE__);        \
  } while (0)
#define CB(x)                                                                      \
  do {                                                                             \
    cublasStatus_t s_ = (x);                                                       \
    if (s_ != CUBLAS_STATUS_SUCCESS) die(cublasGetStatusString(s_), __FILE__, __LINE__); \
  } while (0)
#define CKL() CK(cudaGetLastError())

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
      if (i + 1 >= argc) die(("missing value after " + a).c_str(), __FILE__, __LINE__);
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
    } else die(("unknown option " + a).c_str(), __FILE__, __LINE__);
  }
  if (o.reps < 20) die("--reps must be at least 20 (DESIGN §6)", __FILE__, __LINE__);
  return o;
}

// ---- device fills: counter-based random numbers, so no state and any seed reproduces ----
__device__ __forceinline__ unsigned long long splitmix(unsigned long long x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
// mode 0: uniform in [-1, 1); mode 1: integers in [-2, 2]; mode 2: the constant value.
__global__ void fill(Real* p, i64 count, unsigned long long seed, int mode, Real value) {
  for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < count; i += (i64)gridDim.x * blockDim.x) {
    const unsigned long long r = splitmix(seed * 0x100000001B3ull + (unsigned long long)i);
    if (mode == 0) p[i] = Real((double)(r >> 11) * (2.0 / 9007199254740992.0) - 1.0);
    else if (mode == 1) p[i] = Real((int)(r % 5) - 2);
    else p[i] = value;
  }
}
void fill_dev(Real* p, i64 count, unsigned long long seed, int mode, Real value = 0) {
  fill<<<1024, 256>>>(p, count, seed, mode, value);
  CKL();
}

// ---- double-double reference of sampled rows (column-major, rows idx[s]) ----
__device__ __forceinline__ void dd_fma(double& hi, double& lo, double a, double b) {
  const double p = a * b, e = fma(a, b, -p);
  const double s = hi + p, bb = s - hi, err = (hi - (s - bb)) + (p - bb);
  lo += err + e;
  hi = s + lo;
  lo = lo - (hi - s);
}
constexpr int kSample = 16;
__global__ void reference_rows(const Real* A, i64 lda, const Real* B, i64 ldb, i64 N, i64 K, const i64* rows,
                               double* out /* kSample × N */) {
  const i64 j = blockIdx.x * (i64)blockDim.x + threadIdx.x;
  if (j >= N) return;
  double hi[kSample], lo[kSample];
#pragma unroll
  for (int s = 0; s < kSample; ++s) hi[s] = lo[s] = 0;
  for (i64 k = 0; k < K; ++k) {
    const double b = (double)B[k + j * ldb];
#pragma unroll
    for (int s = 0; s < kSample; ++s) dd_fma(hi[s], lo[s], (double)A[rows[s] + k * lda], b);
  }
#pragma unroll
  for (int s = 0; s < kSample; ++s) out[s * N + j] = hi[s] + lo[s];
}
__global__ void gather_rows(const Real* C, i64 ldc, i64 N, const i64* rows, double* out) {
  const i64 j = blockIdx.x * (i64)blockDim.x + threadIdx.x;
  if (j >= N) return;
  for (int s = 0; s < kSample; ++s) out[s * N + j] = (double)C[rows[s] + j * ldc];
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

// Returns the number of failing cases; prints each.
int exact_checks(Ctx& c, std::FILE* json) {
  const ExactCase cases[] = {{512, 512, 512, 0, 1, 0},   {515, 509, 600, 0, 2, -1}, {257, 1000, 123, 0, 1, 0},
                             {512, 384, 640, 1, 1, 0},   {515, 509, 600, 1, -1, 2}, {1031, 17, 260, 1, 1, 0},
                             {3, 5, 7, 0, 1, 1},         {1024, 1024, 1024, 0, 1, 1}};
  int failures = 0, count = 0;
  std::fprintf(json, "  \"exact_checks\": [\n");
  for (int v = 0; v < kVariantCount; ++v)
    for (const ExactCase& e : cases)
      for (int leaf = 0; leaf < kLeafModes; ++leaf) {
        const bool col = e.layout == 0;
        const i64 lda = (col ? e.M : e.K) + 5, ldb = (col ? e.K : e.N) + 3, ldc = (col ? e.M : e.N) + 7;
        const i64 na = lda * (col ? e.K : e.M), nb = ldb * (col ? e.N : e.K), nc = ldc * (col ? e.N : e.M);
        Real *A, *B, *C0, *C1, *C2;
        CK(cudaMalloc(&A, na * sizeof(Real)));
        CK(cudaMalloc(&B, nb * sizeof(Real)));
        CK(cudaMalloc(&C0, nc * sizeof(Real)));
        CK(cudaMalloc(&C1, nc * sizeof(Real)));
        CK(cudaMalloc(&C2, nc * sizeof(Real)));
        fill_dev(A, na, 11 + count, 1);
        fill_dev(B, nb, 23 + count, 1);
        // beta = 0: C starts as NaN (must not be read); otherwise small integers. Padding included.
        if (e.beta == 0) fill_dev(C0, nc, 0, 2, Real(NAN));
        else fill_dev(C0, nc, 37 + count, 1);
        CK(cudaMemcpy(C1, C0, nc * sizeof(Real), cudaMemcpyDeviceToDevice));
        CK(cudaMemcpy(C2, C0, nc * sizeof(Real), cudaMemcpyDeviceToDevice));
        const size_t bytes = kVariants[v].workspace(e.M, e.N, e.K, leaf);
        void* ws = nullptr;
        if (bytes) CK(cudaMalloc(&ws, bytes));
        cublas_gemm(c, e.layout, e.M, e.N, e.K, e.alpha, A, lda, B, ldb, e.beta, C0, ldc);
        const int st = ours(c, kVariants[v], e.layout, e.M, e.N, e.K, e.alpha, A, lda, B, ldb, e.beta, C1, ldc, ws,
                            bytes, leaf);
        CK(cudaStreamSynchronize(c.s));
        CKL();
        std::vector<Real> h0(nc), h1(nc), h2(nc);
        CK(cudaMemcpy(h0.data(), C0, nc * sizeof(Real), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(h1.data(), C1, nc * sizeof(Real), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(h2.data(), C2, nc * sizeof(Real), cudaMemcpyDeviceToHost));
        i64 differ = 0, nonzero = 0, inside = 0;
        for (i64 q = 0; q < nc; ++q) {
          const i64 minor = q % ldc, major = q / ldc;
          const bool in = col ? (minor < e.M && major < e.N) : (minor < e.N && major < e.M);
          inside += in;
          if (in) nonzero += h0[q] != 0;
          // Inside: equal to cuBLAS bit for bit. Padding: untouched (NaN stays NaN, values stay).
          const bool same = in ? h0[q] == h1[q] : (std::isnan(h2[q]) ? std::isnan(h1[q]) : h1[q] == h2[q]);
          differ += !same;
        }
        const bool ok = st == 0 && differ == 0 && nonzero > inside / 2;
        failures += !ok;
        std::printf("exact %-28s %5lldx%-5lldx%-5lld %s alpha=%g beta=%g leaf=%s: %s (status %d, %lld differ, %lld/%lld nonzero)\n",
                    kVariants[v].name, e.M, e.N, e.K, col ? "col" : "row", (double)e.alpha, (double)e.beta,
                    leaf_name(leaf), ok ? "ok" : "FAIL", st, differ, nonzero, inside);
        std::fprintf(json,
                     "%s    {\"variant\": \"%s\", \"M\": %lld, \"N\": %lld, \"K\": %lld, \"layout\": \"%s\", "
                     "\"alpha\": %g, \"beta\": %g, \"leaf\": \"%s\", \"ok\": %s, \"differ\": %lld}",
                     count ? ",\n" : "", kVariants[v].name, e.M, e.N, e.K, col ? "col" : "row", (double)e.alpha,
                     (double)e.beta, leaf_name(leaf), ok ? "true" : "false", differ);
        ++count;
        CK(cudaFree(A));
        CK(cudaFree(B));
        CK(cudaFree(C0));
        CK(cudaFree(C1));
        CK(cudaFree(C2));
        if (ws) CK(cudaFree(ws));
      }
  std::fprintf(json, "\n  ],\n");
  return failures;
}

double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Row {
  std::string variant;
  int leaf;
  i64 M, N, K;
  double cublas_ms, ours_ms, err_ours, err_cublas;
  size_t workspace;
  int status;
};

double rel_frobenius(const std::vector<double>& x, const std::vector<double>& ref) {
  double num = 0, den = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double d = x[i] - ref[i];
    num += d * d;
    den += ref[i] * ref[i];
  }
  return std::sqrt(num / den);
}

// Times cuBLAS and every variant (both leaf modes unless one is asked for) on one shape.
void time_shape(Ctx& c, const Options& o, i64 M, i64 N, i64 K, size_t l2, std::vector<Row>& rows) {
  const i64 na = M * K, nb = K * N, nc = M * N;
  const size_t set_bytes = (size_t)(na + nb + nc) * sizeof(Real);
  const int sets = (int)std::max<size_t>(2, (3 * l2 + set_bytes - 1) / set_bytes);
  std::vector<int> leaves = o.leaf < 0 ? std::vector<int>{0, 1, 2} : std::vector<int>{o.leaf};
  size_t ws_bytes = 0;
  for (int v = 0; v < kVariantCount; ++v)
    for (int leaf : leaves) ws_bytes = std::max(ws_bytes, kVariants[v].workspace(M, N, K, leaf));
  std::vector<Real*> A(sets), B(sets), C(sets);
  for (int s = 0; s < sets; ++s) {
    CK(cudaMalloc(&A[s], na * sizeof(Real)));
    CK(cudaMalloc(&B[s], nb * sizeof(Real)));
    CK(cudaMalloc(&C[s], nc * sizeof(Real)));
    fill_dev(A[s], na, o.seed + 3 * s, 0);
    fill_dev(B[s], nb, o.seed + 3 * s + 1, 0);
    fill_dev(C[s], nc, 0, 2, Real(NAN));  // poison: every method must write every element
  }
  void* ws = nullptr;
  if (ws_bytes) CK(cudaMalloc(&ws, ws_bytes));

  // Errors on random inputs: sampled rows against a double-double reference.
  i64 hrows[kSample];
  for (int s = 0; s < kSample; ++s) hrows[s] = (i64)((s * 2654435761ull + o.seed) % (unsigned long long)M);
  i64* drows;
  double *dref, *dgot;
  CK(cudaMalloc(&drows, sizeof(hrows)));
  CK(cudaMalloc(&dref, kSample * N * sizeof(double)));
  CK(cudaMalloc(&dgot, kSample * N * sizeof(double)));
  CK(cudaMemcpy(drows, hrows, sizeof(hrows), cudaMemcpyHostToDevice));
  const int tb = 128;
  const i64 blocks = (N + tb - 1) / tb;
  reference_rows<<<(unsigned)blocks, tb, 0, c.s>>>(A[0], M, B[0], K, N, K, drows, dref);
  CKL();
  std::vector<double> ref(kSample * N), got(kSample * N);
  CK(cudaMemcpy(ref.data(), dref, ref.size() * sizeof(double), cudaMemcpyDeviceToHost));
  auto sampled_error = [&](Real* Cm) {
    gather_rows<<<(unsigned)blocks, tb, 0, c.s>>>(Cm, M, N, drows, dgot);
    CKL();
    CK(cudaMemcpy(got.data(), dgot, got.size() * sizeof(double), cudaMemcpyDeviceToHost));
    for (double g : got)
      if (std::isnan(g)) return (double)NAN;  // an element left unwritten
    return rel_frobenius(got, ref);
  };
  cublas_gemm(c, 0, M, N, K, 1, A[0], M, B[0], K, 0, C[0], M);
  const double err_cublas = sampled_error(C[0]);
  std::vector<double> err(kVariantCount);
  std::vector<int> status(kVariantCount * kLeafModes, 0);
  for (int v = 0; v < kVariantCount; ++v) {
    fill_dev(C[1], nc, 0, 2, Real(NAN));
    status[v * kLeafModes + leaves[0]] = ours(c, kVariants[v], 0, M, N, K, 1, A[0], M, B[0], K, 0, C[1], M, ws, ws_bytes, leaves[0]);
    err[v] = sampled_error(C[1]);
  }
  CK(cudaFree(drows));
  CK(cudaFree(dref));
  CK(cudaFree(dgot));

  // Methods: 0 = cuBLAS, then (variant, leaf) pairs. Interleaved repetitions, set rotated each time.
  struct Method {
    int v, leaf;
  };
  std::vector<Method> methods{{-1, 0}};
  for (int v = 0; v < kVariantCount; ++v)
    for (int leaf : leaves) methods.push_back({v, leaf});
  std::vector<std::vector<float>> ms(methods.size());
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  int turn = 0;
  for (int rep = -o.warmup; rep < o.reps; ++rep)
    for (size_t m = 0; m < methods.size(); ++m, ++turn) {
      const int s = turn % sets;
      CK(cudaEventRecord(e0, c.s));
      if (methods[m].v < 0) cublas_gemm(c, 0, M, N, K, 1, A[s], M, B[s], K, 0, C[s], M);
      else {
        const int st = ours(c, kVariants[methods[m].v], 0, M, N, K, 1, A[s], M, B[s], K, 0, C[s], M, ws, ws_bytes,
                            methods[m].leaf);
        if (st) status[methods[m].v * kLeafModes + methods[m].leaf] = st;
      }
      CK(cudaEventRecord(e1, c.s));
      CK(cudaEventSynchronize(e1));
      CKL();
      float t = 0;
      CK(cudaEventElapsedTime(&t, e0, e1));
      if (rep >= 0) ms[m].push_back(t);
    }
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  const double base = median(ms[0]);
  for (size_t m = 1; m < methods.size(); ++m) {
    const BenchVariant& v = kVariants[methods[m].v];
    rows.push_back({v.name, methods[m].leaf, M, N, K, base, median(ms[m]), err[methods[m].v], err_cublas,
                    v.workspace(M, N, K, methods[m].leaf), status[methods[m].v * kLeafModes + methods[m].leaf]});
  }
  for (int s = 0; s < sets; ++s) {
    CK(cudaFree(A[s]));
    CK(cudaFree(B[s]));
    CK(cudaFree(C[s]));
  }
  if (ws) CK(cudaFree(ws));
}

double tflops(i64 M, i64 N, i64 K, double ms) { return 2.0 * M * N * K / (ms * 1e-3) / 1e12; }
bool correct(const Row& r, bool exact_ok) {
  return exact_ok && r.status == 0 && std::isfinite(r.err_ours) && r.err_ours <= 10 * std::max(r.err_cublas, 1e-300);
}

void print_header() {
  std::printf("\n%-22s %-8s %-19s %9s %9s %8s %9s %9s %9s\n", "variant", "leaf", "MxNxK", "cuBLAS TF", "ours TF",
              "speedup", "err", "err ratio", "ws GiB");
}
void print_row(const Row& r, bool exact_ok) {
  std::printf("%-22s %-8s %5lldx%5lldx%-5lld %9.2f %9.2f %8.3f %9.2e %9.2f %9.2f%s\n", r.variant.c_str(),
              leaf_name(r.leaf), r.M, r.N, r.K, tflops(r.M, r.N, r.K, r.cublas_ms),
              tflops(r.M, r.N, r.K, r.ours_ms), r.cublas_ms / r.ours_ms, r.err_ours, r.err_ours / r.err_cublas,
              r.workspace / 1073741824.0, correct(r, exact_ok) ? "" : "  INCORRECT");
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::fprintf(stderr, "bench: no CUDA device\n");
    return 77;
  }
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  Ctx c;
  CB(cublasCreate(&c.h));
  CK(cudaStreamCreate(&c.s));
  CB(cublasSetStream(c.h, c.s));
  // The baseline as a user gets it without TF32: default math (no tensor-op down-conversion).
  CB(cublasSetMathMode(c.h, CUBLAS_DEFAULT_MATH));
  std::printf("device: %s, %d SMs, L2 %d MB, cc %d.%d; dtype %s; TF32 off (CUBLAS_DEFAULT_MATH); seed %llu\n",
              prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20, prop.major, prop.minor, kDtype, o.seed);
  for (int v = 0; v < kVariantCount; ++v)
    std::printf("variant %d: %s — %s; stability factor %.4g\n", v, kVariants[v].name, kVariants[v].summary,
                kVariants[v].stability);
  std::FILE* json = std::fopen(o.json.empty() ? "/dev/null" : o.json.c_str(), "w");
  if (!json) die("cannot write the JSON file", __FILE__, __LINE__);
  std::fprintf(json, "{\n  \"device\": \"%s\", \"sms\": %d, \"l2_bytes\": %d, \"dtype\": \"%s\", \"reps\": %d, \"seed\": %llu,\n",
               prop.name, prop.multiProcessorCount, prop.l2CacheSize, kDtype, o.reps, o.seed);
  std::fprintf(json, "  \"baseline\": \"cuBLAS %s, CUBLAS_DEFAULT_MATH (no TF32)\",\n", kXgemmName);
  std::fprintf(json, "  \"variants\": [");
  for (int v = 0; v < kVariantCount; ++v)
    std::fprintf(json, "%s{\"name\": \"%s\", \"summary\": \"%s\", \"stability\": %g}", v ? ", " : "", kVariants[v].name,
                 kVariants[v].summary, kVariants[v].stability);
  std::fprintf(json, "],\n");
  const int failures = exact_checks(c, json);
  std::printf("exact checks: %s (%d failing)\n", failures ? "FAILED" : "all equal to cuBLAS bit for bit", failures);
  std::vector<Row> rows;
  // Nothing is timed unless every exact check passed: a wrong kernel's speed means nothing.
  if (!o.check_only && failures == 0) {
    std::vector<std::vector<i64>> shapes;
    for (i64 n : o.sizes) shapes.push_back({n, n, n});
    for (const auto& s : o.shapes) shapes.push_back(s);
    print_header();
    for (const auto& s : shapes) {
      const size_t before = rows.size();
      time_shape(c, o, s[0], s[1], s[2], (size_t)prop.l2CacheSize, rows);
      for (size_t i = before; i < rows.size(); ++i) print_row(rows[i], failures == 0);
      std::fflush(stdout);
    }
  }
  std::fprintf(json, "  \"rows\": [\n");
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    std::fprintf(json,
                 "%s    {\"variant\": \"%s\", \"leaf\": \"%s\", \"M\": %lld, \"N\": %lld, \"K\": %lld, \"cublas_ms\": %.4f, "
                 "\"ours_ms\": %.4f, \"cublas_tflops\": %.3f, \"ours_tflops\": %.3f, \"speedup\": %.4f, "
                 "\"err_ours\": %.3e, \"err_cublas\": %.3e, \"err_ratio\": %.3f, \"workspace_bytes\": %zu, \"status\": %d, "
                 "\"correct\": %s}",
                 i ? ",\n" : "", r.variant.c_str(), leaf_name(r.leaf), r.M, r.N, r.K, r.cublas_ms, r.ours_ms,
                 tflops(r.M, r.N, r.K, r.cublas_ms), tflops(r.M, r.N, r.K, r.ours_ms), r.cublas_ms / r.ours_ms, r.err_ours,
                 r.err_cublas, r.err_ours / r.err_cublas, r.workspace, r.status, correct(r, failures == 0) ? "true" : "false");
  }
  std::fprintf(json, "\n  ],\n  \"fast_p\": [");
  // fast_p: share of shapes that are correct and faster than cuBLAS by more than p (KernelBench).
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
        for (int q = 0; q < 3; ++q) fast[q] += correct(r, failures == 0) && sp > ps[q];
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
  std::fprintf(json, "\n  ],\n  \"exact_ok\": %s\n}\n", failures ? "false" : "true");
  std::fclose(json);
  CB(cublasDestroy(c.h));
  CK(cudaStreamDestroy(c.s));
  return failures ? 2 : 0;
}
