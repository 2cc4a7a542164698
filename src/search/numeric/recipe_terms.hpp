// AlphaEvolve's recipe terms (arXiv:2506.13131, Fig. 4 and 9, App. A) for the
// seed-space Adam of a symmetric ansatz: gradient, parameter and target noise, hallucination, a
// periodic soft clip, the min-of-Re/Im discretisation loss with ramp and cosine annealing, a
// large-value penalty, and restart culling. Plain data and inline functions only: nvcc compiles this
// header (C++17, no Eigen) for cuda/seed_cuda.cu, and seed_adam.cpp / recipe_gradient.cpp call the
// same functions, so the host and the device compute the same maths.
//
// Every random number is a counter-based hash of (restart seed, stream, step, index), so a restart's
// noise depends only on its seed, never on the order in which a host or a device draws it.
#pragma once
#include <cmath>

#ifdef __CUDACC__
#define TDISC_HD __host__ __device__
#else
#define TDISC_HD
#endif

namespace tdisc::search::numeric {

struct RecipeTerms {
  double grad_noise = 0;        // std of N(0, ·) added to every real gradient component, every step
  double param_noise = 0;       // std of θ noise after each step, decaying linearly to 0 over the steps
  double target_noise = 0;      // std of N(0, ·) on every entry of T inside the loss, redrawn each step
  double hallucinate = 0;       // chance that an expanded factor entry is replaced in the forward pass
  double hallucinate_scale = 0.1;  // by N(0, scale²) (complex: scale²/2 per part)
  long soft_clip_period = 0;    // steps of one swing of the soft clip's threshold (0: no clip)
  double soft_clip_min = 0.5, soft_clip_max = 2, soft_clip_slope = 0.1;
  double discrete_weight = 0;   // final weight of the discretisation loss (0: none)
  double discrete_floor = 0;    // the annealing factor never falls below this
  long discrete_cycles = 4;     // annealing cycles over the steps
  double large_weight = 0;      // weight of Σ max(0, |part| − large_above)² (0: none)
  double large_above = 1;
  double cull_at = 0.25;        // share of the steps after which a restart may be culled
  double cull_residual = 0;     // culled when its residual is above this then (0: never)

  TDISC_HD bool any_loss_term() const { return target_noise > 0 || hallucinate > 0 || discrete_weight > 0 || large_weight > 0; }
};

// The hash streams, one per kind of random choice.
enum RecipeStream : unsigned long long { kGradNoise = 1, kParamNoise = 2, kTargetNoise = 3, kHallucinated = 4, kHallucination = 5 };

TDISC_HD inline unsigned long long recipe_mix(unsigned long long z) {  // SplitMix64's finaliser
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Uniform in (0, 1) from (seed, stream, step, index).
TDISC_HD inline double recipe_uniform(unsigned long long seed, unsigned long long stream, long step, long index) {
  const unsigned long long h = recipe_mix(recipe_mix(recipe_mix(seed ^ (stream * 0xd1b54a32d192ed03ULL)) +
                                                     static_cast<unsigned long long>(step)) +
                                          static_cast<unsigned long long>(index));
  return (static_cast<double>(h >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

// N(0, 1) by Box–Muller from the uniforms at 2·index and 2·index + 1.
TDISC_HD inline double recipe_gaussian(unsigned long long seed, unsigned long long stream, long step, long index) {
  const double u1 = recipe_uniform(seed, stream, step, 2 * index), u2 = recipe_uniform(seed, stream, step, 2 * index + 1);
  return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

// σ_k of the parameter noise at step k of K.
TDISC_HD inline double param_sigma(const RecipeTerms& r, long k, long K) {
  return r.param_noise * (1.0 - static_cast<double>(k) / static_cast<double>(K > 0 ? K : 1));
}

// The soft clip's threshold at step k: clip_min + m_k·(clip_max − clip_min), m_k = (1 + cos 2πk/period)/2.
TDISC_HD inline double soft_clip_threshold(const RecipeTerms& r, long k) {
  const double m = 0.5 * (1 + cos(6.283185307179586 * static_cast<double>(k % r.soft_clip_period) /
                                  static_cast<double>(r.soft_clip_period)));
  return r.soft_clip_min + m * (r.soft_clip_max - r.soft_clip_min);
}

// One real part beyond the threshold τ keeps only slope of its excess.
TDISC_HD inline double soft_clip(double x, double tau, double slope) {
  if (x > tau) return tau + slope * (x - tau);
  if (x < -tau) return -tau + slope * (x + tau);
  return x;
}

// The discretisation weight at step k of K: linear ramp 0 → discrete_weight, times the annealing
// factor max(floor, (1 + cos πφ)/2), φ the phase within a cycle of K / discrete_cycles steps.
TDISC_HD inline double discrete_weight_at(const RecipeTerms& r, long k, long K) {
  if (r.discrete_weight <= 0 || K <= 0) return 0;
  long cycle = K / (r.discrete_cycles > 0 ? r.discrete_cycles : 1);
  if (cycle < 1) cycle = 1;
  const double phi = static_cast<double>(k % cycle) / static_cast<double>(cycle);
  double anneal = 0.5 * (1 + cos(3.141592653589793 * phi));
  if (anneal < r.discrete_floor) anneal = r.discrete_floor;
  return r.discrete_weight * (static_cast<double>(k) / static_cast<double>(K)) * anneal;
}

// Whether factor entry `row` (term t, entry e: row t·len + e) is hallucinated at step k.
TDISC_HD inline bool hallucinated(const RecipeTerms& r, unsigned long long seed, long k, long row) {
  return r.hallucinate > 0 && recipe_uniform(seed, kHallucinated, k, row) < r.hallucinate;
}

// Its replacement, part 0 (re) or 1 (im); a real entry has only part 0, at the full scale.
TDISC_HD inline double hallucination(const RecipeTerms& r, unsigned long long seed, long k, long row, int part,
                                     bool complex) {
  return r.hallucinate_scale * (complex ? 0.7071067811865476 : 1.0) * recipe_gaussian(seed, kHallucination, k, 2 * row + part);
}

// Distance of one part to a lattice of spacing `step` and its derivative (the sign).
TDISC_HD inline double lattice_distance(double x, double step, double& sign) {
  const double d = x - round(x / step) * step;
  sign = d > 0 ? 1.0 : (d < 0 ? -1.0 : 0.0);
  return d < 0 ? -d : d;
}

// ∂/∂x̄ (the form the seed gradient collects; ½ of d/dx for a real entry) of the discretisation and
// large-value terms at one entry x = re + i·im, added to (g_re, g_im). `disc` is the discretisation
// weight of this entry's factor, discrete_weight_at / (6·entries of the factor): AlphaEvolve's loss
// mean(dist to ½Z) + mean(dist to Z) per factor, averaged over 3 factors × 2 terms, where a complex
// entry's distance is the minimum over Re and Im (copied as published: a weak pull).
TDISC_HD inline void entry_gradient(const RecipeTerms& r, double disc, double re, double im, bool complex, double& g_re,
                                    double& g_im) {
  if (disc > 0) {
    for (int l = 0; l < 2; ++l) {
      const double step = l == 0 ? 0.5 : 1.0;
      double s_re, s_im;
      const double d_re = lattice_distance(re, step, s_re), d_im = lattice_distance(im, step, s_im);
      if (!complex || d_re <= d_im) g_re += 0.5 * disc * s_re;
      else g_im += 0.5 * disc * s_im;
    }
  }
  if (r.large_weight > 0) {
    const double a_re = re < 0 ? -re : re, a_im = im < 0 ? -im : im;
    if (a_re > r.large_above) g_re += r.large_weight * (a_re - r.large_above) * (re < 0 ? -1.0 : 1.0);
    if (complex && a_im > r.large_above) g_im += r.large_weight * (a_im - r.large_above) * (im < 0 ? -1.0 : 1.0);
  }
}

// The step at which a restart may be culled (its first residual check at or after cull_at·K).
TDISC_HD inline bool cull_check(const RecipeTerms& r, long k, long K) {
  if (r.cull_residual <= 0) return false;
  long at = static_cast<long>(llround(r.cull_at * static_cast<double>(K)));
  if (at < 1) at = 1;
  return k + 1 >= at && k + 1 - 50 < at;
}

}  // namespace tdisc::search::numeric
