// tdisc_gemm_check: on a GPU, libtdisc_gemm equals cuBLAS bit for bit on small-integer inputs for
// every compiled plan (so every plan its table can name), each leaf mode, the write-once and the lean
// schedules, transposed operands, ragged sizes, padded leading dimensions, alpha/beta with C poisoned
// by NaN when beta = 0; then the fallback paths (caller buffer too small → lean → cuBLAS, limit 0,
// TF32 math, device pointer mode, a plan table loaded from a file); the emulated plans within a few
// ulps of cuBLAS, their scheme levels bit-identical to oz2. Exit 0: all pass; 1: a failure (each
// printed); 77: no GPU.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "common.cuh"

namespace {

struct Case {
  long long m, n, k;
  cublasOperation_t ta, tb;
  double alpha, beta;
};
const Case kCases[] = {{515, 509, 600, CUBLAS_OP_N, CUBLAS_OP_N, 1, 0},  {512, 384, 520, CUBLAS_OP_T, CUBLAS_OP_N, 2, -1},
                       {257, 1000, 123, CUBLAS_OP_N, CUBLAS_OP_T, 1, 0}, {1031, 17, 260, CUBLAS_OP_T, CUBLAS_OP_T, -1, 2},
                       {1024, 1024, 512, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1}};

int failures = 0, runs = 0;

const char* op(cublasOperation_t o) { return o == CUBLAS_OP_N ? "N" : "T"; }

// One case's device buffers: A and B with small integers from the seeds, C0 poisoned by NaN when beta
// is 0 (else filled from seed_c), C1 for ours; leading dimensions padded.
template <class T>
struct CaseBuffers {
  long long lda, ldb, ldc, sa, sb, sc;
  DeviceBuffer<T> A, B, C0, C1;
  CaseBuffers(const Case& e, int seed_a, int seed_b, int seed_c) {
    const bool na = e.ta == CUBLAS_OP_N, nb = e.tb == CUBLAS_OP_N;
    lda = (na ? e.m : e.k) + 5, ldb = (nb ? e.k : e.n) + 3, ldc = e.m + 7;
    sa = lda * (na ? e.k : e.m), sb = ldb * (nb ? e.n : e.k), sc = ldc * e.n;
    A = DeviceBuffer<T>(sa), B = DeviceBuffer<T>(sb), C0 = DeviceBuffer<T>(sc), C1 = DeviceBuffer<T>(sc);
    harness::fill(A, seed_a, Fill::SmallInt);
    harness::fill(B, seed_b, Fill::SmallInt);
    if (e.beta == 0) harness::poison(C0);
    else harness::fill(C0, seed_c, Fill::SmallInt);
  }
};

// Runs cuBLAS and ours (plan, or the library's choice when null) on the same small-integer inputs and
// compares every element of C, padding included (the harness's exact check).
template <class T>
void compare(tdisc_gemm_handle_t h, const tdisc_gemm_plan_t* plan, const Case& e, const std::string& label) {
  cublasHandle_t cb = tdisc_gemm_cublas(h);
  CaseBuffers<T> buf(e, 11 + runs, 23 + runs, 37 + runs);
  buf.C1.copy_from(buf.C0);
  const std::vector<T> before = buf.C0.to_host();
  const T al = (T)e.alpha, be = (T)e.beta;
  CB(xgemm(cb, e.ta, e.tb, e.m, e.n, e.k, &al, buf.A.get(), buf.lda, buf.B.get(), buf.ldb, &be, buf.C0.get(), buf.ldc));
  const tdisc_gemm_status_t st = ours(h, plan, e.ta, e.tb, e.m, e.n, e.k, &al, buf.A.get(), buf.lda, buf.B.get(),
                                      buf.ldb, &be, buf.C1.get(), buf.ldc);
  CK(cudaDeviceSynchronize());
  const harness::ExactCount n = harness::count_exact(buf.C0.to_host(), buf.C1.to_host(), before, buf.ldc, e.m);
  const bool ok = st == TDISC_GEMM_SUCCESS && n.ok();
  ++runs;
  failures += !ok;
  if (!ok || std::getenv("TDISC_CHECK_VERBOSE"))
    std::printf("%s %s %lldx%lldx%lld %s%s alpha=%g beta=%g: status %d, %lld differ, %lld nonzero\n",
                ok ? "ok  " : "FAIL", label.c_str(), e.m, e.n, e.k, op(e.ta), op(e.tb), e.alpha, e.beta, (int)st, n.differ,
                n.nonzero);
}

tdisc_gemm_plan_t make_plan(const char* name, int leaf, int group) {
  tdisc_gemm_plan_t p{};
  std::snprintf(p.name, sizeof p.name, "%s", name);
  p.leaf = leaf, p.group = group;
  return p;
}

// Every compiled plan × (three leaf modes, write-once) and (lean, groups 1 and 3) × every case.
template <class T>
void every_plan(tdisc_gemm_handle_t h, tdisc_gemm_dtype_t dt) {
  const int schedules[][2] = {{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 3}};
  for (int i = 0; i < tdisc_gemm_plan_count(dt); ++i)
    for (auto& s : schedules) {
      const tdisc_gemm_plan_t p = make_plan(tdisc_gemm_plan_name(dt, i), s[0], s[1]);
      const std::string label = std::string(dt ? "f64 " : "f32 ") + p.name + " leaf " + std::to_string(s[0]) +
                                " group " + std::to_string(s[1]);
      const int before = failures;
      for (const Case& e : kCases) compare<T>(h, &p, e, label);
      std::printf("%s %s: %zu cases\n", failures == before ? "ok  " : "FAIL", label.c_str(), std::size(kCases));
    }
}

bool expect(bool cond, const std::string& what) {
  std::printf("%s %s\n", cond ? "ok  " : "FAIL", what.c_str());
  failures += !cond;
  return cond;
}

// A table that names `plan` at 1024³, so the automatic choice runs it there.
std::string write_table(const char* plan) {
  const std::string path = "tdisc_gemm_check_table.json";
  std::ofstream out(path);
  out << "{\"format\": \"tdisc-gemm-plans\", \"version\": 1, \"tables\": [";
  for (const char* dt : {"f32", "f64"})
    out << (dt[2] == '2' ? "" : ", ") << "{\"gpu\": \"any\", \"cublas\": 0, \"dtype\": \"" << dt
        << "\", \"entries\": [{\"m\": 1024, \"n\": 1024, \"k\": 1024, \"plan\": \"" << plan
        << "\", \"leaf\": \"batched\", \"speedup\": 1.5}, {\"m\": 64, \"n\": 64, \"k\": 64, \"plan\": \"cublas\"}]}";
  out << "]}\n";
  return path;
}

// The workspace policy end to end: write-once, then lean, then cuBLAS as the caller's buffer shrinks.
template <class T>
void fallbacks(tdisc_gemm_handle_t h, tdisc_gemm_dtype_t dt) {
  const std::string tag = dt ? "f64 " : "f32 ";
  const char* plan = tdisc_gemm_plan_name(dt, tdisc_gemm_plan_count(dt) > 2 ? 2 : 0);  // r48 when compiled
  if (!expect(tdisc_gemm_load_plan_table(h, write_table(plan).c_str()) == TDISC_GEMM_SUCCESS, tag + "table loads"))
    return;
  const Case big{1024, 1024, 1024, CUBLAS_OP_N, CUBLAS_OP_N, 1, 0}, small{40, 40, 40, CUBLAS_OP_N, CUBLAS_OP_N, 1, 0};
  tdisc_gemm_plan_t p{};
  tdisc_gemm_choose(h, dt, big.ta, big.tb, big.m, big.n, big.k, &p);
  expect(std::strcmp(p.name, plan) == 0 && p.group == 0, tag + "table plan chosen write-once: " + p.name + ", " + p.why);
  compare<T>(h, nullptr, big, tag + "auto write-once");
  const size_t full = p.workspace_bytes;
  DeviceBuffer<char> owned((long long)full);
  void* buffer = owned.get();
  const size_t operand = 1024ull * 1024 * sizeof(T);  // the lean schedule's bound: one operand
  tdisc_gemm_set_workspace(h, buffer, operand < full ? operand : full - 1);
  tdisc_gemm_choose(h, dt, big.ta, big.tb, big.m, big.n, big.k, &p);
  expect(std::strcmp(p.name, "cublas") == 0, tag + "buffer below write-once, lean not allowed → cuBLAS: " + p.why);
  tdisc_gemm_set_lean(h, 1);
  tdisc_gemm_choose(h, dt, big.ta, big.tb, big.m, big.n, big.k, &p);
  expect(std::strcmp(p.name, plan) == 0 && p.group > 0 && p.workspace_bytes < full,
         tag + "buffer of one operand → lean group " + std::to_string(p.group) + ": " + p.why);
  expect(p.workspace_bytes <= operand, tag + "lean workspace ≤ 1× operand bytes: " + std::to_string(p.workspace_bytes));
  compare<T>(h, nullptr, big, tag + "auto lean (caller buffer)");
  tdisc_gemm_set_workspace(h, buffer, 1024);
  tdisc_gemm_choose(h, dt, big.ta, big.tb, big.m, big.n, big.k, &p);
  expect(std::strcmp(p.name, "cublas") == 0, tag + "buffer below lean → cuBLAS: " + p.why);
  compare<T>(h, nullptr, big, tag + "auto fallback (buffer)");
  tdisc_gemm_set_lean(h, 0);
  tdisc_gemm_set_workspace(h, nullptr, 0);
  tdisc_gemm_set_workspace_limit(h, 0);
  tdisc_gemm_choose(h, dt, big.ta, big.tb, big.m, big.n, big.k, &p);
  expect(std::strcmp(p.name, "cublas") == 0, tag + "internal limit 0 → cuBLAS");
  compare<T>(h, nullptr, big, tag + "auto fallback (limit 0)");
  tdisc_gemm_set_workspace_limit(h, (size_t)1 << 34);
  tdisc_gemm_choose(h, dt, small.ta, small.tb, small.m, small.n, small.k, &p);
  expect(std::strcmp(p.name, "cublas") == 0, tag + "small shape → cuBLAS: " + p.why);
  compare<T>(h, nullptr, small, tag + "auto small");
  cublasHandle_t cb = tdisc_gemm_cublas(h);
  CB(cublasSetMathMode(cb, CUBLAS_TF32_TENSOR_OP_MATH));
  tdisc_gemm_choose(h, dt, big.ta, big.tb, big.m, big.n, big.k, &p);
  expect(std::strcmp(p.name, "cublas") == 0, tag + "TF32 math mode → cuBLAS");
  CB(cublasSetMathMode(cb, CUBLAS_DEFAULT_MATH));
}

// The emulated plans on small-integer inputs (every case: ragged, transposed, padded leading dimensions,
// alpha/beta, C poisoned by NaN when beta = 0): within a few ulps of cuBLAS's exact result (the Horner
// evaluation may round when a scaled product exceeds 2^53), the padding of C untouched, and every scheme
// level bit-identical to oz2 (a scheme over Z/p changes no residue), and so are the lean paths (int8 residues
// of C) of oz2 and oz2-s1 to their fused ones (INT32 products reduced in the reconstruction). Then the choice
// with emulation allowed.
template <class T>
void emulated(tdisc_gemm_handle_t h, tdisc_gemm_dtype_t dt) {
  const std::string tag = dt ? "f64 " : "f32 ";
  const double tol = dt ? 0x1p-45 : 0x1p-20;  // relative to the largest |c|
  cublasHandle_t cb = tdisc_gemm_cublas(h);
  for (const Case& e : kCases) {
    const CaseBuffers<T> buf(e, 101 + runs, 103 + runs, 107 + runs);
    const long long lda = buf.lda, ldb = buf.ldb, ldc = buf.ldc, sc = buf.sc;
    T *A = buf.A.get(), *B = buf.B.get(), *C0 = buf.C0.get(), *C1 = buf.C1.get();
    std::vector<T> start(sc), want(sc), plain;
    CK(cudaMemcpy(start.data(), C0, sc * sizeof(T), cudaMemcpyDeviceToHost));
    const T al = (T)e.alpha, be = (T)e.beta;
    CB(xgemm(cb, e.ta, e.tb, e.m, e.n, e.k, &al, A, lda, B, ldb, &be, C0, ldc));
    CK(cudaMemcpy(want.data(), C0, sc * sizeof(T), cudaMemcpyDeviceToHost));
    double cmax = 0;
    for (long long q = 0; q < sc; ++q)
      if (q % ldc < e.m) cmax = std::max(cmax, std::fabs((double)want[q]));
    // "… lean": the plan forced onto the lean path (one modulus's INT32 products at a time, reduced or
    // combined into int8 residues of C), in one residue pass (oz2) or three (oz2-s1: the operands of a third
    // of the moduli at a time), which must give the bits of the fused path that a workspace this small
    // takes by default (oz2 and oz2-s1; the 4x4 levels are always lean).
    for (const char* name : {"oz2", "oz2 lean", "oz2-s1", "oz2-s1 lean3", "oz2-s2", "oz2-r48"}) {
      const std::string plan_name = std::string(name).substr(0, std::string(name).find(' '));
      const bool lean = plan_name != name, passes = std::strstr(name, "lean3") != nullptr;
      tdisc_gemm_plan_t p = make_plan(plan_name.c_str(), 0, 0);
      CK(cudaMemcpy(C1, start.data(), sc * sizeof(T), cudaMemcpyHostToDevice));
      if (lean) setenv(passes ? "TDISC_OZAKI_PASSES" : "TDISC_OZAKI_LEAN", passes ? "3" : "1", 1);
      const tdisc_gemm_status_t st = ours(h, &p, e.ta, e.tb, e.m, e.n, e.k, &al, A, lda, B, ldb, &be, C1, ldc);
      CK(cudaDeviceSynchronize());
      if (lean) unsetenv(passes ? "TDISC_OZAKI_PASSES" : "TDISC_OZAKI_LEAN");
      std::vector<T> got(sc);
      CK(cudaMemcpy(got.data(), C1, sc * sizeof(T), cudaMemcpyDeviceToHost));
      double worst = 0;
      long long padding = 0, differ_plain = 0;
      for (long long q = 0; q < sc; ++q) {
        if (q % ldc < e.m) worst = std::max(worst, std::fabs((double)got[q] - (double)want[q]));
        else padding += std::memcmp(&got[q], &start[q], sizeof(T)) != 0;
      }
      if (plain.empty()) plain = got;
      else
        for (long long q = 0; q < sc; ++q) differ_plain += std::memcmp(&got[q], &plain[q], sizeof(T)) != 0;
      const bool ok = st == TDISC_GEMM_SUCCESS && worst <= tol * cmax && padding == 0 && differ_plain == 0;
      ++runs;
      failures += !ok;
      std::printf("%s %semulated %s %lldx%lldx%lld %s%s alpha=%g beta=%g: status %d, max |diff| %.3g (of max |c| %.3g), "
                  "%lld padding changed, %lld differ from oz2\n",
                  ok ? "ok  " : "FAIL", tag.c_str(), name, e.m, e.n, e.k, op(e.ta), op(e.tb), e.alpha, e.beta, (int)st,
                  worst, cmax, padding, differ_plain);
    }
  }
  {  // Inf and NaN: a NaN in row 5 of A and an Inf in column 3 of B give NaN in row 5 and column 3 of C only
    const long long n = 256;
    DeviceBuffer<T> Ab(n * n), Bb(n * n), Cb(n * n);
    T *A = Ab.get(), *B = Bb.get(), *C = Cb.get();
    harness::fill(Ab, 5, Fill::SmallInt);
    harness::fill(Bb, 6, Fill::SmallInt);
    const T nan = T(NAN), inf = T(INFINITY), one = 1, zero = 0;
    CK(cudaMemcpy(A + 5 + 7 * n, &nan, sizeof(T), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(B + 9 + 3 * n, &inf, sizeof(T), cudaMemcpyHostToDevice));
    tdisc_gemm_plan_t p = make_plan("oz2", 0, 0);
    const tdisc_gemm_status_t st = ours(h, &p, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, B, n, &zero, C, n);
    std::vector<T> c(n * n);
    CK(cudaMemcpy(c.data(), C, c.size() * sizeof(T), cudaMemcpyDeviceToHost));
    long long wrong = 0;
    for (long long j = 0; j < n; ++j)
      for (long long i = 0; i < n; ++i) wrong += std::isnan(c[i + j * n]) != (i == 5 || j == 3);
    expect(st == TDISC_GEMM_SUCCESS && wrong == 0,
           tag + "emulated oz2: NaN/Inf rows and columns give NaN there only (" + std::to_string(wrong) + " wrong)");
  }
  tdisc_gemm_plan_t p{};
  tdisc_gemm_choose(h, dt, CUBLAS_OP_N, CUBLAS_OP_N, 4096, 4096, 4096, &p);
  expect(std::strncmp(p.name, "oz2", 3) != 0, tag + "accuracy native (default) → no emulated plan: " + p.name);
  tdisc_gemm_set_accuracy(h, TDISC_GEMM_EMULATED);
  tdisc_gemm_choose(h, dt, CUBLAS_OP_N, CUBLAS_OP_N, 4096, 4096, 4096, &p);
  // An emulated plan, or cuBLAS where this card's tuned table says cuBLAS beat every emulated plan.
  const bool tuned_cublas = std::strcmp(p.name, "cublas") == 0 && std::strstr(p.why, "accuracy emulated: plan table");
  expect((std::strncmp(p.name, "oz2", 3) == 0 && p.moduli > 0) || tuned_cublas,
         tag + "accuracy emulated → " + p.name + ", " + std::to_string(p.moduli) + " moduli: " + p.why);
  tdisc_gemm_choose(h, dt, CUBLAS_OP_N, CUBLAS_OP_N, 1024, 1024, 1024, &p);
  expect(std::strncmp(p.name, "oz2", 3) != 0, tag + "emulated, small shape → native choice: " + p.why);
  tdisc_gemm_set_accuracy(h, TDISC_GEMM_NATIVE);
}

}  // namespace

int main() {
  if (!gpu_present()) {
    std::printf("SKIP: no GPU\n");
    return 77;
  }
  tdisc_gemm_handle_t h = nullptr;
  if (tdisc_gemm_create(&h, nullptr) != TDISC_GEMM_SUCCESS) {
    std::printf("FAIL: tdisc_gemm_create\n");
    return 1;
  }
  char gpu[128];
  int version = 0;
  tdisc_gemm_device(h, gpu, sizeof gpu, &version);
  std::printf("device %s, cuBLAS %d; plans f32 %d, f64 %d\n", gpu, version, tdisc_gemm_plan_count(TDISC_GEMM_F32),
              tdisc_gemm_plan_count(TDISC_GEMM_F64));
  every_plan<float>(h, TDISC_GEMM_F32);
  every_plan<double>(h, TDISC_GEMM_F64);
  fallbacks<float>(h, TDISC_GEMM_F32);
  fallbacks<double>(h, TDISC_GEMM_F64);
  tdisc_gemm_set_workspace_limit(h, (size_t)1 << 34);
  emulated<float>(h, TDISC_GEMM_F32);
  emulated<double>(h, TDISC_GEMM_F64);
  tdisc_gemm_destroy(h);
  std::printf("%d comparisons, %d failures%s\n", runs, failures,
              failures ? "" : ": native plans equal to cuBLAS bit for bit, emulated within a few ulps, levels "
                              "bit-identical");
  return failures ? 1 : 0;
}
