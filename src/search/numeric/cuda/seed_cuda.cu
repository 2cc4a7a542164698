// Seed-space Adam on a CUDA device: one thread block per restart runs the whole schedule of
// seed_adam.cpp (expansion, Gram-form gradient pulled back to θ, Adam, the dense residual every 50
// steps, stall and convergence tests) with θ, its moments, the term columns and the three R×R Gram
// matrices in shared memory. Same arithmetic as the CPU path up to the order of floating-point sums.
// The recipe terms (recipe_terms.hpp) are the CPU's functions, with the same hashed random draws.
#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "base/error.hpp"
#include "src/search/numeric/cuda/kernels.cuh"
#include "src/search/numeric/seed_device.hpp"

namespace tdisc::search::numeric {

namespace cuda {

struct DeviceSeedProblem {
  int d0, d1, d2, len, R, P;
  const int* row_start;  // R·len + 1
  const int* col;
  const double* re;
  const double* im;
  const int* pair_start;  // len + 1
  const int2* pairs;
  long steps, stall;
  double lr, slow_from, converge;
  RecipeTerms recipe;
};

__device__ inline cplx value(const DeviceSeedProblem& p, int k, cplx) { return {p.re[k], p.im[k]}; }
__device__ inline double value(const DeviceSeedProblem& p, int k, double) { return p.re[k]; }
__device__ inline void atomic_add(cplx* a, cplx v) {
  atomicAdd(&a->x, v.x);
  atomicAdd(&a->y, v.y);
}
__device__ inline void atomic_add(double* a, double v) { atomicAdd(a, v); }

__device__ inline double hallucination_of(const RecipeTerms& r, unsigned long long seed, long step, long row, double) {
  return hallucination(r, seed, step, row, 0, false);
}
__device__ inline cplx hallucination_of(const RecipeTerms& r, unsigned long long seed, long step, long row, cplx) {
  return {hallucination(r, seed, step, row, 0, true), hallucination(r, seed, step, row, 1, true)};
}

// X (len × R, X[e·R + t]) = the term columns of the expansion of θ; from a step ≥ 0 on, the loss's
// forward pass: hallucinated entries replaced.
template <class S>
__device__ void expand_terms(const DeviceSeedProblem& p, const S* theta, S* X, unsigned long long seed = 0, long step = -1) {
  for (int row = threadIdx.x; row < p.R * p.len; row += blockDim.x) {
    S acc = zero<S>();
    for (int k = p.row_start[row]; k < p.row_start[row + 1]; ++k) acc += value(p, k, S{}) * theta[p.col[k]];
    if (step >= 0 && hallucinated(p.recipe, seed, step, row)) acc = hallucination_of(p.recipe, seed, step, row, S{});
    X[(row % p.len) * p.R + row / p.len] = acc;
  }
}

// Σ over the other two blocks of N(a,b,c)·conj(product of their entries of term t), for entry e of block q.
template <class S>
__device__ S target_noise_term(const DeviceSeedProblem& p, const S* X, int t, int e, int q, unsigned long long seed, long step) {
  const int off[3] = {0, p.d0, p.d0 + p.d1}, dim[3] = {p.d0, p.d1, p.d2};
  const int q1 = (q + 1) % 3, q2 = (q + 2) % 3;
  S sum = zero<S>();
  for (int i = 0; i < dim[q1]; ++i)
    for (int j = 0; j < dim[q2]; ++j) {
      int idx[3];
      idx[q] = e - off[q], idx[q1] = i, idx[q2] = j;
      const double n = p.recipe.target_noise * recipe_gaussian(seed, kTargetNoise, step, (static_cast<long>(idx[0]) * p.d1 + idx[1]) * p.d2 + idx[2]);
      sum += n * cj(X[(off[q1] + i) * p.R + t] * X[(off[q2] + j) * p.R + t]);
    }
  return sum;
}

__device__ inline void add_entry_gradient(const RecipeTerms& r, double disc, double x, double& gx) {
  double g_re = 0, g_im = 0;
  entry_gradient(r, disc, x, 0.0, false, g_re, g_im);
  gx += g_re;
}
__device__ inline void add_entry_gradient(const RecipeTerms& r, double disc, cplx x, cplx& gx) {
  double g_re = 0, g_im = 0;
  entry_gradient(r, disc, x.x, x.y, true, g_re, g_im);
  gx += cplx{g_re, g_im};
}

// G_q(s, r) = Σ_{e in block q} conj(X[e][s])·X[e][r], stored G[q·R·R + s·R + r].
template <class S>
__device__ void grams(const DeviceSeedProblem& p, const S* X, S* G) {
  const int RR = p.R * p.R, from[4] = {0, p.d0, p.d0 + p.d1, p.len};
  for (int idx = threadIdx.x; idx < 3 * RR; idx += blockDim.x) {
    const int q = idx / RR, s = (idx % RR) / p.R, r = idx % p.R;
    S g = zero<S>();
    for (int e = from[q]; e < from[q + 1]; ++e) g += cj(X[e * p.R + s]) * X[e * p.R + r];
    G[idx] = g;
  }
}

// In place: M_q = G_{q+1} ∘ G_{q+2} (each (t, r) touched by one thread only).
template <class S>
__device__ void hadamard_pairs(const DeviceSeedProblem& p, S* G) {
  const int RR = p.R * p.R;
  for (int idx = threadIdx.x; idx < RR; idx += blockDim.x) {
    const S g0 = G[idx], g1 = G[RR + idx], g2 = G[2 * RR + idx];
    G[idx] = g1 * g2, G[RR + idx] = g2 * g0, G[2 * RR + idx] = g0 * g1;
  }
}

// grad += 2·E_tᴴ·∂L/∂x̄_t for every term t, with ∂L/∂x̄ of entry e (block q) of term t equal to
// Σ_r X[e][r]·M_q(t, r) − Σ_{(y,z)} conj(X[y][t]·X[z][t]).
// With the recipe's loss terms (`recipe`): target noise, discretisation (weight `disc` at this step)
// and the large-value penalty added, a hallucinated entry contributing nothing.
template <class S>
__device__ void seed_gradient(const DeviceSeedProblem& p, const S* X, const S* M, S* grad, bool recipe = false,
                              unsigned long long seed = 0, long step = 0, double disc = 0) {
  const int RR = p.R * p.R;
  const int blocks[3] = {p.d0, p.d1, p.d2};
  for (int row = threadIdx.x; row < p.R * p.len; row += blockDim.x) {
    const int t = row / p.len, e = row % p.len;
    const int q = e < p.d0 ? 0 : (e < p.d0 + p.d1 ? 1 : 2);
    const S* Mq = M + q * RR + t * p.R;
    S gx = zero<S>();
    for (int r = 0; r < p.R; ++r) gx += X[e * p.R + r] * Mq[r];
    for (int k = p.pair_start[e]; k < p.pair_start[e + 1]; ++k) gx -= cj(X[p.pairs[k].x * p.R + t] * X[p.pairs[k].y * p.R + t]);
    if (recipe) {
      if (hallucinated(p.recipe, seed, step, row)) continue;
      if (p.recipe.target_noise > 0) gx -= target_noise_term(p, X, t, e, q, seed, step);
      add_entry_gradient(p.recipe, disc / (6.0 * static_cast<double>(blocks[q]) * p.R), X[e * p.R + t], gx);
    }
    for (int k = p.row_start[row]; k < p.row_start[row + 1]; ++k)
      atomic_add(&grad[p.col[k]], 2.0 * (cj(value(p, k, S{})) * gx));
  }
}

// ‖X − T‖²: every (a, b, c) of the three blocks, T(a, b, c) = 1 on the pairs of block 0.
template <class S>
__device__ double dense_loss(const DeviceSeedProblem& p, const S* X, double* red) {
  double local = 0;
  const long total = static_cast<long>(p.d0) * p.d1 * p.d2;
  for (long idx = threadIdx.x; idx < total; idx += blockDim.x) {
    const int a = static_cast<int>(idx / (static_cast<long>(p.d1) * p.d2)), b = p.d0 + static_cast<int>((idx / p.d2) % p.d1),
              c = p.d0 + p.d1 + static_cast<int>(idx % p.d2);
    S v = zero<S>();
    for (int t = 0; t < p.R; ++t) v += X[a * p.R + t] * X[b * p.R + t] * X[c * p.R + t];
    for (int k = p.pair_start[a]; k < p.pair_start[a + 1]; ++k)
      if (p.pairs[k].x == b && p.pairs[k].y == c) v -= from_real(1.0, v);
    local += abs2(v);
  }
  return block_sum(local, red);
}

template <class S>
__global__ void seed_adam_kernel(DeviceSeedProblem p, double* thetas, double* residuals, long* steps_out,
                                 const unsigned long long* seeds, int* culled_out) {
  extern __shared__ double smem[];
  const int reals = p.P * static_cast<int>(sizeof(S) / sizeof(double));
  S* theta = reinterpret_cast<S*>(smem);
  S* grad = theta + p.P;
  double* m = reinterpret_cast<double*>(grad + p.P);
  double* v = m + reals;
  S* X = reinterpret_cast<S*>(v + reals);
  S* G = X + p.len * p.R;
  double* red = reinterpret_cast<double*>(G + 3 * p.R * p.R);
  __shared__ int stop, culled;
  __shared__ double best;
  __shared__ long best_at, done_steps;
  double* mine = thetas + static_cast<long>(blockIdx.x) * reals;
  double* th = reinterpret_cast<double*>(theta);
  for (int k = threadIdx.x; k < reals; k += blockDim.x) th[k] = mine[k], m[k] = 0, v[k] = 0;
  if (threadIdx.x == 0) stop = 0, culled = 0, best = 1e300, best_at = 0, done_steps = 0;
  __syncthreads();
  const long slow = llround(p.slow_from * static_cast<double>(p.steps));
  const RecipeTerms& rt = p.recipe;
  const unsigned long long seed = seeds[blockIdx.x];
  const bool in_loss = rt.any_loss_term();
  for (long step = 0; step < p.steps; ++step) {
    for (int k = threadIdx.x; k < p.P; k += blockDim.x) grad[k] = zero<S>();
    expand_terms(p, theta, X, seed, in_loss ? step : -1);
    __syncthreads();
    grams(p, X, G);
    __syncthreads();
    hadamard_pairs(p, G);
    __syncthreads();
    seed_gradient(p, X, G, grad, in_loss, seed, step, discrete_weight_at(rt, step, p.steps));
    __syncthreads();
    const double lr = step < slow ? p.lr : p.lr / 10;
    const double c1 = 1 - pow(0.9, static_cast<double>(step + 1)), c2 = 1 - pow(0.999, static_cast<double>(step + 1));
    const double* g = reinterpret_cast<const double*>(grad);
    const double sigma = param_sigma(rt, step, p.steps);
    const double tau = rt.soft_clip_period > 0 ? soft_clip_threshold(rt, step) : 0;
    for (int k = threadIdx.x; k < reals; k += blockDim.x) {
      const double gk = rt.grad_noise > 0 ? g[k] + rt.grad_noise * recipe_gaussian(seed, kGradNoise, step, k) : g[k];
      m[k] = 0.9 * m[k] + 0.1 * gk;
      v[k] = 0.999 * v[k] + 0.001 * gk * gk;
      th[k] -= lr * (m[k] / c1) / (sqrt(v[k] / c2) + 1e-12);
      if (sigma > 0) th[k] += sigma * recipe_gaussian(seed, kParamNoise, step, k);
      if (rt.soft_clip_period > 0) th[k] = soft_clip(th[k], tau, rt.soft_clip_slope);
    }
    __syncthreads();
    if (step % 50 != 49) continue;
    expand_terms(p, theta, X);
    __syncthreads();
    const double r = sqrt(dense_loss(p, X, red));
    if (threadIdx.x == 0) {
      done_steps = step + 1;
      if (!isfinite(r)) stop = 1;
      if (r < best * 0.99) best = r, best_at = step;
      if (cull_check(rt, step, p.steps) && r > rt.cull_residual) stop = 1, culled = 1;
      else if (r < p.converge || step - best_at > p.stall) stop = 1;
    }
    __syncthreads();
    if (stop) break;
  }
  expand_terms(p, theta, X);
  __syncthreads();
  const double r = sqrt(dense_loss(p, X, red));
  if (threadIdx.x == 0) {
    residuals[blockIdx.x] = r;
    steps_out[blockIdx.x] = stop ? done_steps : p.steps;
    culled_out[blockIdx.x] = culled;
  }
  for (int k = threadIdx.x; k < reals; k += blockDim.x) mine[k] = th[k];
}

}  // namespace cuda

namespace {

void seed_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(e));
}


size_t seed_shared_bytes(const SeedProblem& p) {
  const size_t s = p.complex ? 16 : 8, reals = static_cast<size_t>(p.parameters) * (p.complex ? 2 : 1);
  return 2 * static_cast<size_t>(p.parameters) * s + 2 * reals * 8 +
         (static_cast<size_t>(p.len()) * p.rank + 3 * static_cast<size_t>(p.rank) * p.rank) * s + static_cast<size_t>(p.threads) * 8;
}

// Device memory freed with its owner (RAII; the tools' raw pairs are what REVIEW.md N3 warns of).
struct DeviceBuffer {
  void* ptr = nullptr;
  explicit DeviceBuffer(size_t bytes) { seed_check(cudaMalloc(&ptr, std::max<size_t>(bytes, 8)), "cudaMalloc"); }
  DeviceBuffer(const void* src, size_t bytes) : DeviceBuffer(bytes) {
    if (bytes) seed_check(cudaMemcpy(ptr, src, bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  }
  ~DeviceBuffer() { cudaFree(ptr); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  template <class T>
  T* as() const { return static_cast<T*>(ptr); }
};

class CudaSeedDevice : public SeedDevice {
public:
  CudaSeedDevice(const SeedProblem& p, int device)
      : p_(p), row_start_(p.row_start.data(), p.row_start.size() * sizeof(int)),
        col_(p.col.data(), p.col.size() * sizeof(int)), re_(p.re.data(), p.re.size() * sizeof(double)),
        im_(p.im.data(), p.im.size() * sizeof(double)), pair_start_(p.pair_start.data(), p.pair_start.size() * sizeof(int)),
        pairs_(p.pairs.data(), p.pairs.size() * sizeof(int2)) {
    cudaDeviceProp prop{};
    seed_check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
    smem_ = seed_shared_bytes(p);
    if (smem_ > prop.sharedMemPerBlockOptin)
      throw UsageError("ansatz on --device cuda: one restart needs " + std::to_string(smem_) +
                       " bytes of shared memory; this device has " + std::to_string(prop.sharedMemPerBlockOptin) +
                       " (run it with --device cpu)");
    const void* k = kernel();
    seed_check(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem_)),
               "cudaFuncSetAttribute");
    int per_sm = 0;
    seed_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, p.threads, smem_), "occupancy");
    slots_ = std::max(1, per_sm) * prop.multiProcessorCount;
    name_ = std::string(prop.name) + " (cuda:" + std::to_string(device) + ", " + std::to_string(slots_) +
            " seed-space restarts at once, " + std::to_string(p.threads) + " threads each)";
  }
  std::string name() const override { return name_; }
  int slots() const override { return slots_; }

  std::vector<SeedOutcome> run(const std::vector<std::vector<double>>& starts,
                               const std::vector<unsigned long long>& seeds) override {
    const size_t n = starts.size(), reals = static_cast<size_t>(p_.parameters) * (p_.complex ? 2 : 1);
    std::vector<double> packed(n * reals);
    for (size_t i = 0; i < n; ++i) std::copy(starts[i].begin(), starts[i].end(), packed.begin() + i * reals);
    std::vector<unsigned long long> seed_of(n, 0);
    std::copy(seeds.begin(), seeds.begin() + static_cast<long>(std::min(n, seeds.size())), seed_of.begin());
    DeviceBuffer thetas(packed.data(), packed.size() * sizeof(double)), residuals(n * sizeof(double)),
        steps(n * sizeof(long)), seed_buf(seed_of.data(), n * sizeof(unsigned long long)), culled(n * sizeof(int));
    cuda::DeviceSeedProblem d{p_.dims[0], p_.dims[1], p_.dims[2], p_.len(), p_.rank, p_.parameters,
                              row_start_.as<int>(), col_.as<int>(), re_.as<double>(), im_.as<double>(),
                              pair_start_.as<int>(), pairs_.as<int2>(), p_.steps, p_.stall, p_.lr, p_.slow_from,
                              p_.converge, p_.recipe};
    if (p_.complex)
      cuda::seed_adam_kernel<cuda::cplx><<<static_cast<unsigned>(n), p_.threads, smem_>>>(
          d, thetas.as<double>(), residuals.as<double>(), steps.as<long>(), seed_buf.as<unsigned long long>(),
          culled.as<int>());
    else
      cuda::seed_adam_kernel<double><<<static_cast<unsigned>(n), p_.threads, smem_>>>(
          d, thetas.as<double>(), residuals.as<double>(), steps.as<long>(), seed_buf.as<unsigned long long>(),
          culled.as<int>());
    seed_check(cudaGetLastError(), "seed_adam_kernel launch");
    seed_check(cudaDeviceSynchronize(), "seed_adam_kernel");
    std::vector<double> res(n);
    std::vector<long> st(n);
    std::vector<int> cu(n);
    seed_check(cudaMemcpy(packed.data(), thetas.ptr, packed.size() * sizeof(double), cudaMemcpyDeviceToHost), "copy θ");
    seed_check(cudaMemcpy(res.data(), residuals.ptr, n * sizeof(double), cudaMemcpyDeviceToHost), "copy residuals");
    seed_check(cudaMemcpy(st.data(), steps.ptr, n * sizeof(long), cudaMemcpyDeviceToHost), "copy steps");
    seed_check(cudaMemcpy(cu.data(), culled.ptr, n * sizeof(int), cudaMemcpyDeviceToHost), "copy culled");
    std::vector<SeedOutcome> out(n);
    for (size_t i = 0; i < n; ++i)
      out[i] = {std::vector<double>(packed.begin() + i * reals, packed.begin() + (i + 1) * reals), res[i], st[i], cu[i] != 0};
    return out;
  }

private:
  const void* kernel() const {
    return p_.complex ? reinterpret_cast<const void*>(&cuda::seed_adam_kernel<cuda::cplx>)
                      : reinterpret_cast<const void*>(&cuda::seed_adam_kernel<double>);
  }
  SeedProblem p_;
  DeviceBuffer row_start_, col_, re_, im_, pair_start_, pairs_;
  size_t smem_ = 0;
  int slots_ = 1;
  std::string name_;
};

}  // namespace

std::unique_ptr<SeedDevice> make_cuda_seed_device(const SeedProblem& p, int device) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
    throw UsageError("ansatz on --device cuda: no CUDA device here (use --device cpu)");
  if (device >= count) throw UsageError("--device cuda:" + std::to_string(device) + ": no such device");
  seed_check(cudaSetDevice(device), "cudaSetDevice");
  return std::make_unique<CudaSeedDevice>(p, device);
}

}  // namespace tdisc::search::numeric
