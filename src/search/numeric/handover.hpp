// Which near-misses of the GPU batch the CPU rounding threads get first when they are the
// bottleneck: a cheap pre-check (the residual of the factors snapped to the lattice) orders them.
#pragma once
#include <vector>

#include "src/search/numeric/lattice.hpp"
#include "src/search/numeric/tensor.hpp"

namespace tdisc::search::numeric {

// ‖T − [[nearest(A), nearest(B), nearest(C)]]‖_F: 0 means rounding alone already gives a scheme;
// small values mean few entries sit far from the lattice.
double rounded_residual(const MatmulTensor& t, Lattice l, const Factors<cdouble>& x);

// ‖T − [[nearest(A), nearest(B), C]]‖_F: U and V snapped, W as it is. Near 0, an exact W for the
// snapped U, V exists nearby and the exact repair (W solved from U, V) decides in milliseconds.
double uv_snapped_residual(const MatmulTensor& t, Lattice l, const Factors<cdouble>& x);

// Below this uv_snapped_residual a near-miss goes to the exact repair first (and to the front of the
// hand-over); a point on the solution set has ~1e-6 here, one with a wrong U or V entry ≳ 0.1.
constexpr double kRepairableBelow = 1e-3;

// A parked near-miss as the hand-over sees it.
struct HandoverKey {
  double rounded = 0;   // rounded_residual of its factors
  double residual = 0;  // its residual when the continuous phase ended
  long restart = 0;     // its restart index (the last tie-break: the order is deterministic)
};

// Positions of `keys`, best first: smaller rounded residual, then smaller residual, then lower
// restart index. Non-finite keys go last.
std::vector<int> handover_order(const std::vector<HandoverKey>& keys);

}  // namespace tdisc::search::numeric
