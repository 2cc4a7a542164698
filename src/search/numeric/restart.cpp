// The schedule of one restart. Facts from the literature: small random (complex) starts and
// decaying Tikhonov regularisation keep ALS out of degenerate swamps (Smirnov 2013; Tichavský et
// al. 2017); injected, annealed noise escapes plateaus; a lattice penalty with a ramped weight and
// soft clipping precede discretisation (AlphaEvolve 2025).
#include "src/search/numeric/restart.hpp"

#include <cmath>

#include "src/search/numeric/batch_schedule.hpp"
#include "src/search/numeric/handover.hpp"
#include "src/search/numeric/polish.hpp"
#include "src/search/numeric/repair.hpp"
#include "src/search/numeric/rounding.hpp"
#include "src/search/numeric/seed_adam.hpp"
#include "src/search/numeric/seed_rounding.hpp"

namespace tdisc::search::numeric {

unsigned long long restart_seed(unsigned long long run_seed, unsigned long long index) {
  auto mix = [](unsigned long long z) {
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  return mix(run_seed ^ mix(index + 1));
}

namespace {

template <class S>
S gaussian(std::mt19937_64& rng, double sigma) {
  std::normal_distribution<double> n(0.0, sigma);
  if constexpr (std::is_same_v<S, double>) return n(rng);
  else return {n(rng) / std::sqrt(2.0), n(rng) / std::sqrt(2.0)};
}

template <class S>
void add_noise(Factors<S>& x, const FixedMask& fixed, double sigma, std::mt19937_64& rng) {
  for (int q = 0; q < 3; ++q)
    for (Eigen::Index k = 0; k < x.f[q].size(); ++k)
      if (!fixed.f[q].data()[k]) x.f[q].data()[k] += gaussian<S>(rng, sigma);
}

template <class S>
Factors<S> initial_point(const RestartInput& in, std::mt19937_64& rng) {
  Factors<S> x;
  const int R = in.target.rank;
  for (int q = 0; q < 3; ++q) x.f[q] = Mat<S>::Zero(in.tensor.dims[q], R);
  if (in.from) {
    for (int q = 0; q < 3; ++q) {
      if constexpr (std::is_same_v<S, double>) x.f[q] = in.from->x.f[q].real();
      else x.f[q] = in.from->x.f[q];
    }
    add_noise(x, no_fixed(x), in.params.seed_noise, rng);
    return x;
  }
  add_noise(x, no_fixed(x), in.params.init_scale, rng);
  return x;
}

// Geometric interpolation from a to b at t ∈ [0,1] (linear when either end is zero).
double ramp(double a, double b, double t) {
  if (a > 0 && b > 0) return a * std::pow(b / a, t);
  return a + (b - a) * t;
}

template <class S>
Seed as_seed(const Factors<S>& x, double fraction, double res) {
  Seed s;
  for (int q = 0; q < 3; ++q) s.x.f[q] = x.f[q].template cast<cdouble>();
  s.exact_fraction = fraction;
  s.residual = res;
  return s;
}

// The near-miss test (polish.hpp): false, with out's stage "degenerate", when x is only close to T.
// Only here, on the continuous phase's end: the GPU's near-misses reach the host after the lattice
// pull, which both shrinks their entries below the clip and raises their residual, so there the test
// cannot tell (2x4x5:32, 2026-11-23: 742 of 742 passed, residual falling 13–320× in 200 sweeps).
template <class S>
bool on_solution_set(const RestartInput& in, const Factors<S>& x, RestartOutcome& out) {
  if (in.params.polish_iterations <= 0) return true;
  PolishTest t = polish_test(in.tensor, x, in.params);
  out.polish_ratio = t.ratio();
  out.largest_entry = t.largest;
  if (!t.converging) out.stage = "degenerate";
  return t.converging;
}

// Phase 3: progressive rounding; phase 4: exact repair and verification.
template <class S>
RestartOutcome round_and_repair_typed(const RestartInput& in, Optimiser<S>& opt, Factors<S>& x, FixedMask& fixed,
                                      RestartOutcome out, const std::function<bool()>& stopped) {
  const Params& p = in.params;
  RoundingResult rr = progressive_round(opt, x, fixed, p, stopped);
  out.exact_fraction = rr.exact_fraction;
  if (stopped()) {
    out.stage = "stopped";
    return out;
  }
  // The lattice is a preference, not the ring: entries the lattice could not take (¼, ⅓) are
  // snapped to nearby simple rationals, and the third factor is solved exactly from the other two.
  RepairResult fix;
  if (rr.complete) fix = repair(in.target.format, round_factors(x, p.lattice, 0), in.target.ring);
  if (!fix.scheme && rr.exact_fraction >= p.repair_from_fraction && p.repair_max_denominator > 0)
    fix = repair(in.target.format, round_factors(x, p.lattice, p.repair_max_denominator), in.target.ring);
  if (!fix.scheme) {
    out.stage = rr.complete ? "repair" : "rounding";
    out.how = fix.why_not;
    out.near_miss = as_seed(x, rr.exact_fraction, rr.residual);
    return out;
  }
  out.stage = "found";
  out.how = fix.how;
  out.exact_fraction = 1;
  out.scheme = std::move(fix.scheme);
  return out;
}

template <class S>
RestartOutcome run_typed(const RestartInput& in) {
  const Params& p = in.params;
  std::mt19937_64 rng(in.seed);
  auto stopped = [&] { return (in.stop && in.stop()) || std::chrono::steady_clock::now() >= in.deadline; };
  Optimiser<S> opt{in.tensor, p.method};
  Factors<S> x = initial_point<S>(in, rng);
  FixedMask fixed = no_fixed(x);
  RestartOutcome out;
  const long K = p.method == Method::Lm ? p.lm_iterations : p.als_iterations;
  // Step counts given in ALS sweeps scale with the method: an LM step does the work of about ten
  // (unscaled, LM's 300 steps saw 12 noise events and ended on noise of ~3e-3).
  auto scaled = [&](long sweeps) { return p.method == Method::Lm ? std::max(1L, sweeps / 10) : sweeps; };
  const long check_every = p.method == Method::Lm ? 5 : 25;
  const long stall = scaled(p.stall_iterations), noise_every = scaled(p.noise_every);
  const long lattice_steps = scaled(p.lattice_iterations), relax_steps = scaled(p.relax_iterations);
  double best = INFINITY;
  long best_at = 0, noise_events = 0;
  // Phase 1: continuous optimisation, regularisation decaying, annealed noise, balancing.
  for (long k = 0; k < K; ++k, ++out.steps) {
    Weights w{ramp(p.reg_start, p.reg_end, static_cast<double>(k) / K), 0, p.lattice, p.clip};
    opt.step(x, fixed, w);
    if (p.balance && p.method == Method::Als && k % 10 == 9) balance_terms(x, fixed);
    if (k % noise_every == noise_every - 1) {
      double sigma = p.noise_start * std::pow(p.noise_decay, static_cast<double>(noise_events++));
      if (sigma > 1e-9) add_noise(x, fixed, sigma, rng);
    }
    if (k % check_every != 0) continue;
    double r = residual(in.tensor, x);
    if (!std::isfinite(r)) break;
    if (r < best * 0.99) best = r, best_at = k;
    if (r < p.converge_residual || k - best_at > stall || stopped()) break;
  }
  // LM's iterate trails the decaying regularisation (once ‖E‖² ≪ reg·‖x‖² a step mostly shrinks
  // ‖x‖ along the solution set): a few unregularised Gauss–Newton steps land on it (measured on
  // 2x2:7: residual ~1e-3 → 1e-15 in 10 steps, real and complex, where unpolished runs stalled).
  if (p.method == Method::Lm)
    for (int k = 0; k < 10 && !stopped(); ++k, ++out.steps) opt.step(x, fixed, {0, 0, p.lattice, p.clip});
  out.residual = residual(in.tensor, x);
  if (stopped()) return out.stage = "stopped", out;
  if (!(out.residual <= p.discretise_below)) return out.stage = "stalled", out;
  if (!on_solution_set(in, x, out)) return out;
  // Phase 2: the lattice pull, weight ramped up while regularisation stays at its floor.
  for (long k = 0; k < lattice_steps && !stopped(); ++k, ++out.steps) {
    double t = lattice_steps > 1 ? static_cast<double>(k) / static_cast<double>(lattice_steps - 1) : 1.0;
    opt.step(x, fixed, {p.reg_end, ramp(p.lattice_weight_start, p.lattice_weight_end, t), p.lattice, p.clip});
  }
  // Back onto the solution set before rounding: the pull leaves a compromise with residual ~0.1.
  for (long k = 0; k < relax_steps && !stopped(); ++k, ++out.steps)
    opt.step(x, fixed, {p.reg_end, p.round_lattice_weight, p.lattice, p.clip});
  return round_and_repair_typed(in, opt, x, fixed, std::move(out), stopped);
}

// After the seed phase: the numerical solution (reported as such), then (ansatz_round, factors the
// lattice can hold) the exact rounding and repair of the expansion.
template <class S>
RestartOutcome ansatz_tail(const RestartInput& in, SeedRun<S> run, const std::function<bool()>& stopped) {
  const Params& p = in.params;
  RestartOutcome out;
  if (run.culled) {  // abandoned at cull_at: no pull, no rounding
    out.residual = run.residual;
    out.steps = run.steps;
    return out.stage = "culled", out;
  }
  if (run.residual < p.numerical_residual && !run.pulled)
    for (Eigen::Index k = 0; k < run.theta.size(); ++k) out.numerical.push_back(cdouble(run.theta(k)));
  pull_seeds(*in.ansatz, in.tensor, p, run, stopped);
  out.residual = run.residual;
  out.steps = run.steps;
  if (stopped()) return out.stage = "stopped", out;
  const bool roundable = p.ansatz_round && (std::is_same_v<S, double> || p.complex);
  if (!(run.residual <= p.discretise_below)) return out.stage = out.numerical.empty() ? "stalled" : "numerical", out;
  if (!roundable) return out.stage = out.numerical.empty() ? "rounding" : "numerical", out;
  if constexpr (std::is_same_v<S, double>) {
    // Real ansätze round in seed space (a few dozen unknowns), then expand exactly and verify.
    SeedRounding sr = round_seeds(*in.ansatz, in.tensor, p, run.theta, in.target.ring, stopped);
    out.exact_fraction = sr.exact_fraction;
    out.how = sr.how;
    if (sr.scheme) {
      out.stage = "found";
      out.scheme = std::move(sr.scheme);
      return out;
    }
    return out.stage = out.numerical.empty() ? "rounding" : "numerical", out;
  }
  Factors<S> x = expand(*in.ansatz, run.theta);
  Factors<cdouble> c;
  for (int q = 0; q < 3; ++q) c.f[q] = x.f[q].template cast<cdouble>();
  RestartOutcome rounded = round_and_repair(in, c, run.residual, run.steps);
  rounded.numerical = std::move(out.numerical);
  if (!rounded.scheme && !rounded.numerical.empty()) rounded.stage = "numerical";
  return rounded;
}

auto stop_test(const RestartInput& in) {
  return [&in] { return (in.stop && in.stop()) || std::chrono::steady_clock::now() >= in.deadline; };
}

// A restart inside a symmetric ansatz: Adam in seed space (seed_adam.hpp), then ansatz_tail.
template <class S>
RestartOutcome run_in_ansatz(const RestartInput& in) {
  std::mt19937_64 rng(in.seed);
  const auto stopped = stop_test(in);
  Params adam_only = in.params;
  adam_only.ansatz_pull = 0;  // the pull runs in ansatz_tail, after the numerical solution is noted
  SeedRun<S> run = optimise_seeds<S>(*in.ansatz, in.tensor, adam_only, random_seeds<S>(*in.ansatz, in.params.init_scale, rng),
                                     stopped, in.seed);
  return ansatz_tail(in, std::move(run), stopped);
}

template <class S>
RestartOutcome finish_typed(const RestartInput& in, const std::vector<cdouble>& theta, double residual, long steps,
                            bool culled) {
  SeedRun<S> run;
  run.culled = culled;
  run.theta.resize(static_cast<Eigen::Index>(theta.size()));
  for (size_t k = 0; k < theta.size(); ++k) {
    if constexpr (std::is_same_v<S, double>) run.theta(static_cast<Eigen::Index>(k)) = theta[k].real();
    else run.theta(static_cast<Eigen::Index>(k)) = theta[k];
  }
  run.residual = residual;
  run.steps = steps;
  return ansatz_tail(in, std::move(run), stop_test(in));
}

}  // namespace

bool ansatz_is_complex(const Params& p, const SeedSpace& s) { return p.complex || !s.real; }

std::vector<cdouble> initial_seeds(const RestartInput& in) {
  std::mt19937_64 rng(in.seed);
  std::vector<cdouble> out;
  if (ansatz_is_complex(in.params, *in.ansatz)) {
    Vec<cdouble> t = random_seeds<cdouble>(*in.ansatz, in.params.init_scale, rng);
    out.assign(t.data(), t.data() + t.size());
  } else {
    Vec<double> t = random_seeds<double>(*in.ansatz, in.params.init_scale, rng);
    for (Eigen::Index k = 0; k < t.size(); ++k) out.emplace_back(t(k), 0.0);
  }
  return out;
}

RestartOutcome finish_ansatz_restart(const RestartInput& in, const std::vector<cdouble>& theta, double residual,
                                     long steps, bool culled) {
  return ansatz_is_complex(in.params, *in.ansatz) ? finish_typed<cdouble>(in, theta, residual, steps, culled)
                               : finish_typed<double>(in, theta, residual, steps, culled);
}

RestartOutcome run_restart(const RestartInput& in) {
  if (in.ansatz) return ansatz_is_complex(in.params, *in.ansatz) ? run_in_ansatz<cdouble>(in) : run_in_ansatz<double>(in);
  return in.params.complex ? run_typed<cdouble>(in) : run_typed<double>(in);
}

Factors<cdouble> initial_factors(const RestartInput& in) {
  std::mt19937_64 rng(in.seed);
  if (in.params.complex) return initial_point<cdouble>(in, rng);
  Factors<double> x = initial_point<double>(in, rng);
  Factors<cdouble> c;
  for (int q = 0; q < 3; ++q) c.f[q] = x.f[q].cast<cdouble>();
  return c;
}

namespace {
template <class S>
RestartOutcome round_from(const RestartInput& in, const Factors<cdouble>& start, double res, long steps) {
  auto stopped = [&] { return (in.stop && in.stop()) || std::chrono::steady_clock::now() >= in.deadline; };
  Optimiser<S> opt{in.tensor, in.params.method};
  Factors<S> x;
  for (int q = 0; q < 3; ++q) {
    if constexpr (std::is_same_v<S, double>) x.f[q] = start.f[q].real();
    else x.f[q] = start.f[q];
  }
  FixedMask fixed = no_fixed(x);
  RestartOutcome out;
  out.residual = res;
  out.steps = steps;
  // After the lattice pull, relaxation and the device's snap phase many near-misses already sit on
  // the lattice: when every entry snapped gives residual 0 (or a small one, or U, V snapped leave W a
  // fit: W may be the only factor off), the exact repair alone decides (milliseconds, where progressive rounding's re-fits
  // take about a second on 3x3:23); if it fails, progressive rounding runs as before.
  const double snapped = rounded_residual(in.tensor, in.params.lattice, start);
  if (snapped < kSnappedZero || snapped <= in.params.snap_repair_below ||
      uv_snapped_residual(in.tensor, in.params.lattice, start) <= kRepairableBelow) {
    RepairResult fix = repair(in.target.format, round_factors(x, in.params.lattice, 0), in.target.ring);
    if (fix.scheme) {
      out.stage = "found";
      out.how = (snapped < kSnappedZero ? "snapped; " : "snap-repaired; ") + fix.how;
      out.exact_fraction = 1;
      out.scheme = std::move(fix.scheme);
      return out;
    }
  }
  return round_and_repair_typed(in, opt, x, fixed, std::move(out), stopped);
}
}  // namespace

RestartOutcome round_and_repair(const RestartInput& in, const Factors<cdouble>& x, double residual, long steps) {
  return in.params.complex ? round_from<cdouble>(in, x, residual, steps) : round_from<double>(in, x, residual, steps);
}

}  // namespace tdisc::search::numeric
