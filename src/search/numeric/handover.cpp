// The hand-over order of near-misses from the GPU batch to the CPU rounding threads (handover.hpp).
#include "src/search/numeric/handover.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>

namespace tdisc::search::numeric {

double rounded_residual(const MatmulTensor& t, Lattice l, const Factors<cdouble>& x) {
  Factors<cdouble> r = x;  // I_q × R each, term-major columns
  for (int q = 0; q < 3; ++q)
    for (Eigen::Index k = 0; k < r.f[q].size(); ++k) r.f[q].data()[k] = nearest(l, r.f[q].data()[k]);
  return residual(t, r);
}

double uv_snapped_residual(const MatmulTensor& t, Lattice l, const Factors<cdouble>& x) {
  Factors<cdouble> r = x;  // I_q × R each; W (q = 2) kept
  for (int q = 0; q < 2; ++q)
    for (Eigen::Index k = 0; k < r.f[q].size(); ++k) r.f[q].data()[k] = nearest(l, r.f[q].data()[k]);
  return residual(t, r);
}

std::vector<int> handover_order(const std::vector<HandoverKey>& keys) {
  std::vector<int> order(keys.size());
  std::iota(order.begin(), order.end(), 0);
  auto finite_or_inf = [](double v) { return std::isfinite(v) ? v : INFINITY; };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const HandoverKey &x = keys[static_cast<size_t>(a)], &y = keys[static_cast<size_t>(b)];
    return std::make_tuple(finite_or_inf(x.rounded), finite_or_inf(x.residual), x.restart) <
           std::make_tuple(finite_or_inf(y.rounded), finite_or_inf(y.residual), y.restart);
  });
  return order;
}

}  // namespace tdisc::search::numeric
