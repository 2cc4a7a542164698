// Alternating least squares for T⟨n,m,p⟩ ≈ [[A,B,C]] with Tikhonov regularisation, a lattice
// penalty, soft clipping and fixed entries (Smirnov 2013; Kolda–Bader 2009 for plain CP-ALS).
#pragma once
#include "src/search/numeric/lattice.hpp"
#include "src/search/numeric/tensor.hpp"

namespace tdisc::search::numeric {

// The penalised objective ‖T − [[A,B,C]]‖² + reg·‖x‖² + lattice·Σ|x − nearest(x)|² over free
// entries; clip > 0 softly bounds |x| after each update.
struct Weights {
  double reg = 0;
  double lattice = 0;
  Lattice kind = Lattice::Half;
  double clip = 0;
};

// One sweep: A, then B, then C, each solved exactly given the other two. Fixed entries keep their
// values; rows with fixed entries are solved on their free entries alone.
template <class S>
void als_sweep(const MatmulTensor& t, Factors<S>& x, const FixedMask& fixed, const Weights& w);

// Soft clipping of the magnitude: identity up to c, bounded by c + 1 beyond.
double soft_clip(double x, double c);
cdouble soft_clip(cdouble x, double c);

// Rescales each term so that ‖a_r‖ = ‖b_r‖ = ‖c_r‖ (keeps ALS well conditioned; only for terms
// with no fixed entry, since rescaling would move fixed lattice values).
template <class S>
void balance_terms(Factors<S>& x, const FixedMask& fixed);

}  // namespace tdisc::search::numeric
