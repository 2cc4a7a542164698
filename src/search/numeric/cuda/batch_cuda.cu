// The CUDA batch: every slot is one thread block that runs kSweepsPerLaunch sweeps of its own
// restart per launch (slots advance independently; finished slots simply return), factors resident
// in shared memory between the sweeps of a launch and in device memory between launches.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "src/search/numeric/batch_device.hpp"
#include "src/search/numeric/cuda/kernels.cuh"

namespace tdisc::search::numeric {

namespace cuda {

// G = (YᴴY)∘(ZᴴZ) + diag(damp(r)), lower triangle (G is Hermitian); G(r,s) at G[r·R+s]. damp(r)
// is one value for a whole factor (ALS) or one per term (the snap phase's held entries of a row).
template <class S, class Damp>
__device__ void normal_matrix(const DeviceTensor& t, int q, const S* Y, const S* Z, S* G, Damp damp) {
  const int R = t.rank, J = t.d[(q + 1) % 3], K = t.d[(q + 2) % 3];
  for (int e = threadIdx.x; e < R * R; e += blockDim.x) {
    const int r = e / R, s = e % R;
    if (s > r) continue;
    S gy = zero<S>(), gz = zero<S>();
    for (int j = 0; j < J; ++j) gy += cj(Y[j * R + r]) * Y[j * R + s];
    for (int k = 0; k < K; ++k) gz += cj(Z[k * R + r]) * Z[k * R + s];
    S g = gy * gz;
    if (r == s) g += from_real(damp(r), g);
    G[e] = g;
  }
}

// Right-hand sides in place: X(x,r) ← Σ_{(x,y,z)∈T} conj(Y(y,r)·Z(z,r)) + lattice·nearest(X(x,r)).
template <class S>
__device__ void right_hand_sides(const DeviceTensor& t, int q, S* X, const S* Y, const S* Z, double lattice) {
  const int R = t.rank;
  for (int e = threadIdx.x; e < t.d[q] * R; e += blockDim.x) {
    const int x = e / R, r = e % R;
    S m = zero<S>();
    for (int k = t.offsets[q][x]; k < t.offsets[q][x + 1]; ++k) {
      int2 yz = t.pairs[q][k];
      m += cj(Y[yz.x * R + r] * Z[yz.y * R + r]);
    }
    if (lattice > 0) m += lattice * nearest_of(t.lattice, X[e]);
    X[e] = m;
  }
}

// In-place LDLᴴ of the lower triangle without scaling: afterwards G(i,j) = L(i,j)·d_j for i > j and
// G(j,j) = d_j. One barrier per column (the trailing update of column j only writes columns > j).
template <class S>
__device__ void factorise(S* G, int R) {
  for (int j = 0; j < R; ++j) {
    const double d = re(G[j * R + j]);
    const int m = R - j - 1;
    for (int e = threadIdx.x; e < m * m; e += blockDim.x) {
      const int i = j + 1 + e / m, k = j + 1 + e % m;
      if (k > i) continue;
      G[i * R + k] -= div_real(G[i * R + j] * cj(G[k * R + j]), d);
    }
    __syncthreads();
  }
}

// Solves G x_row = b_row for every row of X (I × R) with the factorisation above.
template <class S>
__device__ void solve_rows(const S* G, S* X, int I, int R) {
  for (int j = 0; j < R; ++j) {  // L y = b (L unit lower: L(i,j) = G(i,j)/d_j)
    const int m = R - j - 1;
    const double d = re(G[j * R + j]);
    for (int e = threadIdx.x; e < I * m; e += blockDim.x) {
      const int x = e / m, i = j + 1 + e % m;
      X[x * R + i] -= div_real(G[i * R + j] * X[x * R + j], d);
    }
    __syncthreads();
  }
  for (int e = threadIdx.x; e < I * R; e += blockDim.x) X[e] = div_real(X[e], re(G[(e % R) * (R + 1)]));
  __syncthreads();
  for (int j = R - 1; j > 0; --j) {  // Lᴴ x = D⁻¹y (Lᴴ(i,j) = conj(G(j,i))/d_i)
    for (int e = threadIdx.x; e < I * j; e += blockDim.x) {
      const int x = e / j, i = e % j;
      X[x * R + i] -= div_real(cj(G[j * R + i]) * X[x * R + j], re(G[i * R + i]));
    }
    __syncthreads();
  }
}

__device__ inline double lattice_distance(int l, double v) { return fabs(v - nearest_of(l, v)); }
__device__ inline double lattice_distance(int l, cplx v) { return sqrt(abs2(v - nearest_of(l, v))); }

// The start of a snap-phase sweep: every entry of U and V within `tolerance` of its nearest lattice
// point is set to it (as batch_reference.cpp's hold_on_lattice), so U's update already sees V's
// held entries on the lattice; update_factor_held then keeps them there.
template <class S>
__device__ void hold_entries(const DeviceTensor& t, S* F[3], double tolerance) {
  const long n = static_cast<long>(t.d[0] + t.d[1]) * t.rank;  // U then V, contiguous
  for (long e = threadIdx.x; e < n; e += blockDim.x)
    if (lattice_distance(t.lattice, F[0][e]) <= tolerance) F[0][e] = nearest_of(t.lattice, F[0][e]);
  __syncthreads();
}

// The snap phase's update of U or V: row by row, an entry within `tolerance` of its nearest lattice
// point is held there by the weight c.snap_fix_weight, the others get the soft pull w.lattice; each
// row has its own normal matrix G + diag(reg + weights), factored in turn in the one G buffer.
template <class S>
__device__ void update_factor_held(const DeviceTensor& t, int q, S* F[3], S* G, double* weight, StepWeights w,
                                   double tolerance, double fix_weight, double clip) {
  S* X = F[q];
  const S* Y = F[(q + 1) % 3];
  const S* Z = F[(q + 2) % 3];
  const int R = t.rank;
  for (int x = 0; x < t.d[q]; ++x) {
    S* row = X + x * R;
    for (int r = threadIdx.x; r < R; r += blockDim.x)
      weight[r] = lattice_distance(t.lattice, row[r]) <= tolerance ? fix_weight : w.lattice;
    __syncthreads();
    normal_matrix(t, q, Y, Z, G, [&](int r) { return w.reg + weight[r]; });
    for (int r = threadIdx.x; r < R; r += blockDim.x) {
      S m = zero<S>();
      for (int k = t.offsets[q][x]; k < t.offsets[q][x + 1]; ++k) {
        int2 yz = t.pairs[q][k];
        m += cj(Y[yz.x * R + r] * Z[yz.y * R + r]);
      }
      row[r] = m + weight[r] * nearest_of(t.lattice, row[r]);
    }
    __syncthreads();
    factorise(G, R);
    solve_rows(G, row, 1, R);
    if (clip > 0)  // the free entries only, as als.cpp
      for (int r = threadIdx.x; r < R; r += blockDim.x)
        if (weight[r] < fix_weight) row[r] = clip_of(row[r], clip);
    __syncthreads();
  }
}

template <class S>
__device__ void update_factor(const DeviceTensor& t, int q, S* F[3], S* G, StepWeights w, double clip) {
  S* X = F[q];
  const S* Y = F[(q + 1) % 3];
  const S* Z = F[(q + 2) % 3];
  const double damp = w.reg + w.lattice;
  normal_matrix(t, q, Y, Z, G, [=](int) { return damp > 0 ? damp : 1e-12; });
  right_hand_sides(t, q, X, Y, Z, w.lattice);
  __syncthreads();
  factorise(G, t.rank);
  solve_rows(G, X, t.d[q], t.rank);
  if (clip > 0)
    for (int e = threadIdx.x; e < t.d[q] * t.rank; e += blockDim.x) X[e] = clip_of(X[e], clip);
  __syncthreads();
}

// Rescales each term so that its three factor columns have equal norms (als.cpp balance_terms).
template <class S>
__device__ void balance(const DeviceTensor& t, S* F[3]) {
  const int R = t.rank;
  for (int r = threadIdx.x; r < R; r += blockDim.x) {
    double n[3];
    for (int q = 0; q < 3; ++q) {
      double s = 0;
      for (int i = 0; i < t.d[q]; ++i) s += abs2(F[q][i * R + r]);
      n[q] = sqrt(s);
    }
    if (n[0] == 0 || n[1] == 0 || n[2] == 0) continue;
    const double g = cbrt(n[0] * n[1] * n[2]);
    for (int q = 0; q < 3; ++q)
      for (int i = 0; i < t.d[q]; ++i) F[q][i * R + r] = (g / n[q]) * F[q][i * R + r];
  }
  __syncthreads();
}

template <class S>
__device__ void add_noise(S* all, long entries, unsigned long long seed, long sweep, double sigma) {
  for (long e = threadIdx.x; e < entries; e += blockDim.x) {
    double g0, g1;
    schedule_normal2(seed, sweep, e, g0, g1);
    add_noise_to(all[e], sigma, g0, g1);
  }
  __syncthreads();
}

// ‖T − Σ_r f(a_r) ⊗ f(b_r) ⊗ f(c_r)‖²_F, dense over (a, b, c), with f applied to every factor entry.
template <class S, class Entry>
__device__ double residual_sq_of(const DeviceTensor& t, S* F[3], double* red, Entry f) {
  const int R = t.rank;
  double acc = 0;
  for (int e = threadIdx.x; e < t.d[0] * t.d[1]; e += blockDim.x) {
    const int a = e / t.d[1], b = e % t.d[1], c1 = t.c_of[e];
    for (int c = 0; c < t.d[2]; ++c) {
      S v = zero<S>();
      for (int r = 0; r < R; ++r) v += f(F[0][a * R + r]) * f(F[1][b * R + r]) * f(F[2][c * R + r]);
      if (c == c1) v -= from_real(1.0, v);
      acc += abs2(v);
    }
  }
  return block_sum(acc, red);
}

// ‖T − Σ_r a_r ⊗ b_r ⊗ c_r‖²_F.
template <class S>
__device__ double residual_sq(const DeviceTensor& t, S* F[3], double* red) {
  return residual_sq_of(t, F, red, [](S x) { return x; });
}

// ‖T − Σ_r snap(a_r) ⊗ snap(b_r) ⊗ snap(c_r)‖²_F: every factor entry replaced by its nearest lattice
// point (handover.cpp rounded_residual on the host). Lattice values are multiples of ½, so each term
// is a multiple of 1/64 and the sum is exact in double: 0 here means the snapped factors are a scheme.
template <class S>
__device__ double snapped_residual_sq(const DeviceTensor& t, S* F[3], double* red) {
  const int lattice = t.lattice;
  return residual_sq_of(t, F, red, [lattice](S x) { return nearest_of(lattice, x); });
}

template <class S>
__device__ double norm_sq(const S* all, long entries, double* red) {
  double acc = 0;
  for (long e = threadIdx.x; e < entries; e += blockDim.x) acc += abs2(all[e]);
  return block_sum(acc, red);
}

// At most 64 registers (256 threads, 4 blocks per SM): the snap phase's code raised the kernel from
// 56 to 72 registers and 3x3:23 from 9 to 7 restarts per SM; with the bound ptxas fits it in 64
// without spills (8 per SM for 3x3:23, 4 for 2x4x5:32 as before; 4x4:48 stays limited by shared memory).
template <class S>
__global__ void __launch_bounds__(256, 4) advance_kernel(DeviceTensor t, BatchSchedule c, SlotState* states, S* factors, S* relaxed, int sweeps) {
  extern __shared__ double smem[];
  __shared__ alignas(SlotState) unsigned char st_storage[sizeof(SlotState)];  // no dynamic init in __shared__
  SlotState& st = *reinterpret_cast<SlotState*>(st_storage);
  const int R = t.rank;
  const long entries = static_cast<long>(t.d[0] + t.d[1] + t.d[2]) * R;
  S* F[3];
  F[0] = reinterpret_cast<S*>(smem);
  F[1] = F[0] + t.d[0] * R;
  F[2] = F[1] + t.d[1] * R;
  S* G = F[2] + t.d[2] * R;
  double* red = reinterpret_cast<double*>(G + R * R);
  if (threadIdx.x == 0) st = states[blockIdx.x];
  __syncthreads();
  if (!slot_active(st)) return;
  S* mine = factors + blockIdx.x * entries;
  for (long e = threadIdx.x; e < entries; e += blockDim.x) F[0][e] = mine[e];
  __syncthreads();
  for (int k = 0; k < sweeps && slot_active(st); ++k) {
    const StepWeights w = slot_weights(st, c);
    const double tolerance = slot_snap_tolerance(st, c);
    if (tolerance >= 0) hold_entries(t, F, tolerance);
    for (int q = 0; q < 3; ++q) {
      if (tolerance >= 0 && q < 2) update_factor_held(t, q, F, G, red, w, tolerance, c.snap_fix_weight, c.clip);
      else update_factor(t, q, F, G, w, c.clip);
    }
    if (slot_balances(st, c)) balance(t, F);
    const double sigma = slot_noise(st, c);
    if (sigma > 0) add_noise(F[0], entries, st.seed, st.total, sigma);
    __syncthreads();
    if (threadIdx.x == 0) {
      st.noise_events += sigma > 0 ? 1 : 0;
      ++st.step;
      ++st.total;
    }
    __syncthreads();
    if (slot_check_due(st, c)) {
      const int was = st.phase;
      const double r2 = residual_sq(t, F, red), n2 = norm_sq(F[0], entries, red);
      const double s2 = slot_wants_snapped(st) ? snapped_residual_sq(t, F, red) : INFINITY;
      if (threadIdx.x == 0) slot_after_check(st, c, sqrt(r2), sqrt(n2), sqrt(s2));
      __syncthreads();
      if (was == kRelax && st.phase != kRelax)  // the relaxed point, kept for the CPU if the snap pull fails
        for (long e = threadIdx.x; e < entries; e += blockDim.x) relaxed[blockIdx.x * entries + e] = F[0][e];
    }
  }
  for (long e = threadIdx.x; e < entries; e += blockDim.x) mine[e] = F[0][e];
  if (threadIdx.x == 0) states[blockIdx.x] = st;
}

// One-sweep entry for tests (advance_kernel with a fixed phase would also move the schedule); writes
// per slot the residual before, after, and the snapped residual after the sweep.
template <class S>
__global__ void sweep_kernel(DeviceTensor t, S* factors, double reg, double lattice, double clip, double tolerance,
                             double fix_weight, double* residuals) {
  extern __shared__ double smem[];
  const int R = t.rank;
  const long entries = static_cast<long>(t.d[0] + t.d[1] + t.d[2]) * R;
  S* F[3];
  F[0] = reinterpret_cast<S*>(smem);
  F[1] = F[0] + t.d[0] * R;
  F[2] = F[1] + t.d[1] * R;
  S* G = F[2] + t.d[2] * R;
  double* red = reinterpret_cast<double*>(G + R * R);
  S* mine = factors + blockIdx.x * entries;
  for (long e = threadIdx.x; e < entries; e += blockDim.x) F[0][e] = mine[e];
  __syncthreads();
  const double before = sqrt(residual_sq(t, F, red));
  if (tolerance >= 0) hold_entries(t, F, tolerance);
  for (int q = 0; q < 3; ++q) {
    if (tolerance >= 0 && q < 2) update_factor_held(t, q, F, G, red, StepWeights{reg, lattice}, tolerance, fix_weight, clip);
    else update_factor(t, q, F, G, StepWeights{reg, lattice}, clip);
  }
  const double after = sqrt(residual_sq(t, F, red)), snapped = sqrt(snapped_residual_sq(t, F, red));
  if (threadIdx.x == 0) {
    residuals[3 * blockIdx.x] = before;
    residuals[3 * blockIdx.x + 1] = after;
    residuals[3 * blockIdx.x + 2] = snapped;
  }
  for (long e = threadIdx.x; e < entries; e += blockDim.x) mine[e] = F[0][e];
}

}  // namespace cuda

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(e));
}

int threads_for(const BatchProblem& p) { return p.rank * p.rank >= 1024 ? 256 : 128; }

size_t shared_bytes(const BatchProblem& p) {
  const size_t s = p.complex ? 16 : 8;
  return (static_cast<size_t>(p.dims[0] + p.dims[1] + p.dims[2]) * p.rank + static_cast<size_t>(p.rank) * p.rank) * s +
         static_cast<size_t>(threads_for(p)) * 8;
}

template <class S>
const void* kernel_of() { return reinterpret_cast<const void*>(&cuda::advance_kernel<S>); }
template <class S>
const void* sweep_kernel_of() { return reinterpret_cast<const void*>(&cuda::sweep_kernel<S>); }

int select_device(int device) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0)
    throw UsageError(std::string("--device cuda: no CUDA device here (") +
                     (e != cudaSuccess ? cudaGetErrorString(e) : "cudaGetDeviceCount found none") + ")");
  if (device >= count)
    throw UsageError("--device cuda:" + std::to_string(device) + ": no such device (this machine has " +
                     std::to_string(count) + ")");
  return device;
}

CudaProbe probe(const BatchProblem& p, int device, long slots) {
  select_device(device);
  check(cudaSetDevice(device), "cudaSetDevice");
  // The driver thread sleeps while a launch runs (the rounding threads need the cores). Refused once
  // the context exists (a second batch in the same process): then the first setting stands.
  if (cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync) != cudaSuccess) cudaGetLastError();
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
  const size_t smem = shared_bytes(p);
  if (smem > prop.sharedMemPerBlockOptin)
    throw UsageError("--device cuda: rank " + std::to_string(p.rank) + " needs " + std::to_string(smem) +
                     " bytes of shared memory per restart; this device has " + std::to_string(prop.sharedMemPerBlockOptin) +
                     " (run it on the CPU with --device cpu)");
  const void* k = p.complex ? kernel_of<cuda::cplx>() : kernel_of<double>();
  const void* sk = p.complex ? sweep_kernel_of<cuda::cplx>() : sweep_kernel_of<double>();
  for (const void* f : {k, sk})  // above 48 KiB a kernel must opt in to its dynamic shared memory
    check(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)), "cudaFuncSetAttribute");
  int per_sm = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, threads_for(p), smem), "occupancy");
  CudaProbe out;
  out.slots = slots > 0 ? static_cast<int>(slots) : std::max(1, per_sm) * prop.multiProcessorCount * 2;
  out.name = std::string(prop.name) + " (cuda:" + std::to_string(device) + ", sm_" + std::to_string(prop.major) +
             std::to_string(prop.minor) + ", " + std::to_string(prop.multiProcessorCount) + " SMs, " +
             std::to_string(per_sm) + " restarts per SM)";
  return out;
}

cuda::DeviceTensor upload_tensor(const BatchProblem& p, std::vector<void*>& owned) {
  cuda::DeviceTensor t{};
  for (int q = 0; q < 3; ++q) t.d[q] = p.dims[q];
  t.rank = p.rank;
  t.lattice = p.lattice;
  auto upload = [&](const void* src, size_t bytes) {
    void* d = nullptr;
    check(cudaMalloc(&d, bytes), "cudaMalloc");
    check(cudaMemcpy(d, src, bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
    owned.push_back(d);
    return d;
  };
  for (int q = 0; q < 3; ++q) {
    std::vector<std::vector<int2>> rows(static_cast<size_t>(p.dims[q]));
    for (const auto& o : p.ones) rows[o[q]].push_back({o[(q + 1) % 3], o[(q + 2) % 3]});
    std::vector<int> off{0};
    std::vector<int2> pairs;
    for (const auto& r : rows) {
      pairs.insert(pairs.end(), r.begin(), r.end());
      off.push_back(static_cast<int>(pairs.size()));
    }
    t.offsets[q] = static_cast<const int*>(upload(off.data(), off.size() * sizeof(int)));
    t.pairs[q] = static_cast<const int2*>(upload(pairs.data(), std::max<size_t>(1, pairs.size()) * sizeof(int2)));
  }
  std::vector<int> c_of(static_cast<size_t>(p.dims[0]) * p.dims[1], -1);
  for (const auto& o : p.ones) c_of[static_cast<size_t>(o[0]) * p.dims[1] + o[1]] = o[2];
  t.c_of = static_cast<const int*>(upload(c_of.data(), c_of.size() * sizeof(int)));
  return t;
}

class CudaBatch : public BatchDevice {
public:
  CudaBatch(const BatchProblem& p, int device, long slots) : p_(p), device_(device) {
    CudaProbe pr = probe(p, device, slots);
    name_ = pr.name;
    tensor_ = upload_tensor(p, owned_);
    states_.assign(static_cast<size_t>(pr.slots), SlotState{});
    const size_t bytes = static_cast<size_t>(p.packed_size()) * sizeof(double) * states_.size();
    check(cudaMalloc(&factors_, bytes), "cudaMalloc factors");
    check(cudaMemset(factors_, 0, bytes), "cudaMemset");
    check(cudaMalloc(&relaxed_, bytes), "cudaMalloc relaxed");
    check(cudaMemset(relaxed_, 0, bytes), "cudaMemset");
    check(cudaMalloc(&dstates_, states_.size() * sizeof(SlotState)), "cudaMalloc states");
  }
  ~CudaBatch() override {
    cudaFree(factors_);
    cudaFree(relaxed_);
    cudaFree(dstates_);
    for (void* d : owned_) cudaFree(d);
  }

  std::string name() const override { return name_; }
  int slots() const override { return static_cast<int>(states_.size()); }

  void start(int slot, long long restart, unsigned long long seed, const std::vector<double>& packed) override {
    check(cudaMemcpy(slot_ptr(slot), packed.data(), packed.size() * sizeof(double), cudaMemcpyHostToDevice), "start");
    SlotState s;
    s.seed = seed;
    s.restart = restart;
    s.phase = kContinuous;
    states_[slot] = s;
  }
  void idle(int slot) override { states_[slot] = SlotState{}; }

  const std::vector<SlotState>& advance(int sweeps) override {
    check(cudaMemcpy(dstates_, states_.data(), states_.size() * sizeof(SlotState), cudaMemcpyHostToDevice), "states up");
    launch(sweeps);
    check(cudaMemcpy(states_.data(), dstates_, states_.size() * sizeof(SlotState), cudaMemcpyDeviceToHost), "states down");
    return states_;
  }

  std::vector<double> packed(int slot) override {
    std::vector<double> v(static_cast<size_t>(p_.packed_size()));
    check(cudaMemcpy(v.data(), slot_ptr(slot), v.size() * sizeof(double), cudaMemcpyDeviceToHost), "packed");
    return v;
  }

  std::vector<double> relaxed(int slot) override {
    std::vector<double> v(static_cast<size_t>(p_.packed_size()));
    check(cudaMemcpy(v.data(), relaxed_ + static_cast<size_t>(slot) * p_.packed_size(), v.size() * sizeof(double),
                     cudaMemcpyDeviceToHost), "relaxed");
    return v;
  }

  // One plain ALS sweep on every slot (tests): residuals before and after, snapped after, per slot.
  std::vector<double> sweep_all(double reg, double lattice, double clip, double tolerance) {
    double* d = nullptr;
    check(cudaMalloc(&d, states_.size() * 3 * sizeof(double)), "cudaMalloc");
    const dim3 grid(static_cast<unsigned>(states_.size()));
    if (p_.complex)
      cuda::sweep_kernel<cuda::cplx><<<grid, threads_for(p_), shared_bytes(p_)>>>(tensor_, reinterpret_cast<cuda::cplx*>(factors_), reg, lattice, clip, tolerance, p_.schedule.snap_fix_weight, d);
    else
      cuda::sweep_kernel<double><<<grid, threads_for(p_), shared_bytes(p_)>>>(tensor_, factors_, reg, lattice, clip, tolerance, p_.schedule.snap_fix_weight, d);
    check(cudaGetLastError(), "sweep_kernel");
    std::vector<double> out(states_.size() * 3);
    check(cudaMemcpy(out.data(), d, out.size() * sizeof(double), cudaMemcpyDeviceToHost), "residuals");
    cudaFree(d);
    return out;
  }

private:
  double* slot_ptr(int slot) { return factors_ + static_cast<size_t>(slot) * p_.packed_size(); }

  void launch(int sweeps) {
    const dim3 grid(static_cast<unsigned>(states_.size()));
    if (p_.complex)
      cuda::advance_kernel<cuda::cplx><<<grid, threads_for(p_), shared_bytes(p_)>>>(
          tensor_, p_.schedule, dstates_, reinterpret_cast<cuda::cplx*>(factors_), reinterpret_cast<cuda::cplx*>(relaxed_), sweeps);
    else
      cuda::advance_kernel<double><<<grid, threads_for(p_), shared_bytes(p_)>>>(tensor_, p_.schedule, dstates_, factors_,
                                                                                relaxed_, sweeps);
    check(cudaGetLastError(), "advance_kernel launch");
    check(cudaDeviceSynchronize(), "advance_kernel");
  }

  BatchProblem p_;
  int device_;
  std::string name_;
  cuda::DeviceTensor tensor_{};
  std::vector<void*> owned_;
  std::vector<SlotState> states_;
  double* factors_ = nullptr;
  double* relaxed_ = nullptr;  // each slot's factors when its Relax phase ended
  SlotState* dstates_ = nullptr;
};

}  // namespace

bool cuda_built() { return true; }
int cuda_device_count() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

CudaProbe probe_cuda(const BatchProblem& p, int device, long slots) { return probe(p, device, slots); }

std::unique_ptr<BatchDevice> make_cuda_batch(const BatchProblem& p, int device, long slots) {
  return std::make_unique<CudaBatch>(p, device, slots);
}

std::vector<double> cuda_sweep_all(BatchDevice& d, double reg, double lattice, double clip, double tolerance) {
  return dynamic_cast<CudaBatch&>(d).sweep_all(reg, lattice, clip, tolerance);
}

}  // namespace tdisc::search::numeric
