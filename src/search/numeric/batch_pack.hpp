// Between the engine's types (Eigen factors, Params, MatmulTensor) and the batch's plain data:
// the problem description, packed factors, and the batch's noise applied to Eigen factors.
#pragma once
#include "src/search/numeric/batch_device.hpp"
#include "src/search/numeric/params.hpp"
#include "src/search/numeric/tensor.hpp"

namespace tdisc::search::numeric {

// The batch problem of a target under the resolved parameters (phases 1–2 of restart.cpp).
BatchProblem batch_problem(const MatmulTensor& t, int rank, const Params& p);
MatmulTensor tensor_of(const BatchProblem& p);

template <class S>
std::vector<double> pack(const BatchProblem& p, const Factors<S>& x);
template <class S>
Factors<S> unpack(const BatchProblem& p, const std::vector<double>& packed);

// Adds sigma·N(0,1) to every entry (complex: σ/√2 per part), entry e of the packed order drawn
// from (seed, sweep, e): the device kernels add exactly these numbers.
template <class S>
void add_batch_noise(const BatchProblem& p, Factors<S>& x, unsigned long long seed, long sweep, double sigma);

// The snap phase's held entries on the host: every entry of U, V within `tolerance` of its nearest
// lattice point is set to it and marked fixed (the device holds them with a large weight instead).
template <class S>
FixedMask hold_on_lattice(Factors<S>& x, Lattice l, double tolerance);

}  // namespace tdisc::search::numeric
