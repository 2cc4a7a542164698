// Progressive rounding onto the lattice with re-optimisation between batches and backtracking
// (Smirnov 2013's quantisation schedule; AlphaEvolve 2025 rounds its complex factors to ½·Z[i]).
#include "src/search/numeric/rounding.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace tdisc::search::numeric {

namespace {

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

}  // namespace

template <class S>
RoundingResult progressive_round(Optimiser<S>& opt, Factors<S>& x, FixedMask& fixed, const Params& p,
                                 const std::function<bool()>& stop) {
  double total = 0;
  for (int q = 0; q < p.round_factors; ++q) total += static_cast<double>(x.f[q].size());
  // A light lattice pull while re-fitting: strong enough to keep leaning the free entries towards
  // the lattice, weak enough that the residual can return to ~0 when the fixed entries allow it.
  const Weights w{p.reg_end, p.round_lattice_weight, p.lattice, p.clip};
  RoundingResult out;
  out.residual = residual(opt.tensor, x);
  long backtracks = 0;
  double fraction = p.round_fraction;
  while (!stop()) {
    auto cand = free_by_confidence(x, fixed, p.lattice, p.round_factors);
    out.exact_fraction = (total - static_cast<double>(cand.size())) / total;
    if (cand.empty()) {
      out.complete = out.residual <= p.round_residual;
      return out;
    }
    auto batch = std::max<size_t>(1, static_cast<size_t>(std::ceil(fraction * cand.size())));
    batch = std::min(batch, cand.size());
    Factors<S> saved_x = x;
    FixedMask saved_fixed = fixed;
    for (size_t b = 0; b < batch; ++b) {
      S& v = x.f[cand[b].q].data()[cand[b].k];
      v = S(nearest(p.lattice, v));
      fixed.f[cand[b].q].data()[cand[b].k] = 1;
    }
    const long free_after = static_cast<long>(cand.size() - batch);
    opt.method = p.round_method == Method::Auto ? (free_after <= kLmMaxParameters ? Method::Lm : Method::Als)
                                                : p.round_method;
    const long iterations = opt.method == Method::Lm ? std::max(1L, p.round_iterations / 20) : p.round_iterations;
    for (long it = 0; it < iterations && batch < cand.size(); ++it) opt.step(x, fixed, w);
    double r = residual(opt.tensor, x);
    if (std::getenv("TDISC_NUMERIC_DEBUG")) fprintf(stderr, "  batch %zu of %zu free, dist %g..%g, residual %g\n", batch, cand.size(), cand[0].distance, cand[batch-1].distance, r);
    if (r <= p.round_residual) {
      out.residual = r;
      continue;
    }
    // The batch broke the decomposition: undo it and try a smaller one.
    x = std::move(saved_x);
    fixed = std::move(saved_fixed);
    if (++backtracks > p.round_backtracks || batch == 1) return out;
    fraction = std::max(fraction / 2, 1.0 / static_cast<double>(cand.size()));
    if (batch <= 1) return out;
  }
  return out;
}

template RoundingResult progressive_round(Optimiser<double>&, Factors<double>&, FixedMask&, const Params&,
                                          const std::function<bool()>&);
template RoundingResult progressive_round(Optimiser<cdouble>&, Factors<cdouble>&, FixedMask&, const Params&,
                                          const std::function<bool()>&);

}  // namespace tdisc::search::numeric
