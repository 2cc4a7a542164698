// Exact characteristic-0 verification by residues, for large formats where the exact GMP product is
// slow (a 16x16x16 rank-2236 scheme over Q takes many minutes): each Brent equation's scaled
// residual N = L·(Σ_r U_r⊗V_r⊗W_r − T) is an integer with |N| ≤ L·S, S = Σ_r max|U_r|·max|V_r|·max|W_r| + 1
// (L the lcm of the terms' denominators). It is checked modulo primes p ∤ L, p < 2^20, whose product
// exceeds L·S: N ≡ 0 modulo all of them then forces N = 0. Per prime the tensor is contracted as
// dense double products that are exact (every partial sum stays below 2^53).
#pragma once
#include <optional>

#include "decomposition/scheme.hpp"

namespace tdisc {

struct ResidueVerdict {
  bool valid = false;
  int primes = 0;           // primes used
  long first_failing = -1;  // flat equation index (a·mp + b)·pn + c of a failure, when invalid
};

// nullopt when the method does not apply: complex coefficients, R too large for exact doubles, or a
// bound that needs more than 64 primes (huge coefficients; the exact product is then no slower).
std::optional<ResidueVerdict> verify_by_residues(const Scheme& s);

// Whether every Brent equation of s holds modulo the prime p: exact verification over GF(p) (2 ≤ p < 2^20,
// p dividing no denominator of s, as ring_holds checks), by one dense contraction mod p.
bool holds_mod_prime(const Scheme& s, long p);

// Whether verify() and classify() use residues for s (real coefficients, (nm)(mp)(pn) ≥ 2^22).
bool residues_preferred(const Scheme& s);

}  // namespace tdisc
