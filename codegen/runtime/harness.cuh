// tdisc measurement harness (hand-written: codegen/runtime/harness.cuh). One method for every GPU
// benchmark program (DESIGN §6, CUTLASS's profiler guide): tdisc bench's bench_main.cu (which tdisc
// bench writes beside it), libtdisc_gemm's tools (codegen/gemm/tools) and bench/gemmul8_driver.cu.
//   - checked CUDA and cuBLAS calls (CK, CB): the message names file and line, exit 1;
//   - device buffers that free themselves (DeviceBuffer);
//   - counter-based fills (any seed reproduces, no state): uniform [-1, 1), small integers, a constant,
//     a wide exponent range (the kernels of test_inputs.cuh, which libtdisc_gemm's tdisc_gemm_time
//     and tdisc_gemm_error use too);
//   - the exact check: C compared with cuBLAS's element by element, padding included, on small
//     integers with C poisoned by NaN when beta = 0 (ExactCount);
//   - the relative Frobenius error of sampled rows against a double-double reference (SampledReference);
//   - event timing: warm-up, input sets rotated beyond 3× L2, median and spread (EventTimer, median);
//   - the provenance of one JSON row: commit (TDISC_COMMIT), command line, date and load (RunProvenance),
//     and the rows themselves (JsonRows).
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <utility>
#include <vector>

#include "test_inputs.cuh"  // the fill, wide-range and reference kernels, shared with libtdisc_gemm's own measurements

namespace harness {

namespace inputs = tdisc_gemm::inputs;

// ---- checked calls ----
[[noreturn]] inline void die(const char* what, const char* file, int line) {
  std::fprintf(stderr, "tdisc: %s:%d: %s\n", file, line, what);
  std::exit(1);
}
#define CK(x)                                                                          \
  do {                                                                                 \
    cudaError_t e_ = (x);                                                              \
    if (e_ != cudaSuccess) ::harness::die(cudaGetErrorString(e_), __FILE__, __LINE__); \
  } while (0)
#define CB(x)                                                                                     \
  do {                                                                                            \
    cublasStatus_t s_ = (x);                                                                      \
    if (s_ != CUBLAS_STATUS_SUCCESS) ::harness::die(cublasGetStatusString(s_), __FILE__, __LINE__); \
  } while (0)

inline bool gpu_present() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

// ---- device memory: count elements of T, freed with the object (move-only) ----
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(long long count) : count_(count) {
    if (count > 0) CK(cudaMalloc(&p_, (size_t)count * sizeof(T)));
  }
  ~DeviceBuffer() {
    if (p_) cudaFree(p_);
  }
  DeviceBuffer(DeviceBuffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(count_, o.count_);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  T* get() const { return p_; }
  long long count() const { return count_; }
  size_t bytes() const { return (size_t)count_ * sizeof(T); }
  std::vector<T> to_host() const {
    std::vector<T> h((size_t)count_);
    if (count_) CK(cudaMemcpy(h.data(), p_, bytes(), cudaMemcpyDeviceToHost));
    return h;
  }
  void copy_from(const DeviceBuffer& o) { CK(cudaMemcpy(p_, o.p_, std::min(bytes(), o.bytes()), cudaMemcpyDeviceToDevice)); }

 private:
  T* p_ = nullptr;
  long long count_ = 0;
};

// ---- fills: counter-based random numbers ----
enum class Fill { Uniform = 0, SmallInt = 1, Constant = 2 };  // [-1, 1); integers in [-2, 2]; the value

template <class T>
void fill(T* p, long long count, unsigned long long seed, Fill mode, T value = T(0), cudaStream_t s = nullptr) {
  inputs::fill<T><<<1024, 256, 0, s>>>(p, count, seed, (int)mode, value);
  CK(cudaGetLastError());
}
template <class T>
void fill(DeviceBuffer<T>& b, unsigned long long seed, Fill mode, T value = T(0), cudaStream_t s = nullptr) {
  fill(b.get(), b.count(), seed, mode, value, s);
}
template <class T>
void poison(DeviceBuffer<T>& b, cudaStream_t s = nullptr) {  // NaN: an element never written stays NaN
  fill(b.get(), b.count(), 0, Fill::Constant, T(NAN), s);
}
// A wide exponent range: each element times 2^e, e uniform in [-16, 16] (after a Uniform fill).
template <class T>
void widen(DeviceBuffer<T>& b, unsigned long long seed) {
  inputs::widen<T><<<1024, 256>>>(b.get(), b.count(), seed);
  CK(cudaGetLastError());
}
// count elements uniform in [-1, 1) from seed, widened (wide_seed) when wide.
template <class T>
DeviceBuffer<T> uniform_input(long long count, unsigned long long seed, bool wide, unsigned long long wide_seed) {
  DeviceBuffer<T> x(count);
  fill(x, seed, Fill::Uniform);
  if (wide) widen(x, wide_seed);
  return x;
}

// ---- the exact check: got against want (cuBLAS) over a column-major ld × cols array ----
// Inside the rows × cols matrix every element must be equal bit for bit (NaN where cuBLAS has NaN);
// in the padding (rows ≤ i < ld) got must equal before, the array as it was before the call.
struct ExactCount {
  long long differ = 0, nonzero = 0, inside = 0;
  bool ok() const { return differ == 0 && nonzero > inside / 2; }  // mostly non-zero: the inputs mattered
};
template <class T>
ExactCount count_exact(const std::vector<T>& want, const std::vector<T>& got, const std::vector<T>& before,
                       long long ld, long long rows) {
  ExactCount n;
  for (size_t q = 0; q < want.size(); ++q) {
    const bool in = (long long)q % ld < rows;
    const T& ref = in ? want[q] : before[q];
    n.inside += in;
    n.nonzero += in && want[q] != 0;
    n.differ += std::isnan(ref) ? !std::isnan(got[q]) : ref != got[q];
  }
  return n;
}

// ---- sampled double-double reference: rows of op(A)·op(B), column-major (test_inputs.cuh) ----
using inputs::kSample;

// The reference of kSample rows (picked from the seed) of an M × N product; error(C) is the relative
// Frobenius error of those rows of C, NaN when one of their elements was left unwritten (poisoned).
class SampledReference {
 public:
  template <class T>
  SampledReference(const T* A, long long lda, bool ta, const T* B, long long ldb, bool tb, long long M, long long N,
                   long long K, unsigned long long seed, cudaStream_t s = nullptr)
      : n_(N), rows_(kSample), ref_dev_(kSample * N), got_dev_(kSample * N) {
    const std::vector<long long> hrows = inputs::sample_rows(M, seed);
    CK(cudaMemcpy(rows_.get(), hrows.data(), kSample * sizeof(long long), cudaMemcpyHostToDevice));
    inputs::reference_rows<T><<<blocks(), kThreads, 0, s>>>(A, lda, ta, B, ldb, tb, N, K, rows_.get(), ref_dev_.get());
    CK(cudaGetLastError());
    ref_ = ref_dev_.to_host();
  }
  template <class T>
  double error(const T* C, long long ldc, cudaStream_t s = nullptr) {
    inputs::gather_rows<T><<<blocks(), kThreads, 0, s>>>(C, ldc, n_, rows_.get(), got_dev_.get());
    CK(cudaGetLastError());
    const std::vector<double> got = got_dev_.to_host();
    for (double g : got)
      if (std::isnan(g)) return NAN;
    return inputs::sampled_error(got, ref_);
  }

 private:
  static constexpr int kThreads = 128;
  unsigned blocks() const { return (unsigned)((n_ + kThreads - 1) / kThreads); }
  long long n_;
  DeviceBuffer<long long> rows_;
  DeviceBuffer<double> ref_dev_, got_dev_;
  std::vector<double> ref_;
};

// ---- timing ----
// Input sets of set_bytes each, enough of them to exceed 3× L2 (at least at_least), so that a timed
// call never finds its operands in cache from the call before.
inline int rotation_sets(size_t set_bytes, size_t l2_bytes, int at_least = 1) {
  return (int)std::max<size_t>((size_t)at_least, (3 * l2_bytes + set_bytes - 1) / set_bytes);
}
inline size_t l2_bytes() {
  int dev = 0, l2 = 0;
  CK(cudaGetDevice(&dev));
  CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
  return (size_t)l2;
}
// Milliseconds of what f enqueues on stream s, between two events (synchronised).
class EventTimer {
 public:
  EventTimer() {
    CK(cudaEventCreate(&start_));
    CK(cudaEventCreate(&stop_));
  }
  ~EventTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;
  template <class F>
  float time(cudaStream_t s, F&& f) {
    CK(cudaEventRecord(start_, s));
    f();
    CK(cudaEventRecord(stop_, s));
    CK(cudaEventSynchronize(stop_));
    CK(cudaGetLastError());
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

 private:
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};
template <class V>
double median(std::vector<V> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
template <class V>
double fastest(const std::vector<V>& v) { return v.empty() ? NAN : *std::min_element(v.begin(), v.end()); }
template <class V>
double slowest(const std::vector<V>& v) { return v.empty() ? NAN : *std::max_element(v.begin(), v.end()); }
template <class V>
double spread(const std::vector<V>& v) { return (slowest(v) - fastest(v)) / median(v); }  // (max − min) / median
inline double tflops(long long M, long long N, long long K, double ms) { return 2.0 * M * N * K / (ms * 1e-3) / 1e12; }

// ---- provenance of a JSON row ----
// The commit (TDISC_COMMIT, which the bench scripts set; empty when unset), the command line, the UTC
// date and the load average.
struct RunProvenance {
  std::string command, date, load = "?", commit;
};
inline std::string json_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\', out += c;
    else if ((unsigned char)c < 0x20) out += ' ';
    else out += c;
  }
  return out;
}
inline RunProvenance run_provenance(int argc, char** argv) {
  RunProvenance p;
  for (int i = 0; i < argc; ++i) p.command += (i ? " " : "") + std::string(argv[i]);
  if (std::FILE* la = std::fopen("/proc/loadavg", "r")) {
    char buf[64] = {0};
    if (std::fgets(buf, sizeof buf, la)) p.load = std::string(buf, std::strcspn(buf, "\n"));
    std::fclose(la);
  }
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  p.date = date;
  if (const char* c = std::getenv("TDISC_COMMIT")) p.commit = c;
  return p;
}
inline std::string format(const char* f, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, f);
  std::vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}
// Rows of a JSON array, one object each ("{BODY}"), flushed as they come.
struct JsonRows {
  std::FILE* f;
  bool first = true;
  void row(const std::string& body) {
    std::fprintf(f, "%s    {%s}", first ? "" : ",\n", body.c_str());
    std::fflush(f);
    first = false;
  }
};
// The members a JSON row or document opens with: "commit", "command", "date", "loadavg" (no braces).
inline void json_provenance(std::FILE* json, const RunProvenance& p) {
  std::fprintf(json, "\"commit\": \"%s\", \"command\": \"%s\", \"date\": \"%s\", \"loadavg\": \"%s\"",
               json_escape(p.commit).c_str(), json_escape(p.command).c_str(), p.date.c_str(), json_escape(p.load).c_str());
}

}  // namespace harness
