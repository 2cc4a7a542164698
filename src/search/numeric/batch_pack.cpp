// Conversions between the numeric engine's types and the batch's plain data (batch_pack.hpp).
#include "src/search/numeric/batch_pack.hpp"

#include <cmath>

namespace tdisc::search::numeric {

BatchProblem batch_problem(const MatmulTensor& t, int rank, const Params& p) {
  BatchProblem b;
  b.nmp = {t.format.n, t.format.m, t.format.p};
  b.dims = t.dims;
  b.rank = rank;
  b.complex = p.complex;
  b.lattice = static_cast<int>(p.lattice);
  b.ones = t.ones[0];
  BatchSchedule& c = b.schedule;
  c.sweeps = p.als_iterations;
  c.stall = p.stall_iterations;
  c.noise_every = p.noise_every;
  c.lattice_steps = p.lattice_iterations;
  c.relax_steps = p.relax_iterations;
  c.reg_start = p.reg_start;
  c.reg_end = p.reg_end;
  c.noise_start = p.noise_start;
  c.noise_decay = p.noise_decay;
  c.clip = p.clip;
  c.balance = p.balance ? 1 : 0;
  c.converge_residual = p.converge_residual;
  c.discretise_below = p.discretise_below;
  c.lattice_weight_start = p.lattice_weight_start;
  c.lattice_weight_end = p.lattice_weight_end;
  c.relax_lattice_weight = p.round_lattice_weight;
  c.snap_steps = p.snap_iterations;
  c.snap_tolerance_start = p.snap_tolerance_start;
  // Half the lattice spacing (½·Z[i]: its diagonal): at the end every entry of U, V is held on the lattice.
  c.snap_tolerance_end = p.lattice == Lattice::HalfGaussian ? 0.36 : p.lattice == Lattice::Half ? 0.25 : 0.5;
  return b;
}

MatmulTensor tensor_of(const BatchProblem& p) { return matmul_tensor(Format{p.nmp[0], p.nmp[1], p.nmp[2]}); }

template <class S>
std::vector<double> pack(const BatchProblem& p, const Factors<S>& x) {
  std::vector<double> v;
  v.reserve(static_cast<size_t>(p.packed_size()));
  for (int q = 0; q < 3; ++q)
    for (int i = 0; i < p.dims[q]; ++i)
      for (int r = 0; r < p.rank; ++r) {
        const cdouble z = x.f[q](i, r);
        v.push_back(z.real());
        if (p.complex) v.push_back(z.imag());
      }
  return v;
}

template <class S>
Factors<S> unpack(const BatchProblem& p, const std::vector<double>& packed) {
  Factors<S> x;
  size_t k = 0;
  for (int q = 0; q < 3; ++q) {
    x.f[q] = Mat<S>::Zero(p.dims[q], p.rank);
    for (int i = 0; i < p.dims[q]; ++i)
      for (int r = 0; r < p.rank; ++r) {
        double re = packed[k++], im = p.complex ? packed[k++] : 0.0;
        if constexpr (std::is_same_v<S, double>) x.f[q](i, r) = re;
        else x.f[q](i, r) = {re, im};
      }
  }
  return x;
}

template <class S>
void add_batch_noise(const BatchProblem& p, Factors<S>& x, unsigned long long seed, long sweep, double sigma) {
  long e = 0;
  for (int q = 0; q < 3; ++q)
    for (int i = 0; i < p.dims[q]; ++i)
      for (int r = 0; r < p.rank; ++r, ++e) {
        double g0, g1;
        schedule_normal2(seed, sweep, e, g0, g1);
        if constexpr (std::is_same_v<S, double>) x.f[q](i, r) += sigma * g0;
        else x.f[q](i, r) += cdouble(g0, g1) * (sigma / std::sqrt(2.0));
      }
}

template std::vector<double> pack(const BatchProblem&, const Factors<double>&);
template std::vector<double> pack(const BatchProblem&, const Factors<cdouble>&);
template Factors<double> unpack(const BatchProblem&, const std::vector<double>&);
template Factors<cdouble> unpack(const BatchProblem&, const std::vector<double>&);
template void add_batch_noise(const BatchProblem&, Factors<double>&, unsigned long long, long, double);
template void add_batch_noise(const BatchProblem&, Factors<cdouble>&, unsigned long long, long, double);

}  // namespace tdisc::search::numeric
