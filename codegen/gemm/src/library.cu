// libtdisc_gemm's C API: handle and workspace policy, plan choice from the plan tables, transposed
// operands copied (cublas<t>geam) into workspace, the generated recursion or the emulation (ozaki.cu),
// and cuBLAS as the fallback.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "plan_table.hpp"
#include "context.hpp"
#include "ozaki.hpp"
#include "plans.hpp"
#include "tdisc/gemm.h"

using namespace tdisc_gemm;


namespace {

template <class T> struct Blas;
template <> struct Blas<float> {
  static constexpr int dtype = 0;
  static cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n,
                             int64_t k, const float* al, const float* A, int64_t lda, const float* B, int64_t ldb,
                             const float* be, float* C, int64_t ldc) {
    return cublasSgemm_64(h, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc);
  }
  static cublasStatus_t transpose(cublasHandle_t h, int64_t rows, int64_t cols, const float* X, int64_t ldx, float* Y) {
    const float one = 1, zero = 0;  // Y (rows × cols, ld rows) = X^T
    return cublasSgeam_64(h, CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, &one, X, ldx, &zero, Y, rows, Y, rows);
  }
  static constexpr auto emulate = ozaki::gemm_f32;
};
template <> struct Blas<double> {
  static constexpr int dtype = 1;
  static cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n,
                             int64_t k, const double* al, const double* A, int64_t lda, const double* B, int64_t ldb,
                             const double* be, double* C, int64_t ldc) {
    return cublasDgemm_64(h, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc);
  }
  static cublasStatus_t transpose(cublasHandle_t h, int64_t rows, int64_t cols, const double* X, int64_t ldx,
                                  double* Y) {
    const double one = 1, zero = 0;
    return cublasDgeam_64(h, CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, &one, X, ldx, &zero, Y, rows, Y, rows);
  }
  static constexpr auto emulate = ozaki::gemm_f64;
};

const PlanKernel* find_plan(const char* name, int dtype) {
  for (int i = 0; i < kPlanCount; ++i)
    if (kPlans[i]->dtype == dtype && std::strcmp(kPlans[i]->name, name) == 0) return kPlans[i];
  return nullptr;
}

const PlanKernel* plan_at(int dtype, int index) {
  for (int i = 0, seen = 0; i < kPlanCount; ++i)
    if (kPlans[i]->dtype == dtype && seen++ == index) return kPlans[i];
  return nullptr;
}

void set_text(char* dst, size_t size, const std::string& s) {
  std::snprintf(dst, size, "%s", s.c_str());
}

bool transposed(cublasOperation_t op) { return op != CUBLAS_OP_N; }

size_t extra_bytes(cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n, int64_t k, size_t element) {
  return (transposed(ta) ? copy_bytes(m, k, element) : 0) + (transposed(tb) ? copy_bytes(k, n, element) : 0);
}

// TF32 or other reduced-precision math on the handle: the schemes do not pay there (docs/gemm.md).
bool reduced_math(cublasHandle_t h) {
  cublasMath_t mode = CUBLAS_DEFAULT_MATH;
  if (cublasGetMathMode(h, &mode) != CUBLAS_STATUS_SUCCESS) return true;
  return (mode & 0xF) == CUBLAS_TF32_TENSOR_OP_MATH;
}

void cublas_plan(tdisc_gemm_plan_t* p, const char* why) {
  std::memcpy(p->name, "cublas", 7);
  p->leaf = 0, p->group = 0, p->workspace_bytes = 0, p->tuned_speedup = 1, p->moduli = 0;
  std::snprintf(p->why, sizeof p->why, "%s", why);
}

// Smallest side the emulation is chosen for without a tuned table: below it the residues and the
// reconstruction (memory-bound, per modulus) outweigh the INT8 products.
constexpr int64_t kEmulationMinSide = 2048;

// With emulation allowed: the plan table's nearest emulated entry ("oz2", "oz2-s1", … with its moduli),
// else Ozaki-II alone ("oz2", the dtype's default moduli) for shapes with every side ≥ 2048 — no scheme
// level unless a table says it pays (bench/ozaki.sh measures it). Returns "" and fills p when it can run
// and fits, else says why not.
std::string choose_emulated(const tdisc_gemm_context* h, int dtype, cublasOperation_t ta, cublasOperation_t tb,
                            int64_t m, int64_t n, int64_t k, tdisc_gemm_plan_t* p, bool explain) {
  const Table* table = find_table(h->tables, h->gpu, h->cublas_version, dtype);
  const Entry e = select_entry(table, m, n, k, true);
  if (e.emulated && e.plan == "cublas") {  // tuned: cuBLAS beat every emulated plan that was as accurate
    cublas_plan(p, explain ? ("accuracy emulated: plan table (" + table->gpu + ") near " + std::to_string(e.m) + "x" +
                              std::to_string(e.n) + "x" + std::to_string(e.k) + ": cuBLAS fastest")
                                 .c_str()
                           : "");
    return "";
  }
  const bool tuned = ozaki::known_emulated(e.plan.c_str());
  std::string name = tuned ? e.plan : "oz2";
  const int moduli = tuned && e.moduli > 0 ? e.moduli : ozaki::default_moduli(dtype, k);
  if (!tuned && std::min({m, n, k}) < kEmulationMinSide) return "emulation allowed, but a side is below 2048";
  std::string why = ozaki::unsupported(name.c_str(), m, n, k, moduli);
  if (!why.empty()) return "emulation allowed, but " + why;
  const size_t extra = extra_bytes(ta, tb, m, n, k, dtype ? 8 : 4);
  size_t need = ozaki::workspace(name.c_str(), m, n, k, moduli) + extra;
  std::string shrunk;  // a level whose operands do not fit the limit: Ozaki-II alone at the same moduli, the same bits
  if (const size_t plain = ozaki::workspace("oz2", m, n, k, moduli) + extra;
      need > limit_of(h) && name != "oz2" && plain <= limit_of(h)) {
    shrunk = " (" + name + "'s workspace exceeds the limit: oz2)";
    name = "oz2", need = plain;
  }
  if (need > limit_of(h)) return "emulation allowed, but its workspace exceeds the limit";
  set_text(p->name, sizeof p->name, name);
  p->leaf = 0, p->group = 0, p->workspace_bytes = need, p->moduli = moduli;
  p->tuned_speedup = tuned && shrunk.empty() ? e.speedup : 0;
  p->why[0] = 0;
  if (explain)
    set_text(p->why, sizeof p->why,
             tuned ? "accuracy emulated: plan table (" + table->gpu + ") near " + std::to_string(e.m) + "x" +
                         std::to_string(e.n) + "x" + std::to_string(e.k) + ": " + e.plan + ", " +
                         std::to_string(moduli) + " moduli" + shrunk
                   : "accuracy emulated: Ozaki-II, " + std::to_string(moduli) + " moduli for " +
                         (dtype ? "f64" : "f32") + " working precision (no emulated entry in the plan table)");
  return "";
}

// Fills p with the schedule of a named plan and leaf under the handle's workspace limit.
// The library's choice for one call. `explain` fills plan.why (tdisc_gemm_choose); the per-call path
// skips it, so that a call that falls back to cuBLAS costs next to nothing more than cuBLAS.
void choose_plan(const tdisc_gemm_context* h, int dtype, cublasOperation_t ta, cublasOperation_t tb, int64_t m,
                 int64_t n, int64_t k, tdisc_gemm_plan_t* p, bool explain, bool allow_emulation = true) {
  const size_t element = dtype ? sizeof(double) : sizeof(float);
  if (m == 0 || n == 0 || k == 0) return cublas_plan(p, "empty product");
  if (reduced_math(h->cublas)) return cublas_plan(p, "handle math mode allows TF32: schemes do not pay");
  p->moduli = 0;
  if (allow_emulation && h->accuracy == TDISC_GEMM_EMULATED) {
    const std::string not_emulated = choose_emulated(h, dtype, ta, tb, m, n, k, p, explain);
    if (not_emulated.empty()) return;
    choose_plan(h, dtype, ta, tb, m, n, k, p, explain, false);
    if (explain) set_text(p->why, sizeof p->why, not_emulated + "; " + p->why);
    return;
  }
  const Table* table = find_table(h->tables, h->gpu, h->cublas_version, dtype);
  const Entry e = select_entry(table, m, n, k);
  const std::string near =
      explain ? std::to_string(e.m) + "x" + std::to_string(e.n) + "x" + std::to_string(e.k) : std::string();
  if (e.plan == "cublas")
    return cublas_plan(p, !explain ? "" : table ? ("plan table: cuBLAS fastest near " + near).c_str() : "no plan table");
  const PlanKernel* kernel = find_plan(e.plan.c_str(), dtype);
  if (!kernel) return cublas_plan(p, ("plan " + e.plan + " is not compiled in (TDISC_GEMM_PLANS)").c_str());
  const Schedule s = choose_schedule(kernel->workspace, m, n, k, e.leaf, kernel->last_rank,
                                     extra_bytes(ta, tb, m, n, k, element), limit_of(h), h->allow_lean, explain);
  if (!s.fits) return cublas_plan(p, s.why.c_str());
  set_text(p->name, sizeof p->name, kernel->name);
  p->leaf = e.leaf, p->group = s.group, p->workspace_bytes = s.plan_bytes + s.extra_bytes, p->tuned_speedup = e.speedup;
  p->why[0] = 0;
  if (explain) set_text(p->why, sizeof p->why, "plan table (" + table->gpu + ") near " + near + "; " + s.why);
}

tdisc_gemm_status_t from_cublas(cublasStatus_t s) {
  return s == CUBLAS_STATUS_SUCCESS ? TDISC_GEMM_SUCCESS : s == CUBLAS_STATUS_INVALID_VALUE ? TDISC_GEMM_BAD_ARGUMENT
                                                                                            : TDISC_GEMM_CUBLAS_ERROR;
}

bool bad_arguments(cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n, int64_t k, int64_t lda,
                   int64_t ldb, int64_t ldc) {
  auto op_ok = [](cublasOperation_t o) { return o == CUBLAS_OP_N || o == CUBLAS_OP_T || o == CUBLAS_OP_C; };
  if (!op_ok(ta) || !op_ok(tb) || m < 0 || n < 0 || k < 0) return true;
  return lda < std::max<int64_t>(1, transposed(ta) ? k : m) || ldb < std::max<int64_t>(1, transposed(tb) ? n : k) ||
         ldc < std::max<int64_t>(1, m);
}

// One call: the given plan (or the library's choice), transposes into workspace, the recursion.
template <class T>
tdisc_gemm_status_t run(tdisc_gemm_context* h, const tdisc_gemm_plan_t* given, cublasOperation_t ta,
                        cublasOperation_t tb, int64_t m, int64_t n, int64_t k, const T* alpha, const T* A, int64_t lda,
                        const T* B, int64_t ldb, const T* beta, T* C, int64_t ldc) {
  if (!h || !alpha || !beta || bad_arguments(ta, tb, m, n, k, lda, ldb, ldc)) return TDISC_GEMM_BAD_ARGUMENT;
  cublasPointerMode_t mode = CUBLAS_POINTER_MODE_HOST;
  if (cublasGetPointerMode(h->cublas, &mode) != CUBLAS_STATUS_SUCCESS) return TDISC_GEMM_CUBLAS_ERROR;
  tdisc_gemm_plan_t plan;
  if (mode == CUBLAS_POINTER_MODE_DEVICE) cublas_plan(&plan, "device pointer mode");
  else if (!given) choose_plan(h, Blas<T>::dtype, ta, tb, m, n, k, &plan, false);
  else plan = *given;
  const PlanKernel* kernel = find_plan(plan.name, Blas<T>::dtype);
  const int moduli = plan.moduli > 0 ? plan.moduli : ozaki::default_moduli(Blas<T>::dtype, k);
  bool emulated = ozaki::is_emulated(plan.name) && ozaki::unsupported(plan.name, m, n, k, moduli).empty() &&
                  ozaki::workspace(plan.name, m, n, k, moduli) + extra_bytes(ta, tb, m, n, k, sizeof(T)) <= limit_of(h);
  if (kernel && given) {  // re-check a caller's plan against the workspace it would need
    const size_t need = kernel->workspace(m, n, k, plan.leaf, plan.group) + extra_bytes(ta, tb, m, n, k, sizeof(T));
    if (need > limit_of(h) || plan.group < 0 || plan.leaf < 0 || plan.leaf > 2) kernel = nullptr;
  }
  if ((!kernel && !emulated) || m == 0 || n == 0 || k == 0)
    return from_cublas(Blas<T>::gemm(h->cublas, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc));

  cudaStream_t stream = nullptr;
  if (cublasGetStream(h->cublas, &stream) != CUBLAS_STATUS_SUCCESS) return TDISC_GEMM_CUBLAS_ERROR;
  const size_t extra = extra_bytes(ta, tb, m, n, k, sizeof(T));
  // emulated: its fastest layout within the limit (emulated implies its least one fits)
  const size_t plan_bytes = emulated ? ozaki::workspace_within(plan.name, m, n, k, moduli, limit_of(h) - extra)
                                     : kernel->workspace(m, n, k, plan.leaf, plan.group);
  char* base = static_cast<char*>(h->user_ws);
  if (!base && extra + plan_bytes > 0) {
    void* p = nullptr;
    if (cudaMallocFromPoolAsync(&p, extra + plan_bytes, h->pool, stream) != cudaSuccess) {
      cudaGetLastError();  // out of memory: cuBLAS needs none
      return from_cublas(Blas<T>::gemm(h->cublas, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc));
    }
    base = static_cast<char*>(p);
  }
  tdisc_gemm_status_t status = TDISC_GEMM_SUCCESS;
  const T* a = A;
  const T* b = B;
  int64_t la = lda, lb = ldb;
  char* next = base;
  if (transposed(ta)) {  // op(A) = A^T, m × k, copied column-major
    status = from_cublas(Blas<T>::transpose(h->cublas, m, k, A, lda, reinterpret_cast<T*>(next)));
    a = reinterpret_cast<T*>(next), la = m, next += copy_bytes(m, k, sizeof(T));
  }
  if (status == TDISC_GEMM_SUCCESS && transposed(tb)) {
    status = from_cublas(Blas<T>::transpose(h->cublas, k, n, B, ldb, reinterpret_cast<T*>(next)));
    b = reinterpret_cast<T*>(next), lb = k, next += copy_bytes(k, n, sizeof(T));
  }
  if (status == TDISC_GEMM_SUCCESS) {
    const int st = emulated ? Blas<T>::emulate(h->cublas, stream, plan.name, moduli, m, n, k, *alpha, a, la, b, lb,
                                               *beta, C, ldc, next, plan_bytes)
                            : kernel->gemm(h->cublas, stream, m, n, k, alpha, a, la, b, lb, beta, C, ldc, next,
                                           plan_bytes, plan.leaf, plan.group);
    status = st == 0 ? TDISC_GEMM_SUCCESS : st == 2 ? TDISC_GEMM_CUBLAS_ERROR : st == 3 ? TDISC_GEMM_CUDA_ERROR
                                                                                          : TDISC_GEMM_BAD_ARGUMENT;
  }
  if (!h->user_ws && base) cudaFreeAsync(base, stream);
  return status;
}

std::string read_text(const char* path, bool& ok) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  ok = static_cast<bool>(in) || in.eof();
  return ss.str();
}

}  // namespace

extern "C" {

tdisc_gemm_status_t tdisc_gemm_create(tdisc_gemm_handle_t* out, cublasHandle_t cublas) {
  if (!out) return TDISC_GEMM_BAD_ARGUMENT;
  *out = nullptr;
  auto* h = new tdisc_gemm_context;
  h->tables = parse_tables(kBuiltinTables);
  int dev = 0;
  cudaDeviceProp prop{};
  size_t free_bytes = 0, total = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&prop, dev) != cudaSuccess ||
      cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) {
    delete h;
    return TDISC_GEMM_CUDA_ERROR;
  }
  h->gpu = prop.name;
  h->limit = free_bytes / 4 * 3;
  if (!cublas) {
    if (cublasCreate(&h->cublas) != CUBLAS_STATUS_SUCCESS) {
      delete h;
      return TDISC_GEMM_CUBLAS_ERROR;
    }
    h->owns_cublas = true;
  } else {
    h->cublas = cublas;
  }
  cublasGetVersion(h->cublas, &h->cublas_version);
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = dev;
  uint64_t keep = UINT64_MAX;  // keep freed blocks for the next call instead of returning them
  if (cudaMemPoolCreate(&h->pool, &props) != cudaSuccess ||
      cudaMemPoolSetAttribute(h->pool, cudaMemPoolAttrReleaseThreshold, &keep) != cudaSuccess) {
    tdisc_gemm_destroy(h);
    return TDISC_GEMM_CUDA_ERROR;
  }
  if (const char* path = std::getenv("TDISC_GEMM_PLANS"); path && *path) {
    const tdisc_gemm_status_t s = tdisc_gemm_load_plan_table(h, path);
    if (s != TDISC_GEMM_SUCCESS) {
      tdisc_gemm_destroy(h);
      return s;
    }
  }
  *out = h;
  return TDISC_GEMM_SUCCESS;
}

tdisc_gemm_status_t tdisc_gemm_destroy(tdisc_gemm_handle_t h) {
  if (!h) return TDISC_GEMM_BAD_ARGUMENT;
  if (h->pool) {
    cudaDeviceSynchronize();  // stream-ordered frees still pending
    cudaMemPoolDestroy(h->pool);
  }
  if (h->owns_cublas) cublasDestroy(h->cublas);
  delete h;
  return TDISC_GEMM_SUCCESS;
}

cublasHandle_t tdisc_gemm_cublas(tdisc_gemm_handle_t h) { return h ? h->cublas : nullptr; }

tdisc_gemm_status_t tdisc_gemm_set_workspace(tdisc_gemm_handle_t h, void* ptr, size_t bytes) {
  if (!h || (!ptr && bytes)) return TDISC_GEMM_BAD_ARGUMENT;
  h->user_ws = ptr, h->user_bytes = ptr ? bytes : 0;
  return TDISC_GEMM_SUCCESS;
}

tdisc_gemm_status_t tdisc_gemm_set_workspace_limit(tdisc_gemm_handle_t h, size_t limit) {
  if (!h) return TDISC_GEMM_BAD_ARGUMENT;
  h->limit = limit;
  return TDISC_GEMM_SUCCESS;
}

tdisc_gemm_status_t tdisc_gemm_set_lean(tdisc_gemm_handle_t h, int allow) {
  if (!h) return TDISC_GEMM_BAD_ARGUMENT;
  h->allow_lean = allow != 0;
  return TDISC_GEMM_SUCCESS;
}

tdisc_gemm_status_t tdisc_gemm_set_accuracy(tdisc_gemm_handle_t h, tdisc_gemm_accuracy_t accuracy) {
  if (!h || (accuracy != TDISC_GEMM_NATIVE && accuracy != TDISC_GEMM_EMULATED)) return TDISC_GEMM_BAD_ARGUMENT;
  h->accuracy = accuracy;
  return TDISC_GEMM_SUCCESS;
}

tdisc_gemm_status_t tdisc_gemm_load_plan_table(tdisc_gemm_handle_t h, const char* path) {
  if (!h || !path) return TDISC_GEMM_BAD_ARGUMENT;
  bool ok = false;
  const std::string text = read_text(path, ok);
  TableSet set = parse_tables(text);
  if (!ok || !set.error.empty()) {
    std::fprintf(stderr, "tdisc_gemm: %s: %s\n", path, ok ? set.error.c_str() : "cannot read");
    return TDISC_GEMM_TABLE_ERROR;
  }
  h->tables = set;
  return TDISC_GEMM_SUCCESS;
}

tdisc_gemm_status_t tdisc_gemm_choose(tdisc_gemm_handle_t h, tdisc_gemm_dtype_t dtype, cublasOperation_t ta,
                                      cublasOperation_t tb, int64_t m, int64_t n, int64_t k, tdisc_gemm_plan_t* p) {
  if (!h || !p || (dtype != TDISC_GEMM_F32 && dtype != TDISC_GEMM_F64) || m < 0 || n < 0 || k < 0)
    return TDISC_GEMM_BAD_ARGUMENT;
  std::memset(p, 0, sizeof *p);
  choose_plan(h, dtype, ta, tb, m, n, k, p, true);
  return TDISC_GEMM_SUCCESS;
}

tdisc_gemm_status_t tdisc_gemm_sgemm(tdisc_gemm_handle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m,
                                     int64_t n, int64_t k, const float* alpha, const float* A, int64_t lda,
                                     const float* B, int64_t ldb, const float* beta, float* C, int64_t ldc) {
  return run<float>(h, nullptr, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
tdisc_gemm_status_t tdisc_gemm_dgemm(tdisc_gemm_handle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m,
                                     int64_t n, int64_t k, const double* alpha, const double* A, int64_t lda,
                                     const double* B, int64_t ldb, const double* beta, double* C, int64_t ldc) {
  return run<double>(h, nullptr, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
tdisc_gemm_status_t tdisc_gemm_sgemm_plan(tdisc_gemm_handle_t h, const tdisc_gemm_plan_t* p, cublasOperation_t ta,
                                          cublasOperation_t tb, int64_t m, int64_t n, int64_t k, const float* alpha,
                                          const float* A, int64_t lda, const float* B, int64_t ldb, const float* beta,
                                          float* C, int64_t ldc) {
  if (!p) return TDISC_GEMM_BAD_ARGUMENT;
  return run<float>(h, p, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
tdisc_gemm_status_t tdisc_gemm_dgemm_plan(tdisc_gemm_handle_t h, const tdisc_gemm_plan_t* p, cublasOperation_t ta,
                                          cublasOperation_t tb, int64_t m, int64_t n, int64_t k, const double* alpha,
                                          const double* A, int64_t lda, const double* B, int64_t ldb,
                                          const double* beta, double* C, int64_t ldc) {
  if (!p) return TDISC_GEMM_BAD_ARGUMENT;
  return run<double>(h, p, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

int tdisc_gemm_plan_count(tdisc_gemm_dtype_t dtype) {
  int n = 0;
  for (int i = 0; i < kPlanCount; ++i) n += kPlans[i]->dtype == (int)dtype;
  return n;
}
const char* tdisc_gemm_plan_name(tdisc_gemm_dtype_t dtype, int index) {
  const PlanKernel* k = plan_at(dtype, index);
  return k ? k->name : nullptr;
}
const char* tdisc_gemm_plan_describe(tdisc_gemm_dtype_t dtype, int index) {
  const PlanKernel* k = plan_at(dtype, index);
  return k ? k->describe : nullptr;
}

tdisc_gemm_status_t tdisc_gemm_device(tdisc_gemm_handle_t h, char* gpu, size_t gpu_size, int* cublas_version) {
  if (!h) return TDISC_GEMM_BAD_ARGUMENT;
  if (gpu && gpu_size) set_text(gpu, gpu_size, h->gpu);
  if (cublas_version) *cublas_version = h->cublas_version;
  return TDISC_GEMM_SUCCESS;
}

const char* tdisc_gemm_status_string(tdisc_gemm_status_t s) {
  switch (s) {
    case TDISC_GEMM_SUCCESS: return "success";
    case TDISC_GEMM_BAD_ARGUMENT: return "bad argument";
    case TDISC_GEMM_CUBLAS_ERROR: return "cuBLAS error";
    case TDISC_GEMM_CUDA_ERROR: return "CUDA error";
    case TDISC_GEMM_TABLE_ERROR: return "plan table cannot be read";
    case TDISC_GEMM_NOT_FOUND: return "no such plan";
  }
  return "unknown status";
}

}  // extern "C"
