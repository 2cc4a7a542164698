// Steps 1–3 of prove_numerical: the seed-space residual and Jacobian, Gauss–Newton, gauge fixing by
// continuation and the refinement in GMP floats (prove_refine.hpp).
#include "src/search/numeric/prove_refine.hpp"

#include <Eigen/QR>
#include <Eigen/SVD>
#include <cmath>

namespace tdisc::search::numeric {

namespace {

// Flat index of the Brent equation (a, b, c): (a·mp + b)·pn + c.
struct FlatIndex {
  long nb, nc;
  long operator()(long a, long b, long c) const { return (a * nb + b) * nc + c; }
};

template <class Z>
void subtract_matmul_tensor(const Format& f, std::vector<Z>& x, const Z& one) {
  const FlatIndex at{f.b_size(), f.c_size()};
  for (int i = 0; i < f.n; ++i)
    for (int j = 0; j < f.m; ++j)
      for (int k = 0; k < f.p; ++k) x[at(i * f.m + j, j * f.p + k, k * f.n + i)] -= one;
}

mpf_class times_power_of_two(mpf_class x, long e) {
  if (e >= 0) mpf_mul_2exp(x.get_mpf_t(), x.get_mpf_t(), static_cast<unsigned long>(e));
  else mpf_div_2exp(x.get_mpf_t(), x.get_mpf_t(), static_cast<unsigned long>(-e));
  return x;
}

}  // namespace

Vec<cdouble> seed_residual(const SeedSpace& s, const Vec<cdouble>& theta) {
  const Format& f = s.format;
  const Factors<cdouble> x = expand<cdouble>(s, theta);
  std::vector<cdouble> r(static_cast<size_t>(f.a_size()) * f.b_size() * f.c_size(), 0);
  const FlatIndex at{f.b_size(), f.c_size()};
  for (int t = 0; t < s.rank(); ++t)
    for (int a = 0; a < f.a_size(); ++a) {
      if (x.f[0](a, t) == 0.0) continue;
      for (int b = 0; b < f.b_size(); ++b) {
        const cdouble uv = x.f[0](a, t) * x.f[1](b, t);
        for (int c = 0; c < f.c_size(); ++c) r[at(a, b, c)] += uv * x.f[2](c, t);
      }
    }
  subtract_matmul_tensor<cdouble>(f, r, 1.0);
  return Eigen::Map<Vec<cdouble>>(r.data(), static_cast<Eigen::Index>(r.size()));
}

Mat<cdouble> seed_jacobian(const SeedSpace& s, const Vec<cdouble>& theta) {
  const Format& f = s.format;
  const int na = f.a_size(), nb = f.b_size(), nc = f.c_size();
  const Factors<cdouble> x = expand<cdouble>(s, theta);
  const FlatIndex at{nb, nc};
  Mat<cdouble> j = Mat<cdouble>::Zero(static_cast<long>(na) * nb * nc, s.parameters);
  for (int t = 0; t < s.rank(); ++t) {
    const Mat<cdouble>& e = s.term_map[t];  // (nm+mp+pn) × d_o
    const auto u = x.f[0].col(t), v = x.f[1].col(t), w = x.f[2].col(t);
    for (int k = 0; k < e.cols(); ++k) {
      auto col = j.col(s.term_offset[t] + k);
      for (int a = 0; a < na; ++a)
        for (int b = 0; b < nb; ++b) {
          const cdouble du = e(a, k) * v(b), dv = u(a) * e(na + b, k), uv = u(a) * v(b);
          for (int c = 0; c < nc; ++c) col(at(a, b, c)) += (du + dv) * w(c) + uv * e(na + nb + c, k);
        }
    }
  }
  return j;
}

double gauss_newton(const SeedSpace& s, Vec<cdouble>& theta, const std::vector<int>& free, int iterations,
                    double target) {
  for (int it = 0; it < iterations; ++it) {
    const Vec<cdouble> r = seed_residual(s, theta);
    if (r.norm() < target) break;
    const Mat<cdouble> j = seed_jacobian(s, theta)(Eigen::all, free);
    const Vec<cdouble> step = j.completeOrthogonalDecomposition().solve(-r);
    for (size_t k = 0; k < free.size(); ++k) theta(free[k]) += step(static_cast<long>(k));
  }
  return seed_residual(s, theta).norm();
}

GaugeFix fix_gauge(const SeedSpace& s, Vec<cdouble>& theta, double tolerance) {
  GaugeFix g;
  const Mat<cdouble> j = seed_jacobian(s, theta);
  Eigen::BDCSVD<Mat<cdouble>> svd(j, Eigen::ComputeThinV);
  const auto& sv = svd.singularValues();
  int nullity = 0;
  for (Eigen::Index k = 0; k < sv.size(); ++k) nullity += sv(k) < 1e-7 * sv(0);
  g.family_dimension = nullity;
  if (nullity > 0) {
    // The first coordinates (in seed order) that the family moves independently: a greedy
    // Gram–Schmidt over the rows of the null space. Seed order keeps the choice predictable, and
    // the early orbits' off-diagonal entries fix the sandwich torus as Kaporin's normal form does.
    const Mat<cdouble> rows = svd.matrixV().rightCols(nullity);  // parameters × nullity
    std::vector<Vec<cdouble>> taken;
    for (int k = 0; k < s.parameters && static_cast<int>(g.fixed.size()) < nullity; ++k) {
      Vec<cdouble> r = rows.row(k).transpose();
      for (const Vec<cdouble>& q : taken) r -= q * q.dot(r);
      if (r.norm() < 1e-3 || std::abs(theta(k)) < 1e-3) continue;
      taken.push_back(r / r.norm());
      g.fixed.push_back(k);
    }
  }
  std::vector<bool> is_fixed(s.parameters, false);
  for (int k : g.fixed) is_fixed[k] = true;
  for (int k = 0; k < s.parameters; ++k)
    if (!is_fixed[k]) g.free.push_back(k);
  // Continuation: the fixed coordinates walk to 1 along x0^(1−s) (the families act by scalings, and
  // this path never meets 0), in 16 steps; the others follow by Gauss–Newton.
  const Vec<cdouble> start = theta(g.fixed);
  g.residual = seed_residual(s, theta).norm();
  for (int step = 1; step <= 16 && !g.fixed.empty(); ++step) {
    for (size_t k = 0; k < g.fixed.size(); ++k)
      theta(g.fixed[k]) = std::exp(std::log(start(static_cast<long>(k))) * (1.0 - step / 16.0));
    g.residual = gauss_newton(s, theta, g.free, 12, tolerance);
  }
  g.jacobian_free = seed_jacobian(s, theta)(Eigen::all, g.free);
  Eigen::BDCSVD<Mat<cdouble>> svf(g.jacobian_free);
  const auto& svs = svf.singularValues();
  g.conditioning = svs.size() ? svs(svs.size() - 1) / svs(0) : 1;
  return g;
}

std::vector<CoeffMatrix> exact_term_maps(const SeedSpace& s) {
  std::vector<CoeffMatrix> maps;
  for (const AnsatzOrbit& o : s.exact->orbits)
    for (int e : o.map_elements) maps.push_back(exact_product(s.exact->group.elements[e], o.basis));
  return maps;
}

HpRefinement refine_hp(const SeedSpace& s, const Vec<cdouble>& theta, const GaugeFix& g, unsigned bits) {
  const Format& f = s.format;
  const int na = f.a_size(), nb = f.b_size(), nc = f.c_size();
  // The exact term maps E_t = A_g·B_o in GMP floats, as sparse lists (most entries are zero).
  struct Entry {
    int row, col;
    HpComplex value;
  };
  std::vector<std::vector<Entry>> maps;
  for (const CoeffMatrix& m : exact_term_maps(s)) {
    std::vector<Entry> list;
    for (int r = 0; r < m.rows(); ++r)
      for (int c = 0; c < m.cols(); ++c)
        if (!m(r, c).is_zero()) list.push_back({r, c, HpComplex(m(r, c), bits)});
    maps.push_back(std::move(list));
  }
  HpRefinement out;
  out.theta.reserve(static_cast<size_t>(s.parameters));
  for (int k = 0; k < s.parameters; ++k) out.theta.emplace_back(theta(k), bits);
  for (int k : g.fixed) out.theta[k] = HpComplex(std::complex<double>(1, 0), bits);
  Eigen::ColPivHouseholderQR<Mat<cdouble>> qr(g.jacobian_free);
  const FlatIndex at{nb, nc};
  long previous = std::numeric_limits<long>::max();
  for (int it = 0; it < 400; ++it) {
    std::vector<HpComplex> r(static_cast<size_t>(na) * nb * nc, HpComplex(bits));
    for (size_t t = 0; t < maps.size(); ++t) {
      std::vector<HpComplex> x(static_cast<size_t>(na + nb + nc), HpComplex(bits));
      for (const Entry& e : maps[t]) x[e.row] += e.value * out.theta[s.term_offset[t] + e.col];
      for (int a = 0; a < na; ++a) {
        if (x[a].is_zero()) continue;
        for (int b = 0; b < nb; ++b) {
          const HpComplex uv = x[a] * x[na + b];
          if (uv.is_zero()) continue;
          for (int c = 0; c < nc; ++c) r[at(a, b, c)] += uv * x[na + nb + c];
        }
      }
    }
    subtract_matmul_tensor<HpComplex>(f, r, HpComplex(std::complex<double>(1, 0), bits));
    long e = std::numeric_limits<long>::min() / 2;
    for (const HpComplex& z : r) e = std::max(e, magnitude_exponent(z));
    out.residual_exponent = e;
    out.iterations = it;
    if (e < -static_cast<long>(bits) + 16 || e > previous - 8) break;  // done, or no longer converging
    previous = e;
    // The correction from the double Jacobian, on the residual scaled by 2^-e into double range.
    Vec<cdouble> rd(static_cast<long>(r.size()));
    for (size_t k = 0; k < r.size(); ++k)
      rd(static_cast<long>(k)) = {times_power_of_two(r[k].re, -e).get_d(), times_power_of_two(r[k].im, -e).get_d()};
    const Vec<cdouble> step = qr.solve(-rd);
    for (size_t k = 0; k < g.free.size(); ++k) {
      HpComplex& z = out.theta[g.free[k]];
      z.re += times_power_of_two(mpf_class(step(static_cast<long>(k)).real(), bits), e);
      z.im += times_power_of_two(mpf_class(step(static_cast<long>(k)).imag(), bits), e);
    }
  }
  return out;
}

}  // namespace tdisc::search::numeric
