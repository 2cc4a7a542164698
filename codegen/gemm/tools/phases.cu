// tdisc_gemm_phases: where the time of a write-once plan goes (session gemm6, issue 13). Times with
// CUDA events, in one process beside cuBLAS, the phases of the f64 plans r48m, r48s and r48 (A sums,
// B sums, products, C pass), the leaves alone, the addition kernels at several grid sizes, additions
// running beside the leaves on a third stream, and the pipelined prototype (tools/phased.inc).
// Usage: tdisc_gemm_phases [--n 16384] [--reps 5] [--json FILE] [--chunks 0,168,336;…] [--grids 33,66]
//        [--blocks 256,64] [--plans 0|1] (0: skip r48s/r48 and the addition kernels alone). Findings:
//        docs/PERFORMANCE.md, "Where the time goes at 16384 f64".
#include <algorithm>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "common.cuh"

// The thin plans, each instantiated for f64 (codegen/runtime/cuda_plan.inc; include paths: the plans'
// folder and codegen/runtime), with the pipelined prototype beside each.
#define TDISC_PLAN_NS tdisc_plan_r48m_f64
#define TDISC_PLAN_T double
#define TDISC_PLAN_STAGES "r48m.cuh"
#include "cuda_plan.inc"
namespace tdisc_plan_r48m_f64 {
#include "phased.inc"
}
#define TDISC_PLAN_NS tdisc_plan_r48s_f64
#define TDISC_PLAN_T double
#define TDISC_PLAN_STAGES "r48s.cuh"
#include "cuda_plan.inc"
namespace tdisc_plan_r48s_f64 {
#include "phased.inc"
}
#define TDISC_PLAN_NS tdisc_plan_r48_f64
#define TDISC_PLAN_T double
#define TDISC_PLAN_STAGES "r48.cuh"
#include "cuda_plan.inc"
namespace tdisc_plan_r48_f64 {
#include "phased.inc"
}

namespace {

namespace M = tdisc_plan_r48m_f64;

struct Options {
  long long n = 16384;
  int reps = 5;
  std::string json = "phases.json";
  std::vector<std::vector<int>> chunks{{0, 48, 144, 240, 336}, {0, 28, 112, 224, 308, 336}, {0, 168, 336}};
  std::vector<int> grids{16, 33, 66, 132};
  std::vector<int> blocks{256};  // threads per block of the additions beside the leaves
  bool plans = true;             // the phases of r48s and r48 too
};

std::vector<int> ints(const std::string& s, char sep) {
  std::vector<int> v;
  size_t a = 0;
  while (a <= s.size()) {
    size_t b = s.find(sep, a);
    if (b == std::string::npos) b = s.size();
    if (b > a) v.push_back(std::stoi(s.substr(a, b - a)));
    a = b + 1;
  }
  return v;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
    if (!v) {
      std::fprintf(stderr, "tdisc_gemm_phases: %s needs a value\n", a.c_str());
      std::exit(1);
    }
    ++i;
    if (a == "--n") o.n = std::atoll(v);
    else if (a == "--reps") o.reps = std::atoi(v);
    else if (a == "--json") o.json = v;
    else if (a == "--grids") o.grids = ints(v, ',');
    else if (a == "--blocks") o.blocks = ints(v, ',');
    else if (a == "--plans") o.plans = std::atoi(v) != 0;
    else if (a == "--chunks") {
      o.chunks.clear();
      std::string s = v;
      size_t p = 0;
      while (p <= s.size()) {
        size_t q = s.find(';', p);
        if (q == std::string::npos) q = s.size();
        if (q > p) o.chunks.push_back(ints(s.substr(p, q - p), ','));
        p = q + 1;
      }
    } else {
      std::fprintf(stderr, "tdisc_gemm_phases: unknown option %s\n", a.c_str());
      std::exit(1);
    }
  }
  if (o.n % 16 || o.n <= 0 || o.reps < 1) {
    std::fprintf(stderr, "tdisc_gemm_phases: --n must be a positive multiple of 16, --reps ≥ 1\n");
    std::exit(1);
  }
  return o;
}

using harness::median;
using harness::spread;
float elapsed(cudaEvent_t a, cudaEvent_t b) {
  float t = 0;
  CK(cudaEventElapsedTime(&t, a, b));
  return t;
}

// A named quantity measured once per round; the report gives its median and spread.
struct Series {
  std::string name;
  std::vector<double> ms;
};
struct Table {
  std::vector<Series> s;
  void add(const std::string& name, double ms) {
    for (Series& x : s)
      if (x.name == name) return x.ms.push_back(ms);
    s.push_back({name, {ms}});
  }
};

struct Bench {
  Options o;
  cublasHandle_t h;
  cudaStream_t main, aux, add;
  cudaEvent_t ev[64];
  std::vector<DeviceBuffer<double>> held;  // what A, B, C, ws, sink and zero point into
  double *A, *B, *C, *ws, *sink, *zero;
  size_t ws_bytes;
  harness::EventTimer timer;
  Table t;

  double* allocate(long long count) {
    held.emplace_back(count);
    return held.back().get();
  }
  M::Ctx ctx(char* base, size_t bytes, int leaf, bool streams) {
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    return M::Ctx{h, main, M::Layout::ColMajor, (M::Leaf)leaf, base, base + bytes, sms * 8, streams ? aux : nullptr,
                  ev[50], ev[51], main, 0};
  }
  template <class NS_Ctx>
  NS_Ctx ctx_of(int leaf, bool streams) {  // the same context in another plan's namespace
    M::Ctx c = ctx((char*)ws, ws_bytes, leaf, streams);
    NS_Ctx d;
    std::memcpy(&d, &c, sizeof d);
    static_assert(sizeof(NS_Ctx) == sizeof(M::Ctx), "contexts differ");
    return d;
  }
  double timed(const std::function<void()>& f) { return timer.time(main, f); }
};

#define PLAN_OK(expr)                                                                   \
  do {                                                                                  \
    const int st_ = (int)(expr);                                                        \
    if (st_ != 0) {                                                                     \
      std::fprintf(stderr, "%s:%d: plan status %d\n", __FILE__, __LINE__, st_);         \
      std::exit(2);                                                                     \
    }                                                                                   \
  } while (0)

// The phases of one plan's first stage, write-once, leaves separate (0) or streams (2).
template <class NS_Ctx, class NS_View, class F>
void phases_of(Bench& b, const std::string& name, int leaf, F phased) {
  NS_Ctx c = b.ctx_of<NS_Ctx>(leaf, leaf == 2);
  const long long n = b.o.n;
  const NS_View A{b.A, n, n, n}, B{b.B, n, n, n}, C{b.C, n, n, n};
  PLAN_OK(phased(c, 1.0, A, B, 0.0, C, b.ev));
  CK(cudaEventSynchronize(b.ev[4]));
  const char* part[4] = {"A sums", "B sums", "products", "C pass"};
  for (int p = 0; p < 4; ++p) b.t.add(name + " " + part[p], elapsed(b.ev[p], b.ev[p + 1]));
  b.t.add(name + " total", elapsed(b.ev[0], b.ev[4]));
}

// cuBLAS, the plan's API and the phased copy in a fixed order (does the order matter?), then the
// phases of r48m and, with --plans 1, of r48s and r48.
void api_and_phases(Bench& b) {
  const long long n = b.o.n;
  const double one = 1, zero = 0;
  auto cublas = [&] {
    CB(cublasSetStream(b.h, b.main));
    CB(cublasDgemm_64(b.h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b.A, n, b.B, n, &zero, b.C, n));
  };
  auto gemm = [&] {
    PLAN_OK(M::gemm(b.h, b.main, M::Layout::ColMajor, n, n, n, 1.0, b.A, n, b.B, n, 0.0, b.C, n, b.ws, b.ws_bytes,
                    M::Leaf::Streams, 0));
  };
  auto phased_streams = [&] {
    M::Ctx c = b.ctx((char*)b.ws, b.ws_bytes, 2, true);
    const M::View A{b.A, n, n, n}, B{b.B, n, n, n}, C{b.C, n, n, n};
    PLAN_OK(M::phased(c, 1.0, A, B, 0.0, C, b.ev));
  };
  const std::vector<std::pair<std::string, std::function<void()>>> order{
      {"cublas", cublas}, {"gemm", gemm}, {"gemm", gemm}, {"phased", phased_streams},
      {"cublas", cublas}, {"phased", phased_streams}, {"gemm", gemm}};
  for (size_t q = 0; q < order.size(); ++q)
    b.t.add("order " + std::to_string(q) + " " + order[q].first, b.timed(order[q].second));
  b.t.add("cublas " + std::to_string(n), b.timed(cublas));
  b.t.add("r48m gemm streams", b.timed(gemm));
  for (int leaf : {2, 0})
    phases_of<M::Ctx, M::View>(b, std::string("r48m ") + (leaf ? "streams" : "separate"), leaf,
                               [](M::Ctx& c, double al, const M::View& A, const M::View& B, double be, const M::View& C,
                                  cudaEvent_t* ev) { return M::phased(c, al, A, B, be, C, ev); });
  if (!b.o.plans) return;
  namespace S = tdisc_plan_r48s_f64;
  for (int leaf : {2, 0})
    phases_of<S::Ctx, S::View>(b, std::string("r48s ") + (leaf ? "streams" : "separate"), leaf,
                               [](S::Ctx& c, double al, const S::View& A, const S::View& B, double be,
                                  const S::View& C, cudaEvent_t* ev) { return S::phased(c, al, A, B, be, C, ev); });
  namespace R = tdisc_plan_r48_f64;
  phases_of<R::Ctx, R::View>(b, "r48 streams", 2,
                             [](R::Ctx& c, double al, const R::View& A, const R::View& B, double be, const R::View& C,
                                cudaEvent_t* ev) { return R::phased(c, al, A, B, be, C, ev); });
}

// One leaf of r48m (n/8)³ alone, and (with --plans 1) r48m's addition kernels alone at several grids.
void kernels_alone(Bench& b, M::Ctx& c, const M::Blocks& k) {
  const double one = 1, zero = 0;
  b.t.add("one leaf " + std::to_string(b.o.n / 8), b.timed([&] {
    CB(cublasSetStream(b.h, b.main));
    CB(cublasDgemm_64(b.h, CUBLAS_OP_N, CUBLAS_OP_N, k.Mb, k.Nb, k.Kb, &one, k.wa, k.lda, k.wb, k.ldb, &zero, k.wp,
                      k.ldp));
  }));
  if (!b.o.plans) return;
  std::vector<int> grids = b.o.grids;
  grids.push_back(c.grid);
  for (int g : grids) {
    c.grid = g, c.s = b.main;
    b.t.add("r48m A sums grid " + std::to_string(g), b.timed([&] { PLAN_OK(M::Stage0::form_a(c, k.fa, false)); }));
    b.t.add("r48m C pass grid " + std::to_string(g), b.timed([&] { PLAN_OK(M::Stage0::form_c(c, k.fc)); }));
  }
}

// r48m's 336 leaves on two streams.
void leaves_of(Bench& b, const M::Blocks& k) {
  M::Ctx d = b.ctx((char*)b.ws, b.ws_bytes, 2, true);
  PLAN_OK(M::leaf_fork(d));
  for (int r = 0; r < M::Stage0::R; ++r) {
    PLAN_OK(M::leaf_on(d, r));
    PLAN_OK(M::leaf_gemm(d, 1.0, M::View{k.fa.dst[r], k.Mb, k.Kb, k.lda}, M::View{k.fb.dst[r], k.Kb, k.Nb, k.ldb}, 0.0,
                         M::View{k.wp + r * k.Mb * k.Nb, k.Mb, k.Nb, k.ldp}));
  }
  PLAN_OK(M::leaf_join(d));
}

// Leaves alone on two streams, then the same leaves with all three addition kernels beside them on
// a third stream of higher priority (grid g): does the GPU overlap them, and at what cost?
void beside_leaves(Bench& b, const M::Blocks& k) {
  b.t.add("r48m leaves alone (streams)", b.timed([&] { leaves_of(b, k); }));
  for (int bs : b.o.blocks)
    for (int g : b.o.grids) {
      M::FormArgs<64, 336> fa = k.fa, fb = k.fb;
      for (int r = 0; r < 336; ++r) fa.dst[r] = fb.dst[r] = b.sink;  // leave the leaves' operands alone
      M::FormArgs<336, 64> fc = k.fc;
      for (int q = 0; q < 64; ++q) fc.dst[q] = b.sink;
      fc.ldd = k.Mb;  // the sink is one block
      auto additions = [&] {
        CK(cudaEventRecord(b.ev[52], b.main));
        CK(cudaStreamWaitEvent(b.add, b.ev[52], 0));
        M::s0_form_a<1, false><<<g, bs, 0, b.add>>>(fa);
        M::s0_form_b<1, false><<<g, bs, 0, b.add>>>(fb);
        M::s0_form_c<1, false><<<g, bs, 0, b.add>>>(fc);
        CK(cudaGetLastError());
        CK(cudaEventRecord(b.ev[53], b.add));
      };
      const std::string tag = " grid " + std::to_string(g) + " block " + std::to_string(bs);
      b.t.add("additions alone" + tag, b.timed([&] {
        additions();
        CK(cudaStreamWaitEvent(b.main, b.ev[53], 0));
      }));
      b.t.add("leaves beside additions" + tag, b.timed([&] {
        additions();
        leaves_of(b, k);
        CK(cudaStreamWaitEvent(b.main, b.ev[53], 0));
      }));
    }
}

// The pipelined prototype, per chunking, hidden grid and block.
void piped_sweep(Bench& b) {
  const long long n = b.o.n;
  const M::View A{b.A, n, n, n}, B{b.B, n, n, n}, C{b.C, n, n, n};
  for (const std::vector<int>& cuts : b.o.chunks)
    for (int bs : b.o.blocks)
      for (int g : b.o.grids) {
        std::string name = "r48m piped chunks";
        for (size_t q = 1; q < cuts.size(); ++q) name += (q > 1 ? "," : " ") + std::to_string(cuts[q] - cuts[q - 1]);
        name += " grid " + std::to_string(g) + " block " + std::to_string(bs);
        M::Ctx d = b.ctx((char*)b.ws, b.ws_bytes, 2, true);
        b.t.add(name, b.timed([&] {
          PLAN_OK(M::piped(d, 1.0, A, B, 0.0, C, cuts, b.add, d.grid, g, bs, b.sink, b.zero, b.ev));
        }));
      }
}

// One round of every measurement, in the method's order.
void one_round(Bench& b) {
  const long long n = b.o.n;
  api_and_phases(b);
  M::Ctx c = b.ctx((char*)b.ws, b.ws_bytes, 2, true);
  const M::View A{b.A, n, n, n}, B{b.B, n, n, n}, C{b.C, n, n, n};
  M::Blocks k;
  PLAN_OK(M::carve_blocks(c, A, B, 0.0, C, k));
  kernels_alone(b, c, k);
  beside_leaves(b, k);
  piped_sweep(b);
}

// Relative Frobenius difference of C against cuBLAS's result in R (both n × n): the pipelined
// prototype must compute the same product.
double rel_diff(const double* C, const double* R, long long count) {
  std::vector<double> c(count), r(count);
  CK(cudaMemcpy(c.data(), C, count * sizeof(double), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(r.data(), R, count * sizeof(double), cudaMemcpyDeviceToHost));
  double num = 0, den = 0;
  for (long long i = 0; i < count; ++i) num += (c[i] - r[i]) * (c[i] - r[i]), den += r[i] * r[i];
  return std::sqrt(num / den);
}

// Streams (the additions' of the highest priority), events, buffers and workspace for all three plans.
void setup(Bench& b) {
  const long long n = b.o.n, nn = n * n;
  CB(cublasCreate(&b.h));
  CK(cudaStreamCreateWithFlags(&b.main, cudaStreamNonBlocking));
  CK(cudaStreamCreateWithFlags(&b.aux, cudaStreamNonBlocking));
  int lo = 0, hi = 0;
  CK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
  CK(cudaStreamCreateWithPriority(&b.add, cudaStreamNonBlocking, hi));
  for (cudaEvent_t& e : b.ev) CK(cudaEventCreate(&e));
  b.held.reserve(7);
  b.A = b.allocate(nn), b.B = b.allocate(nn), b.C = b.allocate(nn);
  b.sink = b.allocate(nn / 64), b.zero = b.allocate(nn / 64);
  CK(cudaMemset(b.zero, 0, nn / 64 * sizeof(double)));
  b.ws_bytes = std::max({M::workspace_bytes(n, n, n, M::Leaf::Streams),
                         tdisc_plan_r48s_f64::workspace_bytes(n, n, n, tdisc_plan_r48s_f64::Leaf::Streams),
                         tdisc_plan_r48_f64::workspace_bytes(n, n, n, tdisc_plan_r48_f64::Leaf::Streams)});
  b.ws = b.allocate((long long)((b.ws_bytes + sizeof(double) - 1) / sizeof(double)));
}

// Correctness of the prototype and of the phased copy against cuBLAS, on small integers (every plan
// is exact there, so the results compare).
void check_prototype(Bench& b) {
  const long long n = b.o.n, nn = n * n;
  harness::fill(b.A, nn, 20261123, Fill::SmallInt);
  harness::fill(b.B, nn, 20261124, Fill::SmallInt);
  CK(cudaDeviceSynchronize());  // the fills ran on the default stream; b.main does not wait for it
  DeviceBuffer<double> R(nn);
  const double one = 1, zero = 0;
  CB(cublasSetStream(b.h, b.main));
  CB(cublasDgemm_64(b.h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b.A, n, b.B, n, &zero, R.get(), n));
  M::Ctx d = b.ctx((char*)b.ws, b.ws_bytes, 2, true);
  const M::View A{b.A, n, n, n}, B{b.B, n, n, n}, C{b.C, n, n, n};
  PLAN_OK(M::piped(d, 1.0, A, B, 0.0, C, b.o.chunks[0], b.add, d.grid, b.o.grids[0], b.o.blocks[0], b.sink, b.zero, b.ev));
  CK(cudaDeviceSynchronize());
  std::printf("check: piped prototype against cuBLAS, relative difference %.3e\n", rel_diff(b.C, R.get(), nn));
  PLAN_OK(M::phased(d, 1.0, A, B, 0.0, C, b.ev));
  CK(cudaDeviceSynchronize());
  std::printf("check: phased r48m against cuBLAS, relative difference %.3e\n", rel_diff(b.C, R.get(), nn));
}

// Every series: printed (median, spread, range) and written with its runs and the provenance.
void report(const Bench& b, const cudaDeviceProp& prop, const RunProvenance& run) {
  std::FILE* json = std::fopen(b.o.json.c_str(), "w");
  if (!json) {
    std::fprintf(stderr, "tdisc: tdisc_gemm_phases: cannot write %s\n", b.o.json.c_str());
    std::exit(1);
  }
  int cublas_version = 0;
  CB(cublasGetVersion(b.h, &cublas_version));
  std::fprintf(json, "{\"tool\": \"tdisc_gemm_phases\", ");
  harness::json_provenance(json, run);
  std::fprintf(json, ", \"device\": \"%s\", \"cublas\": %d, \"n\": %lld, \"reps\": %d, "
                     "\"seeds\": [20261123, 20261124], \"series\": [\n",
               prop.name, cublas_version, b.o.n, b.o.reps);
  for (size_t q = 0; q < b.t.s.size(); ++q) {
    const Series& s = b.t.s[q];
    std::printf("%-48s %9.3f ms  spread %5.1f %%  (min %.3f max %.3f)\n", s.name.c_str(), median(s.ms),
                100 * spread(s.ms), harness::fastest(s.ms), harness::slowest(s.ms));
    std::fprintf(json, "%s  {\"name\": \"%s\", \"median_ms\": %.4f, \"spread\": %.4f, \"ms\": [", q ? ",\n" : "",
                 s.name.c_str(), median(s.ms), spread(s.ms));
    for (size_t i = 0; i < s.ms.size(); ++i) std::fprintf(json, "%s%.4f", i ? ", " : "", s.ms[i]);
    std::fprintf(json, "]}");
  }
  std::fprintf(json, "\n]}\n");
  std::fclose(json);
}

}  // namespace

// Check, then a warm-up round and --reps timed rounds on uniform inputs in [-1, 1) (as the sweeps).
int main(int argc, char** argv) {
  Bench b;
  b.o = parse(argc, argv);
  setup(b);
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("tdisc_gemm_phases: %s, n = %lld, reps %d (+1 warm-up), workspace %.1f GiB, seeds 20261123/4\n", prop.name,
              b.o.n, b.o.reps, b.ws_bytes / 1073741824.0);
  check_prototype(b);
  harness::fill(b.A, b.o.n * b.o.n, 20261123, Fill::Uniform);
  harness::fill(b.B, b.o.n * b.o.n, 20261124, Fill::Uniform);
  CK(cudaDeviceSynchronize());
  for (int r = 0; r <= b.o.reps; ++r) {
    Table keep = b.t;
    one_round(b);
    if (r == 0) b.t = keep;  // warm-up round
    std::fprintf(stderr, "round %d done\n", r);
  }
  report(b, prop, run_provenance(argc, argv));
  return 0;
}
