// Progressive rounding onto the lattice with re-optimisation between batches and backtracking
// (Smirnov 2013's quantisation schedule; AlphaEvolve 2025 rounds its complex factors to ½·Z[i]).
#include "src/search/numeric/rounding.hpp"

#include <algorithm>
#include <cmath>

namespace tdisc::search::numeric {

namespace {

// LM re-fits of a rounding batch end early once a step changes the residual by at most this share
// (measured on 3x3:23: it settles at the penalties' balance, ~3e-5, within 1–3 steps of the 10 it
// was given) or after this many consecutive rejected steps.
constexpr double kLmFlat = 0.01;
constexpr int kLmGiveUp = 2;

struct Candidate {
  double distance;
  int q;
  Eigen::Index k;  // linear index into the factor's storage
};

// Candidates from the factors being rounded: U and V only when the third is left to the exact
// repair (it then solves W from U and V by linear algebra), else all three.
template <class S>
std::vector<Candidate> free_by_confidence(const Factors<S>& x, const FixedMask& fixed, Lattice l, int factors) {
  std::vector<Candidate> c;
  for (int q = 0; q < factors; ++q)
    for (Eigen::Index k = 0; k < x.f[q].size(); ++k)
      if (!fixed.f[q].data()[k]) {
        S v = x.f[q].data()[k];
        c.push_back({std::abs(v - S(nearest(l, v))), q, k});
      }
  // Ties broken by position so the order (and the run) is reproducible.
  std::sort(c.begin(), c.end(), [](const Candidate& a, const Candidate& b) {
    return a.distance != b.distance ? a.distance < b.distance
                                    : std::pair(a.q, a.k) < std::pair(b.q, b.k);
  });
  return c;
}

// The lattice point on the other side of x from its nearest one (x = 0.3 → 0 when nearest is ½).
double other_neighbour(Lattice l, double x) {
  double n = nearest(l, x), step = (l == Lattice::Half || l == Lattice::HalfGaussian) ? 0.5 : 1.0;
  return nearest(l, n + (x >= n ? step : -step));
}
cdouble other_neighbour(Lattice l, cdouble x) {
  cdouble n = nearest(l, x);
  if (std::abs(x.real() - n.real()) >= std::abs(x.imag() - n.imag()))
    return {other_neighbour(l, x.real()), n.imag()};
  return {n.real(), other_neighbour(l, x.imag())};
}

template <class S>
class Rounder {
public:
  Rounder(Optimiser<S>& opt, Factors<S>& x, FixedMask& fixed, const Params& p)
      : opt_(opt), x_(x), fixed_(fixed), p_(p), deferred_(no_fixed(x)) {}

  // Fixes the given entries at the given values and re-fits the rest; undoes it all when the
  // residual does not come back below round_residual.
  bool try_fix(const std::vector<Candidate>& entries, const std::vector<S>& values, size_t free_now) {
    Factors<S> saved_x = x_;
    FixedMask saved_fixed = fixed_;
    for (size_t b = 0; b < entries.size(); ++b) {
      x_.f[entries[b].q].data()[entries[b].k] = values[b];
      fixed_.f[entries[b].q].data()[entries[b].k] = 1;
    }
    const long free_after = static_cast<long>(free_now - entries.size());
    opt_.method = p_.round_method == Method::Auto
                      ? (real_parameters<S>(free_after) <= kLmMaxParameters ? Method::Lm : Method::Als)
                      : p_.round_method;
    const long iterations = opt_.method == Method::Lm ? std::max(1L, p_.round_iterations / 20) : p_.round_iterations;
    const Weights w{p_.reg_end, p_.round_lattice_weight, p_.lattice, p_.clip};
    double r = INFINITY;
    opt_.lm.rejected = 0;
    for (long it = 0; it < iterations && free_after > 0; ++it) {
      opt_.step(x_, fixed_, w);
      if (opt_.method != Method::Lm) continue;
      // LM lands on the balance of residual and penalties in a few steps (or never leaves a
      // failed point): each step costs a Cholesky of the free entries, so stop once the residual
      // is flat or the damping keeps rejecting steps.
      const double before = r;
      r = residual(opt_.tensor, x_);
      const bool flat = it > 0 && opt_.lm.rejected == 0 && std::abs(before - r) <= kLmFlat * before;
      if (flat || opt_.lm.rejected >= kLmGiveUp) break;
    }
    if (opt_.method != Method::Lm || free_after == 0) r = residual(opt_.tensor, x_);
    if (r <= p_.round_residual) {
      residual_ = r;
      return true;
    }
    x_ = std::move(saved_x);
    fixed_ = std::move(saved_fixed);
    return false;
  }

  std::vector<Candidate> candidates() const {
    auto c = free_by_confidence(x_, fixed_, p_.lattice, p_.round_factors);
    std::erase_if(c, [&](const Candidate& e) { return deferred_.f[e.q].data()[e.k] != 0; });
    return c;
  }
  void defer(const Candidate& e) { deferred_.f[e.q].data()[e.k] = 1; }
  S nearest_value(const Candidate& e) const { return S(nearest(p_.lattice, x_.f[e.q].data()[e.k])); }
  S other_value(const Candidate& e) const { return other_neighbour(p_.lattice, x_.f[e.q].data()[e.k]); }
  double residual_now() const { return residual_; }
  void set_residual(double r) { residual_ = r; }

private:
  Optimiser<S>& opt_;
  Factors<S>& x_;
  FixedMask& fixed_;
  const Params& p_;
  FixedMask deferred_;  // entries left to the repair after both lattice neighbours failed
  double residual_ = 0;
};

}  // namespace

template <class S>
RoundingResult progressive_round(Optimiser<S>& opt, Factors<S>& x, FixedMask& fixed, const Params& p,
                                 const std::function<bool()>& stop) {
  double total = 0;
  for (int q = 0; q < p.round_factors; ++q) total += static_cast<double>(x.f[q].size());
  Rounder<S> rounder(opt, x, fixed, p);
  rounder.set_residual(residual(opt.tensor, x));
  RoundingResult out;
  long backtracks = 0, deferrals = 0;
  double fraction = p.round_fraction;
  auto finish = [&](bool complete) {
    out.complete = complete;
    out.residual = rounder.residual_now();
    double fixed_count = 0;
    for (int q = 0; q < p.round_factors; ++q) fixed_count += static_cast<double>(fixed.f[q].template cast<long>().sum());
    out.exact_fraction = fixed_count / total;
    return out;
  };
  while (!stop()) {
    auto cand = rounder.candidates();
    if (cand.empty()) return finish(deferrals == 0 && rounder.residual_now() <= p.round_residual);
    auto batch = std::max<size_t>(1, static_cast<size_t>(std::ceil(fraction * cand.size())));
    batch = std::min(batch, cand.size());
    std::vector<Candidate> entries(cand.begin(), cand.begin() + static_cast<long>(batch));
    std::vector<S> values;
    for (const auto& e : entries) values.push_back(rounder.nearest_value(e));
    if (rounder.try_fix(entries, values, cand.size())) continue;
    if (batch > 1) {  // the batch broke the decomposition: smaller batches from here on
      if (++backtracks > p.round_backtracks) return finish(false);
      fraction = std::max(fraction / 2, 1.0 / static_cast<double>(cand.size()));
      continue;
    }
    // One entry alone fails at its nearest lattice point: try the other neighbour, else leave it
    // free for the repair (which snaps it to a simple rational) and go on with the next.
    if (rounder.try_fix(entries, {rounder.other_value(entries[0])}, cand.size())) continue;
    if (++deferrals > p.round_deferrals) return finish(false);
    rounder.defer(entries[0]);
  }
  return finish(false);
}

template RoundingResult progressive_round(Optimiser<double>&, Factors<double>&, FixedMask&, const Params&,
                                          const std::function<bool()>&);
template RoundingResult progressive_round(Optimiser<cdouble>&, Factors<cdouble>&, FixedMask&, const Params&,
                                          const std::function<bool()>&);

}  // namespace tdisc::search::numeric
