// Seed-space restarts batched on a device: the plain-data form of a SeedSpace (nvcc compiles this
// header as C++17, without Eigen) and the device that runs Adam on many restarts at once, one thread
// block per restart (cuda/seed_cuda.cu). The host driver is seed_batch.cpp. A culled restart ends
// its block early, and the hardware's block scheduler starts the next restart of the batch in its place.
#pragma once
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "src/search/numeric/recipe_terms.hpp"

namespace tdisc::search::numeric {

struct SeedProblem {
  std::array<int, 3> dims{};  // nm, mp, pn: the three blocks of a term column
  int rank = 0;               // terms R
  int parameters = 0;         // θ entries P
  bool complex = true;        // complex θ and factors (else real)
  // The expansion as sparse rows: term column entry e of term t is row t·len + e (len = Σ dims),
  // Σ_k value_k·θ[col_k] over k in [row_start[row], row_start[row + 1]).
  std::vector<int> row_start, col;
  std::vector<double> re, im;
  // Per row x of a term column (block q), the pairs (y, z) of absolute rows in the other two blocks
  // with T(x, y, z) = 1 in the rotation of mode q: CSR of len + 1 offsets.
  std::vector<int> pair_start;
  std::vector<std::array<int, 2>> pairs;
  // The Adam schedule (seed_adam.hpp's, step for step).
  long steps = 8000, stall = 2000;
  double lr = 0.01, slow_from = 0.75, converge = 1e-9;
  int threads = 512;  // per block (a power of two: the block sums halve it)
  RecipeTerms recipe;  // AlphaEvolve's terms and culling, as Params::recipe
  int len() const { return dims[0] + dims[1] + dims[2]; }
};

// One restart's end: θ (P complex as re, im pairs, or P reals), the dense residual and the steps run.
struct SeedOutcome {
  std::vector<double> theta;
  double residual = 0;
  long steps = 0;
  bool culled = false;  // ended at cull_at above cull_residual
};

class SeedDevice {
public:
  virtual ~SeedDevice() = default;
  virtual std::string name() const = 0;
  virtual int slots() const = 0;  // blocks resident at once (one restart each)
  // Runs every start (θ as in SeedOutcome) to its end; returns in the same order. seeds[i] (the
  // restart's seed) drives start i's recipe noise; empty: seed 0 for all.
  virtual std::vector<SeedOutcome> run(const std::vector<std::vector<double>>& starts,
                                       const std::vector<unsigned long long>& seeds) = 0;
};

// Throws UsageError without CUDA in the build, without a device, or when one block's shared memory
// (θ, Adam moments, the term columns and three R×R Gram matrices) does not fit the device.
std::unique_ptr<SeedDevice> make_cuda_seed_device(const SeedProblem& p, int device);

}  // namespace tdisc::search::numeric
