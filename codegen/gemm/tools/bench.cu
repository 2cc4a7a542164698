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

struct Method {
  std::string name;
  tdisc_gemm_plan_t plan{};
  int kind = 0;        // 0 cuBLAS, 1 the library's choice, 2 lean under a one-operand buffer, 3 forced plan
  std::vector<float> ms;
  double err = NAN;
  int status = 0;
};

// One shape's input sets, enough to rotate beyond 3× L2, uniform in [-1, 1); and the lean schedule's
// caller buffer of one operand's bytes (--lean).
template <class T>
struct Inputs {
  long long lda, ldb;
  std::vector<DeviceBuffer<T>> A, B, C;
  DeviceBuffer<char> lean;
  Inputs(const Options& o, const Shape& s, size_t l2)
      : lda(s.ta != CUBLAS_OP_N ? s.k : s.m), ldb(s.tb != CUBLAS_OP_N ? s.n : s.k) {
    const long long na = s.m * s.k, nb = s.k * s.n, nc = s.m * s.n;
    const int sets = harness::rotation_sets((size_t)(na + nb + nc) * sizeof(T), l2);
    for (int q = 0; q < sets; ++q) {
      A.emplace_back(na), B.emplace_back(nb), C.emplace_back(nc);
      harness::fill(A[q], o.seed + 3 * q, Fill::Uniform);
      harness::fill(B[q], o.seed + 3 * q + 1, Fill::Uniform);
    }
    if (o.lean) lean = DeviceBuffer<char>((long long)(std::max(na, std::max(nb, nc)) * sizeof(T)));
  }
};

// cuBLAS, the library's choice, the lean schedule under the caller buffer (--lean) and forced plans.
template <class T>
std::vector<Method> methods_for(tdisc_gemm_handle_t h, const Options& o, const Shape& s, Inputs<T>& in) {
  const tdisc_gemm_dtype_t dt = o.f64 ? TDISC_GEMM_F64 : TDISC_GEMM_F32;
  std::vector<Method> methods(2);
  methods[0].name = "cublas", methods[0].kind = 0;
  methods[1].name = "tdisc", methods[1].kind = 1;
  tdisc_gemm_choose(h, dt, s.ta, s.tb, s.m, s.n, s.k, &methods[1].plan);
  if (o.lean) {
    Method m;
    m.name = "lean", m.kind = 2;
    tdisc_gemm_set_workspace(h, in.lean.get(), in.lean.bytes());
    tdisc_gemm_set_lean(h, 1);
    tdisc_gemm_choose(h, dt, s.ta, s.tb, s.m, s.n, s.k, &m.plan);
    tdisc_gemm_set_workspace(h, nullptr, 0);
    tdisc_gemm_set_lean(h, 0);
    methods.push_back(m);
  }
  for (const tdisc_gemm_plan_t& p : o.variants) {
    Method m;
    m.name = std::string(p.name) + ":" + std::to_string(p.leaf) + ":" + std::to_string(p.group), m.kind = 3, m.plan = p;
    methods.push_back(m);
  }
  return methods;
}

// One call of method m on input set q (C = A·B); a failing status is kept.
template <class T>
void call(tdisc_gemm_handle_t h, const Shape& s, Inputs<T>& in, Method& m, int q) {
  const T one = 1, zero = 0;
  T* A = in.A[q].get();
  T* B = in.B[q].get();
  T* C = in.C[q].get();
  if (m.kind == 0) {
    CB(xgemm(tdisc_gemm_cublas(h), s.ta, s.tb, s.m, s.n, s.k, &one, A, in.lda, B, in.ldb, &zero, C, s.m));
    return;
  }
  if (m.kind == 2) tdisc_gemm_set_workspace(h, in.lean.get(), in.lean.bytes()), tdisc_gemm_set_lean(h, 1);
  const tdisc_gemm_status_t st =
      ours(h, m.kind == 1 ? nullptr : &m.plan, s.ta, s.tb, s.m, s.n, s.k, &one, A, in.lda, B, in.ldb, &zero, C, s.m);
  if (m.kind == 2) tdisc_gemm_set_workspace(h, nullptr, 0), tdisc_gemm_set_lean(h, 0);
  if (st != TDISC_GEMM_SUCCESS) m.status = (int)st;
}

// Errors first, on set 0, C poisoned with NaN (every element must be written).
template <class T>
void measure_errors(tdisc_gemm_handle_t h, const Options& o, const Shape& s, Inputs<T>& in, std::vector<Method>& methods) {
  harness::SampledReference ref(in.A[0].get(), in.lda, s.ta != CUBLAS_OP_N, in.B[0].get(), in.ldb, s.tb != CUBLAS_OP_N,
                                s.m, s.n, s.k, o.seed);
  for (Method& m : methods) {
    harness::poison(in.C[0]);
    call(h, s, in, m, 0);
    m.err = ref.error(in.C[0].get(), s.m);
  }
}

// Timing: warm-up, then interleaved rounds (rotated with --rotate), the input set changing each round.
template <class T>
void time_rounds(tdisc_gemm_handle_t h, const Options& o, const Shape& s, Inputs<T>& in, std::vector<Method>& methods) {
  harness::EventTimer timer;
  cudaStream_t stream;
  CB(cublasGetStream(tdisc_gemm_cublas(h), &stream));
  for (int r = 0; r < o.warmup + o.reps; ++r)
    for (size_t q0 = 0; q0 < methods.size(); ++q0) {
      Method& m = methods[o.rotate ? (q0 + r) % methods.size() : q0];
      const float t = timer.time(stream, [&] { call(h, s, in, m, r % (int)in.A.size()); });
      if (r >= o.warmup) m.ms.push_back(t);
    }
}

// The shape's lines: cuBLAS against the library's choice, the spread, then every other method.
void print_shape(const Shape& s, const std::vector<Method>& methods) {
  using harness::fastest, harness::median, harness::slowest;
  const double base = median(methods[0].ms), tflop = 2.0 * s.m * s.n * s.k * 1e-9;
  const Method& ours = methods[1];
  std::printf("%-24s cuBLAS %7.2f ms %6.1f TFLOP/s | ours %7.2f ms %6.1f TFLOP/s  %.3fx  err %.2e / %.2e (%.2f)  %s leaf %d group %d ws %.2f GiB\n",
              s.label.c_str(), base, tflop / base, median(ours.ms), tflop / median(ours.ms), base / median(ours.ms),
              ours.err, methods[0].err, ours.err / methods[0].err, ours.plan.name, ours.plan.leaf, ours.plan.group,
              ours.plan.workspace_bytes / 1073741824.0);
  std::printf("    spread (max − min) / median: cuBLAS %.1f %%, ours %.1f %%; speed-up from the fastest runs %.3fx\n",
              100 * (slowest(methods[0].ms) - fastest(methods[0].ms)) / base,
              100 * (slowest(ours.ms) - fastest(ours.ms)) / median(ours.ms), fastest(methods[0].ms) / fastest(ours.ms));
  for (size_t q = 2; q < methods.size(); ++q)
    std::printf("    %-20s %7.2f ms %.3fx err ratio %.2f  plan %s leaf %d group %d ws %.3f GiB status %d\n",
                methods[q].name.c_str(), median(methods[q].ms), base / median(methods[q].ms),
                methods[q].err / methods[0].err, methods[q].plan.name, methods[q].plan.leaf, methods[q].plan.group,
                methods[q].plan.workspace_bytes / 1073741824.0, methods[q].status);
  std::fflush(stdout);
}

// The shape's JSON row: cuBLAS's times and every other method.
void json_shape(std::FILE* json, bool first, const Shape& s, const std::vector<Method>& methods) {
  using harness::fastest, harness::median, harness::slowest;
  const double base = median(methods[0].ms), tflop = 2.0 * s.m * s.n * s.k * 1e-9;
  std::fprintf(json, "%s    {\"shape\": \"%s\", \"m\": %lld, \"n\": %lld, \"k\": %lld, \"transa\": \"%s\", \"transb\": \"%s\", "
                     "\"cublas_ms\": %.4f, \"cublas_ms_min\": %.4f, \"cublas_ms_max\": %.4f, \"cublas_tflops\": %.3f, \"methods\": [",
               first ? "" : ",\n", s.label.c_str(), s.m, s.n, s.k, s.ta != CUBLAS_OP_N ? "T" : "N",
               s.tb != CUBLAS_OP_N ? "T" : "N", base, fastest(methods[0].ms), slowest(methods[0].ms), tflop / base);
  for (size_t q = 1; q < methods.size(); ++q) {
    const Method& m = methods[q];
    std::fprintf(json, "%s{\"method\": \"%s\", \"plan\": \"%s\", \"leaf\": %d, \"group\": %d, \"workspace_bytes\": %zu, "
                       "\"ms\": %.4f, \"ms_min\": %.4f, \"ms_max\": %.4f, \"tflops\": %.3f, \"speedup\": %.4f, \"err\": %.3e, \"err_cublas\": %.3e, "
                       "\"err_ratio\": %.3f, \"status\": %d, \"why\": \"%s\"}",
                 q > 1 ? ", " : "", m.name.c_str(), m.plan.name, m.plan.leaf, m.plan.group, m.plan.workspace_bytes,
                 median(m.ms), fastest(m.ms), slowest(m.ms), tflop / median(m.ms), base / median(m.ms), m.err,
                 methods[0].err, m.err / methods[0].err, m.status, m.plan.why);
  }
  std::fprintf(json, "]}");
  std::fflush(json);
}

// One shape: inputs, methods, errors, timing, report; the library's speed-up (0 when not correct).
template <class T>
void run_shape(tdisc_gemm_handle_t h, const Options& o, const Shape& s, size_t l2, std::FILE* json, bool first,
               std::vector<double>& speedups) {
  Inputs<T> in(o, s, l2);
  std::vector<Method> methods = methods_for<T>(h, o, s, in);
  measure_errors(h, o, s, in, methods);
  time_rounds(h, o, s, in, methods);
  const bool correct = methods[1].status == 0 && methods[1].err <= 10 * methods[0].err;
  speedups.push_back(correct ? harness::median(methods[0].ms) / harness::median(methods[1].ms) : 0);
  print_shape(s, methods);
  json_shape(json, first, s, methods);
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
  int version = 0;
  tdisc_gemm_device(h, gpu, sizeof gpu, &version);
  const size_t l2 = harness::l2_bytes();
  std::printf("device %s, cuBLAS %d, dtype %s, reps %d, warm-up %d, seed %llu\n", gpu, version, o.f64 ? "f64" : "f32",
              o.reps, o.warmup, o.seed);
  std::FILE* json = std::fopen(o.json.empty() ? "/dev/null" : o.json.c_str(), "w");
  std::fprintf(json, "{\n  ");
  harness::json_provenance(json, run_provenance(argc, argv));
  std::fprintf(json, ",\n  \"device\": \"%s\", \"cublas\": %d, \"dtype\": \"%s\", \"reps\": %d, \"warmup\": %d, \"seed\": %llu, "
                     "\"rotate\": %s,\n  \"rows\": [\n",
               gpu, version, o.f64 ? "f64" : "f32", o.reps, o.warmup, o.seed, o.rotate ? "true" : "false");
  std::vector<double> speedups;
  for (size_t i = 0; i < o.shapes.size(); ++i) {
    if (o.f64) run_shape<double>(h, o, o.shapes[i], l2, json, i == 0, speedups);
    else run_shape<float>(h, o, o.shapes[i], l2, json, i == 0, speedups);
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
