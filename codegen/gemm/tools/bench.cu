// tdisc_gemm_bench: libtdisc_gemm as a user calls it (tdisc_gemm_[sd]gemm, internal workspace, the
// plan table's choice) against cuBLAS in the same process (DESIGN §6): random inputs in [-1, 1),
// relative Frobenius error of both on 16 sampled rows against a double-double reference, then CUDA
// event timing, warm-up, median of --reps, methods interleaved round by round, inputs rotated beyond
// 3× L2, nothing allocated in the timed loop (the library's pool keeps its blocks). Optional: the lean
// schedule under a caller buffer of one operand's bytes (--lean), forced plans (--variants), and
// --rotate (round r starts at method r mod count: no method always runs right after cuBLAS).
// Shapes: [tn:]MxNxK,… where t/n give op(A), op(B). Writes --json.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "common.cuh"

namespace {

struct Shape {
  long long m, n, k;
  cublasOperation_t ta = CUBLAS_OP_N, tb = CUBLAS_OP_N;
  std::string label;
};

struct Options {
  bool f64 = false, lean = false;
  bool rotate = false;  // round r starts at method r mod count, so no method always follows cuBLAS
  std::vector<Shape> shapes;
  std::vector<tdisc_gemm_plan_t> variants;
  int reps = 20, warmup = 2;
  unsigned long long seed = 20261123;
  std::string json;
};

Shape parse_shape(std::string s) {
  Shape sh;
  sh.label = s;
  if (s.size() > 3 && s[2] == ':') {
    sh.ta = s[0] == 't' ? CUBLAS_OP_T : CUBLAS_OP_N;
    sh.tb = s[1] == 't' ? CUBLAS_OP_T : CUBLAS_OP_N;
    s = s.substr(3);
  }
  if (std::sscanf(s.c_str(), "%lldx%lldx%lld", &sh.m, &sh.n, &sh.k) != 3) {
    std::fprintf(stderr, "bench: bad shape %s\n", sh.label.c_str());
    std::exit(1);
  }
  return sh;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at <= s.size()) {
    const size_t c = s.find(sep, at);
    out.push_back(s.substr(at, c == std::string::npos ? std::string::npos : c - at));
    if (c == std::string::npos) break;
    at = c + 1;
  }
  return out;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : "";
    if (a == "--dtype") o.f64 = std::string(v) == "f64", ++i;
    else if (a == "--shapes") {
      for (const std::string& s : split(v, ',')) o.shapes.push_back(parse_shape(s));
      ++i;
    } else if (a == "--variants") {  // name:leaf:group,…
      for (const std::string& s : split(v, ',')) {
        std::vector<std::string> f = split(s, ':');
        tdisc_gemm_plan_t p{};
        std::snprintf(p.name, sizeof p.name, "%s", f[0].c_str());
        p.leaf = f.size() > 1 ? std::atoi(f[1].c_str()) : 0;
        p.group = f.size() > 2 ? std::atoi(f[2].c_str()) : 0;
        o.variants.push_back(p);
      }
      ++i;
    } else if (a == "--reps") o.reps = std::atoi(v), ++i;
    else if (a == "--warmup") o.warmup = std::atoi(v), ++i;
    else if (a == "--seed") o.seed = std::strtoull(v, nullptr, 10), ++i;
    else if (a == "--json") o.json = v, ++i;
    else if (a == "--lean") o.lean = true;
    else if (a == "--rotate") o.rotate = true;
    else {
      std::fprintf(stderr, "bench: unknown option %s\n", a.c_str());
      std::exit(1);
    }
  }
  if (o.reps < 20) {
    std::fprintf(stderr, "bench: --reps must be at least 20 (DESIGN §6)\n");
    std::exit(1);
  }
  return o;
}

double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Method {
  std::string name;
  tdisc_gemm_plan_t plan{};
  int kind = 0;        // 0 cuBLAS, 1 the library's choice, 2 lean under a one-operand buffer, 3 forced plan
  std::vector<float> ms;
  double err = NAN;
  int status = 0;
};

template <class T>
void run_shape(tdisc_gemm_handle_t h, const Options& o, const Shape& s, size_t l2, std::FILE* json, bool first,
               std::vector<double>& speedups) {
  cublasHandle_t cb = tdisc_gemm_cublas(h);
  const int ta = s.ta != CUBLAS_OP_N, tb = s.tb != CUBLAS_OP_N;
  const long long lda = ta ? s.k : s.m, ldb = tb ? s.n : s.k, na = s.m * s.k, nb = s.k * s.n, nc = s.m * s.n;
  const size_t set_bytes = (size_t)(na + nb + nc) * sizeof(T);
  const int sets = (int)std::max<size_t>(1, (3 * l2 + set_bytes - 1) / set_bytes);
  std::vector<T*> A(sets), B(sets), C(sets);
  for (int q = 0; q < sets; ++q) {
    CK(cudaMalloc(&A[q], na * sizeof(T)));
    CK(cudaMalloc(&B[q], nb * sizeof(T)));
    CK(cudaMalloc(&C[q], nc * sizeof(T)));
    fill_dev<T>(A[q], na, o.seed + 3 * q, 0);
    fill_dev<T>(B[q], nb, o.seed + 3 * q + 1, 0);
  }
  std::vector<Method> methods(2);
  methods[0].name = "cublas", methods[0].kind = 0;
  methods[1].name = "tdisc", methods[1].kind = 1;
  tdisc_gemm_choose(h, o.f64 ? TDISC_GEMM_F64 : TDISC_GEMM_F32, s.ta, s.tb, s.m, s.n, s.k, &methods[1].plan);
  void* lean_buf = nullptr;
  size_t lean_bytes = 0;
  if (o.lean) {
    lean_bytes = (size_t)std::max(na, std::max(nb, nc)) * sizeof(T);
    CK(cudaMalloc(&lean_buf, lean_bytes));
    Method m;
    m.name = "lean", m.kind = 2;
    tdisc_gemm_set_workspace(h, lean_buf, lean_bytes);
    tdisc_gemm_set_lean(h, 1);
    tdisc_gemm_choose(h, o.f64 ? TDISC_GEMM_F64 : TDISC_GEMM_F32, s.ta, s.tb, s.m, s.n, s.k, &m.plan);
    tdisc_gemm_set_workspace(h, nullptr, 0);
    tdisc_gemm_set_lean(h, 0);
    methods.push_back(m);
  }
  for (const tdisc_gemm_plan_t& p : o.variants) {
    Method m;
    m.name = std::string(p.name) + ":" + std::to_string(p.leaf) + ":" + std::to_string(p.group), m.kind = 3, m.plan = p;
    methods.push_back(m);
  }
  const T one = 1, zero = 0;
  auto call = [&](Method& m, int q) {
    if (m.kind == 0) {
      CB(xgemm(cb, s.ta, s.tb, s.m, s.n, s.k, &one, A[q], lda, B[q], ldb, &zero, C[q], s.m));
      return;
    }
    if (m.kind == 2) tdisc_gemm_set_workspace(h, lean_buf, lean_bytes), tdisc_gemm_set_lean(h, 1);
    const tdisc_gemm_status_t st = ours(h, m.kind == 1 ? nullptr : &m.plan, s.ta, s.tb, s.m, s.n, s.k, &one, A[q],
                                        lda, B[q], ldb, &zero, C[q], s.m);
    if (m.kind == 2) tdisc_gemm_set_workspace(h, nullptr, 0), tdisc_gemm_set_lean(h, 0);
    if (st != TDISC_GEMM_SUCCESS) m.status = (int)st;
  };
  // Errors first, on set 0, C poisoned with NaN (every element must be written).
  const std::vector<long long> hrows = sample_rows(s.m, o.seed);
  long long* drows;
  double *dref, *dgot;
  CK(cudaMalloc(&drows, kSample * sizeof(long long)));
  CK(cudaMalloc(&dref, kSample * s.n * sizeof(double)));
  CK(cudaMalloc(&dgot, kSample * s.n * sizeof(double)));
  CK(cudaMemcpy(drows, hrows.data(), kSample * sizeof(long long), cudaMemcpyHostToDevice));
  const unsigned blocks = (unsigned)((s.n + 127) / 128);
  reference_rows<T><<<blocks, 128>>>(A[0], lda, ta, B[0], ldb, tb, s.n, s.k, drows, dref);
  CK(cudaGetLastError());
  std::vector<double> ref(kSample * s.n), got(kSample * s.n);
  CK(cudaMemcpy(ref.data(), dref, ref.size() * sizeof(double), cudaMemcpyDeviceToHost));
  for (Method& m : methods) {
    fill_dev<T>(C[0], nc, 0, 2, T(NAN));
    call(m, 0);
    gather_rows<T><<<blocks, 128>>>(C[0], s.m, s.n, drows, dgot);
    CK(cudaMemcpy(got.data(), dgot, got.size() * sizeof(double), cudaMemcpyDeviceToHost));
    m.err = sampled_error(got, ref);
  }
  // Timing: interleaved rounds.
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  cudaStream_t stream;
  CB(cublasGetStream(cb, &stream));
  for (int r = 0; r < o.warmup + o.reps; ++r)
    for (size_t q0 = 0; q0 < methods.size(); ++q0) {
      Method& m = methods[o.rotate ? (q0 + r) % methods.size() : q0];
      CK(cudaEventRecord(e0, stream));
      call(m, r % sets);
      CK(cudaEventRecord(e1, stream));
      CK(cudaEventSynchronize(e1));
      float t = 0;
      CK(cudaEventElapsedTime(&t, e0, e1));
      if (r >= o.warmup) m.ms.push_back(t);
    }
  const double base = median(methods[0].ms), tflop = 2.0 * s.m * s.n * s.k * 1e-9;
  const double sp = base / median(methods[1].ms);
  const bool correct = methods[1].status == 0 && methods[1].err <= 10 * methods[0].err;
  speedups.push_back(correct ? sp : 0);
  std::printf("%-24s cuBLAS %7.2f ms %6.1f TFLOP/s | ours %7.2f ms %6.1f TFLOP/s  %.3fx  err %.2e / %.2e (%.2f)  %s leaf %d group %d ws %.2f GiB\n",
              s.label.c_str(), base, tflop / base, median(methods[1].ms), tflop / median(methods[1].ms), sp,
              methods[1].err, methods[0].err, methods[1].err / methods[0].err, methods[1].plan.name,
              methods[1].plan.leaf, methods[1].plan.group, methods[1].plan.workspace_bytes / 1073741824.0);
  auto lo = [](const std::vector<float>& v) { return (double)*std::min_element(v.begin(), v.end()); };
  auto hi = [](const std::vector<float>& v) { return (double)*std::max_element(v.begin(), v.end()); };
  std::printf("    spread (max − min) / median: cuBLAS %.1f %%, ours %.1f %%; speed-up from the fastest runs %.3fx\n",
              100 * (hi(methods[0].ms) - lo(methods[0].ms)) / base,
              100 * (hi(methods[1].ms) - lo(methods[1].ms)) / median(methods[1].ms), lo(methods[0].ms) / lo(methods[1].ms));
  for (size_t q = 2; q < methods.size(); ++q)
    std::printf("    %-20s %7.2f ms %.3fx err ratio %.2f  plan %s leaf %d group %d ws %.3f GiB status %d\n",
                methods[q].name.c_str(), median(methods[q].ms), base / median(methods[q].ms),
                methods[q].err / methods[0].err, methods[q].plan.name, methods[q].plan.leaf, methods[q].plan.group,
                methods[q].plan.workspace_bytes / 1073741824.0, methods[q].status);
  std::fflush(stdout);
  std::fprintf(json, "%s    {\"shape\": \"%s\", \"m\": %lld, \"n\": %lld, \"k\": %lld, \"transa\": \"%s\", \"transb\": \"%s\", "
                     "\"cublas_ms\": %.4f, \"cublas_ms_min\": %.4f, \"cublas_ms_max\": %.4f, \"cublas_tflops\": %.3f, \"methods\": [",
               first ? "" : ",\n", s.label.c_str(), s.m, s.n, s.k, ta ? "T" : "N", tb ? "T" : "N", base, lo(methods[0].ms),
               hi(methods[0].ms), tflop / base);
  for (size_t q = 1; q < methods.size(); ++q) {
    const Method& m = methods[q];
    std::fprintf(json, "%s{\"method\": \"%s\", \"plan\": \"%s\", \"leaf\": %d, \"group\": %d, \"workspace_bytes\": %zu, "
                       "\"ms\": %.4f, \"ms_min\": %.4f, \"ms_max\": %.4f, \"tflops\": %.3f, \"speedup\": %.4f, \"err\": %.3e, \"err_cublas\": %.3e, "
                       "\"err_ratio\": %.3f, \"status\": %d, \"why\": \"%s\"}",
                 q > 1 ? ", " : "", m.name.c_str(), m.plan.name, m.plan.leaf, m.plan.group, m.plan.workspace_bytes,
                 median(m.ms), lo(m.ms), hi(m.ms), tflop / median(m.ms), base / median(m.ms), m.err, methods[0].err,
                 m.err / methods[0].err, m.status, m.plan.why);
  }
  std::fprintf(json, "]}");
  std::fflush(json);
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  for (int q = 0; q < sets; ++q) {
    CK(cudaFree(A[q]));
    CK(cudaFree(B[q]));
    CK(cudaFree(C[q]));
  }
  CK(cudaFree(drows));
  CK(cudaFree(dref));
  CK(cudaFree(dgot));
  if (lean_buf) CK(cudaFree(lean_buf));
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  if (!gpu_present()) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  tdisc_gemm_handle_t h = nullptr;
  if (tdisc_gemm_create(&h, nullptr) != TDISC_GEMM_SUCCESS) return 1;
  char gpu[128];
  int version = 0, dev = 0, l2 = 0;
  tdisc_gemm_device(h, gpu, sizeof gpu, &version);
  CK(cudaGetDevice(&dev));
  CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
  std::printf("device %s, cuBLAS %d, dtype %s, reps %d, warm-up %d, seed %llu\n", gpu, version, o.f64 ? "f64" : "f32",
              o.reps, o.warmup, o.seed);
  std::FILE* json = std::fopen(o.json.empty() ? "/dev/null" : o.json.c_str(), "w");
  const RunProvenance run = run_provenance(argc, argv);
  std::fprintf(json, "{\n  \"device\": \"%s\", \"cublas\": %d, \"dtype\": \"%s\", \"reps\": %d, \"warmup\": %d, \"seed\": %llu,\n"
                     "  \"date\": \"%s\", \"command\": \"%s\", \"loadavg\": \"%s\", \"commit\": \"%s\", \"rotate\": %s,\n  \"rows\": [\n",
               gpu, version, o.f64 ? "f64" : "f32", o.reps, o.warmup, o.seed, run.date.c_str(), run.command.c_str(),
               run.load.c_str(), run.commit.c_str(), o.rotate ? "true" : "false");
  std::vector<double> speedups;
  for (size_t i = 0; i < o.shapes.size(); ++i) {
    if (o.f64) run_shape<double>(h, o, o.shapes[i], (size_t)l2, json, i == 0, speedups);
    else run_shape<float>(h, o, o.shapes[i], (size_t)l2, json, i == 0, speedups);
  }
  int fast = 0;
  double worst = 1e9;
  for (double s : speedups) fast += s > 1.0, worst = std::min(worst, s);
  const double fast1 = speedups.empty() ? 0 : fast / (double)speedups.size();
  std::printf("summary %s: %zu shapes, fast_1.0 %.2f, lowest speedup %.3f\n", o.f64 ? "f64" : "f32", speedups.size(),
              fast1, worst);
  std::fprintf(json, "\n  ],\n  \"shapes\": %zu, \"fast_1.0\": %.3f, \"lowest_speedup\": %.4f\n}\n", speedups.size(), fast1,
               worst);
  std::fclose(json);
  tdisc_gemm_destroy(h);
  return 0;
}
