// The seed-space loss of a symmetric ansatz: expansion, Gram-matrix loss and its gradient pulled back
// through the (linear) expansion. The Gram form costs O(R²·(nm+mp+pn)) per evaluation instead of the
// dense residual's O(R·nm·mp·pn), the usual CP trick (Kolda–Bader 2009).
#include "src/search/numeric/seed_space.hpp"

#include <cmath>

#include "base/error.hpp"
#include "decomposition/formats/ansatz_file.hpp"

namespace tdisc::search::numeric {

namespace {

Mat<cdouble> to_float(const CoeffMatrix& m) {
  Mat<cdouble> out(m.rows(), m.cols());
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c) out(r, c) = {m(r, c).real_double(), m(r, c).imag_double()};
  return out;
}

template <class S>
Mat<S> as(const Mat<cdouble>& m) {
  if constexpr (std::is_same_v<S, double>) return m.real();
  else return m;
}

template <class S>
double nearest(double x, double step) { return std::round(x / step) * step; }

// pull·Σ|x − lattice(x)|² and its gradient 2·pull·(x − lattice(x)) on one factor matrix.
template <class S>
double lattice_pull(const Mat<S>& f, Mat<S>& g, double pull, double step) {
  double sum = 0;
  for (Eigen::Index k = 0; k < f.size(); ++k) {
    S x = f.data()[k], d;
    if constexpr (std::is_same_v<S, double>) d = x - nearest<S>(x, step);
    else d = x - cdouble(nearest<S>(x.real(), step), nearest<S>(x.imag(), step));
    sum += std::norm(d);
    g.data()[k] += pull * d;  // ∂/∂x̄ of pull·|d|²
  }
  return pull * sum;
}

}  // namespace

SeedSpace seed_space(const Ansatz& a) {
  SeedSpace s;
  s.format = a.format;
  s.name = a.name;
  s.source = a.source;
  s.group_order = a.group.order();
  s.exact = std::make_shared<const Ansatz>(a);
  for (const AnsatzOrbit& o : a.orbits) {
    for (int e : o.map_elements) {
      Mat<cdouble> m = to_float(exact_product(a.group.elements[e], o.basis));  // (nm+mp+pn) × d_o
      if (m.imag().cwiseAbs().maxCoeff() > 0) s.real = false;
      s.term_map.push_back(std::move(m));
      s.term_offset.push_back(s.parameters);
    }
    s.orbit_sizes.push_back(static_cast<int>(o.map_elements.size()));
    s.parameters += static_cast<int>(o.basis.cols());
  }
  return s;
}

std::shared_ptr<const SeedSpace> load_seed_space(const std::string& spec, Format f, int rank, int fixed) {
  Ansatz a = builtin_group(spec, f) ? builtin_ansatz(spec, f, rank, fixed) : read_ansatz(spec);
  if (a.format != f) throw InputError(spec + ": the ansatz is for " + a.format.str() + ", the target is " + f.str());
  if (a.rank() != rank)
    throw InputError(spec + ": the ansatz has " + std::to_string(a.rank()) + " terms, the target rank is " +
                     std::to_string(rank));
  return std::make_shared<const SeedSpace>(seed_space(a));
}

template <class S>
Factors<S> expand(const SeedSpace& s, const Vec<S>& theta) {
  const Format& f = s.format;
  const int R = s.rank();
  Factors<S> x;
  x.f = {Mat<S>(f.a_size(), R), Mat<S>(f.b_size(), R), Mat<S>(f.c_size(), R)};
  for (int t = 0; t < R; ++t) {
    const Mat<cdouble>& e = s.term_map[t];
    Vec<S> col = as<S>(e) * theta.segment(s.term_offset[t], e.cols());  // (nm+mp+pn)
    x.f[0].col(t) = col.head(f.a_size());
    x.f[1].col(t) = col.segment(f.a_size(), f.b_size());
    x.f[2].col(t) = col.tail(f.c_size());
  }
  return x;
}

template <class S>
double loss_and_gradient(const SeedSpace& s, const MatmulTensor& t, const Vec<S>& theta, Vec<S>& grad, double pull,
                         double lattice_step, const RecipeStep* recipe) {
  Factors<S> x = expand(s, theta);
  if (recipe) hallucinate(*recipe, x);
  std::array<Mat<S>, 3> gram;  // R × R each: gram[q](r, k) = x_q,rᴴ · x_q,k
  for (int q = 0; q < 3; ++q) gram[q] = x.f[q].adjoint() * x.f[q];
  double loss = std::real((gram[0].cwiseProduct(gram[1]).cwiseProduct(gram[2])).sum());
  std::array<Mat<S>, 3> g;  // ∂‖X‖²/∂x̄ per factor: x_q · (gram of the other two, Hadamard)ᵀ
  for (int q = 0; q < 3; ++q) g[q] = x.f[q] * gram[(q + 1) % 3].cwiseProduct(gram[(q + 2) % 3]).transpose();
  // −2 Re⟨T, X⟩ over the ones (a, b, c) of T, and its gradient.
  const auto& ones = t.ones[0];
  for (int r = 0; r < s.rank(); ++r) {
    S cross = 0;
    for (const auto& [a, b, c] : ones) {
      const S ua = x.f[0](a, r), vb = x.f[1](b, r), wc = x.f[2](c, r);
      cross += ua * vb * wc;
      if constexpr (std::is_same_v<S, double>) {
        g[0](a, r) -= vb * wc, g[1](b, r) -= ua * wc, g[2](c, r) -= ua * vb;
      } else {
        g[0](a, r) -= std::conj(vb * wc), g[1](b, r) -= std::conj(ua * wc), g[2](c, r) -= std::conj(ua * vb);
      }
    }
    loss -= 2 * std::real(cross);
  }
  loss += static_cast<double>(ones.size());  // ‖T‖²
  if (pull > 0)
    for (int q = 0; q < 3; ++q) loss += lattice_pull<S>(x.f[q], g[q], pull, lattice_step);
  if (recipe) add_recipe_gradient(*recipe, x, g);
  grad = Vec<S>::Zero(s.parameters);
  const Format& f = s.format;
  Vec<S> gx(term_length(f));
  for (int r = 0; r < s.rank(); ++r) {
    gx << g[0].col(r), g[1].col(r), g[2].col(r);
    const Mat<cdouble>& e = s.term_map[r];
    grad.segment(s.term_offset[r], e.cols()) += 2.0 * (as<S>(e).adjoint() * gx);
  }
  return loss;
}

template Factors<double> expand(const SeedSpace&, const Vec<double>&);
template Factors<cdouble> expand(const SeedSpace&, const Vec<cdouble>&);
template double loss_and_gradient(const SeedSpace&, const MatmulTensor&, const Vec<double>&, Vec<double>&, double, double,
                                  const RecipeStep*);
template double loss_and_gradient(const SeedSpace&, const MatmulTensor&, const Vec<cdouble>&, Vec<cdouble>&, double,
                                  double, const RecipeStep*);

}  // namespace tdisc::search::numeric
