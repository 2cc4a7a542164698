// Progressive rounding in seed space (after Smirnov 2013's quantisation, here on the few seed
// unknowns of a symmetric ansatz): fix the entry nearest the lattice, re-fit the rest by
// Levenberg–Marquardt, try the other neighbour or defer the entry when the re-fit fails.
#include "src/search/numeric/seed_rounding.hpp"

#include <algorithm>
#include <cmath>

#include "decomposition/ansatz.hpp"
#include "verifier/verify.hpp"

namespace tdisc::search::numeric {

namespace {

// The mode-0 unfolding of Σ_t u_t⊗v_t⊗w_t: (nm) × (mp·pn), column b·pn + c.
Mat<double> unfolding(const Mat<double>& u, const Mat<double>& v, const Mat<double>& w) {
  Mat<double> kr(v.rows() * w.rows(), u.cols());  // Khatri–Rao: row b·pn + c, column t
  for (Eigen::Index b = 0; b < v.rows(); ++b)
    for (Eigen::Index c = 0; c < w.rows(); ++c) kr.row(b * w.rows() + c) = v.row(b).cwiseProduct(w.row(c));
  return u * kr.transpose();
}

Mat<double> target_unfolding(const MatmulTensor& t) {
  Mat<double> m = Mat<double>::Zero(t.dims[0], static_cast<Eigen::Index>(t.dims[1]) * t.dims[2]);
  for (const auto& [a, b, c] : t.ones[0]) m(a, static_cast<Eigen::Index>(b) * t.dims[2] + c) = 1;
  return m;
}

// The expansion's derivative along θ_j, as an unfolding: Σ_t (du⊗v⊗w + u⊗dv⊗w + u⊗v⊗dw).
Mat<double> directional(const SeedSpace& s, const Factors<double>& x, int j) {
  const Format& f = s.format;
  Factors<double> d;
  d.f = {Mat<double>::Zero(f.a_size(), s.rank()), Mat<double>::Zero(f.b_size(), s.rank()),
         Mat<double>::Zero(f.c_size(), s.rank())};
  for (int r = 0; r < s.rank(); ++r) {
    const int k = j - s.term_offset[r];
    if (k < 0 || k >= s.term_map[r].cols()) continue;
    const Vec<double> col = s.term_map[r].col(k).real();
    d.f[0].col(r) = col.head(f.a_size());
    d.f[1].col(r) = col.segment(f.a_size(), f.b_size());
    d.f[2].col(r) = col.tail(f.c_size());
  }
  return unfolding(d.f[0], x.f[1], x.f[2]) + unfolding(x.f[0], d.f[1], x.f[2]) + unfolding(x.f[0], x.f[1], d.f[2]);
}

double lattice_step(Lattice l) { return l == Lattice::Half || l == Lattice::HalfGaussian ? 0.5 : 1.0; }

// The exact scheme of lattice-valued θ (every entry a multiple of the step, exact in double).
Scheme exact_scheme(const SeedSpace& s, const Vec<double>& theta) {
  std::vector<CoeffMatrix> seeds;
  int offset = 0;
  for (const AnsatzOrbit& o : s.exact->orbits) {
    CoeffMatrix seed(o.basis.cols(), 1);
    for (Eigen::Index k = 0; k < o.basis.cols(); ++k) seed(k, 0) = *Coeff::from_double(theta(offset + k));
    offset += static_cast<int>(o.basis.cols());
    seeds.push_back(std::move(seed));
  }
  return expand(*s.exact, seeds);
}

}  // namespace

double refit_seeds(const SeedSpace& s, const MatmulTensor& t, Vec<double>& theta, const std::vector<bool>& free,
                   int iterations, double target) {
  const Mat<double> T = target_unfolding(t);
  std::vector<int> cols;
  for (int j = 0; j < s.parameters; ++j)
    if (free[j]) cols.push_back(j);
  auto residual_of = [&](const Vec<double>& th) {
    Factors<double> x = expand(s, th);
    return (unfolding(x.f[0], x.f[1], x.f[2]) - T).norm();
  };
  double res = residual_of(theta), lambda = 1e-3;
  for (int it = 0; it < iterations && res > target && !cols.empty(); ++it) {
    Factors<double> x = expand(s, theta);
    const Mat<double> E = unfolding(x.f[0], x.f[1], x.f[2]) - T;
    const Eigen::Map<const Vec<double>> e(E.data(), E.size());
    Mat<double> J(E.size(), static_cast<Eigen::Index>(cols.size()));  // (nm·mp·pn) × free
    for (size_t k = 0; k < cols.size(); ++k) {
      Mat<double> d = directional(s, x, cols[k]);
      J.col(static_cast<Eigen::Index>(k)) = Eigen::Map<const Vec<double>>(d.data(), d.size());
    }
    const Mat<double> JtJ = J.transpose() * J;
    const Vec<double> g = J.transpose() * e;
    bool improved = false;
    for (int tries = 0; tries < 8 && !improved; ++tries) {
      Mat<double> A = JtJ;
      A.diagonal().array() += lambda * (1.0 + JtJ.diagonal().array());
      const Vec<double> step = A.ldlt().solve(-g);
      Vec<double> trial = theta;
      for (size_t k = 0; k < cols.size(); ++k) trial(cols[k]) += step(static_cast<Eigen::Index>(k));
      const double r = residual_of(trial);
      if (r < res) theta = trial, res = r, lambda = std::max(1e-12, lambda / 5), improved = true;
      else lambda *= 10;
    }
    if (!improved) break;
  }
  return res;
}

SeedRounding round_seeds(const SeedSpace& s, const MatmulTensor& t, const Params& p, const Vec<double>& theta0,
                         Ring ring, const std::function<bool()>& stopped) {
  SeedRounding out;
  const double h = lattice_step(p.lattice), tolerance = 1e-6;
  Vec<double> theta = theta0;
  std::vector<bool> free(static_cast<size_t>(s.parameters), true), deferred(free.size(), false);
  out.residual = refit_seeds(s, t, theta, free, 30, 1e-12);
  int fixed = 0, deferrals = 0;
  while (fixed < s.parameters && !stopped()) {
    int j = -1;  // the free, undeferred entry nearest the lattice
    for (int k = 0; k < s.parameters; ++k)
      if (free[k] && !deferred[k] &&
          (j < 0 || std::abs(theta(k) - h * std::round(theta(k) / h)) < std::abs(theta(j) - h * std::round(theta(j) / h))))
        j = k;
    if (j < 0) {  // every free entry deferred: retry them now that others are fixed
      if (std::find(deferred.begin(), deferred.end(), true) == deferred.end()) break;
      std::fill(deferred.begin(), deferred.end(), false);
      continue;
    }
    // The lattice point, the other neighbour, then quarters and eighths: a gauge fixed early can
    // leave the last entries on a finer dyadic grid (the FMM copy of the rational 48 has ⅛s).
    const double v = h * std::round(theta(j) / h), other = theta(j) > v ? v + h : v - h;
    std::vector<double> candidates{v, other};
    for (double fine : {h / 2, h / 4})
      if (double c = fine * std::round(theta(j) / fine); std::find(candidates.begin(), candidates.end(), c) == candidates.end())
        candidates.push_back(c);
    bool ok = false;
    for (double value : candidates) {
      Vec<double> trial = theta;
      trial(j) = value;
      free[j] = false;
      const double r = refit_seeds(s, t, trial, free, 30, 1e-12);
      if (r < tolerance) {
        theta = trial, out.residual = r, ok = true;
        break;
      }
      free[j] = true;
    }
    if (ok) { ++fixed; continue; }
    if (++deferrals > p.round_deferrals) break;
    deferred[j] = true;  // try the others first; it may fall into place once they are fixed
  }
  out.exact_fraction = static_cast<double>(fixed) / std::max(1, s.parameters);
  if (fixed < s.parameters) {
    out.how = "seed rounding stopped at " + std::to_string(fixed) + " of " + std::to_string(s.parameters) + " entries";
    return out;
  }
  Scheme sch = exact_scheme(s, theta);
  Verdict v = verify(sch, ring);
  if (!v.valid) {
    out.how = "seed rounding: the exact expansion fails (" + v.why_not + ")";
    return out;
  }
  sch.ring = ring;
  out.how = "seed rounding (" + std::to_string(s.parameters) + " entries onto the lattice)";
  out.scheme = std::move(sch);
  return out;
}

}  // namespace tdisc::search::numeric
