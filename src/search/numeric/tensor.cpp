// The sparse matmul tensor (its nmp ones, rotated per mode) and the masks of fixed entries.
// Plain CP algebra (Kolda–Bader 2009 notation); the residual lives in verifier/float_residual.
#include "src/search/numeric/tensor.hpp"

namespace tdisc::search::numeric {

MatmulTensor matmul_tensor(Format f) {
  MatmulTensor t;
  t.format = f;
  t.dims = {f.a_size(), f.b_size(), f.c_size()};
  for (int i = 0; i < f.n; ++i)
    for (int j = 0; j < f.m; ++j)
      for (int k = 0; k < f.p; ++k) {
        int a = f.a_index(i, j), b = f.b_index(j, k), c = f.c_index(k, i);
        t.ones[0].push_back({a, b, c});
        t.ones[1].push_back({b, c, a});
        t.ones[2].push_back({c, a, b});
      }
  return t;
}

long FixedMask::count() const {
  long n = 0;
  for (const auto& m : f) n += m.cast<long>().sum();
  return n;
}

template <class S>
FixedMask no_fixed(const Factors<S>& x) {
  FixedMask m;
  for (int q = 0; q < 3; ++q) m.f[q] = Mask::Zero(x.f[q].rows(), x.f[q].cols());
  return m;
}

template FixedMask no_fixed(const Factors<double>&);
template FixedMask no_fixed(const Factors<cdouble>&);

}  // namespace tdisc::search::numeric
