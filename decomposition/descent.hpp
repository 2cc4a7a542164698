// Galois descent from Q(i) to Q: a rational scheme equivalent to a Gaussian-rational one, where one
// exists (the isotropy route by which Dumas, Pernet and Sedoglavic turned AlphaEvolve's complex
// 4x4x4:48 into a rational one, arXiv:2506.13242).
//
// Let σ be complex conjugation on coefficients. A rational R = h·S (h a sandwich over Q(i)) has
// σ(R_r) = R_r for every term, so g = σ(h)⁻¹·h carries each term S_r onto σ(S_r): a sandwich whose
// matching is the identity. Conversely, given such a g, g·σ(g) fixes every term, so each of its three
// matrices M meets M·σ(M) = μ·I with μ ∈ Q; when μ is a norm |c|² of Q(i) (rescale M by 1/c), Hilbert's
// theorem 90 gives h = Z + σ(Z)·M for almost every Z, and then σ(h)·g = h, so h·S is rational term
// by term. The identity-matching sandwiches are the solutions of linear conditions (a line per matrix
// when the factor spaces determine a sandwich), so the procedure decides: no such g, or a μ that is
// not a norm, means no rational scheme is equivalent to S under any isotropy (the outer ones are
// rational already).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "decomposition/symmetry.hpp"

namespace tdisc {

// The scheme with every coefficient conjugated (a + b·i → a − b·i), terms in the same order.
Scheme conjugate(const Scheme& s);

// Whether the rational q is a norm x² + y² of Q(i), and then one c with |c|² = q (exact). Decides
// by trial division and a search for the two squares; nullopt too where q's numerator times its
// denominator exceeds 10¹⁴ (not decided: the caller says so).
struct NormSplit {
  bool decided = true;
  std::optional<Coeff> c;  // |c|² = q when q is a norm
};
NormSplit split_norm(const mpq_class& q);

struct Descent {
  std::optional<Scheme> rational;  // h·S with every coefficient rational, terms normalised (see below)
  Isotropy cocycle;                // g: S_r ↦ σ(S_r) for every r, scaled so that g·σ(g) = 1
  Isotropy h;                      // the sandwich with h·S = rational
  int attempts = 0;                // random Z tried
  std::string why_not;             // set when there is no rational equivalent (a proof) or none found
  bool proved_none = false;        // why_not is a proof that no rational scheme is equivalent
};

// A rational scheme equivalent to s, if one exists. s is over Q(i) (a rational s comes back as it
// is). Z is drawn `tries` times from `seed` with entries in {0, ±1, ±i, ±1±i}; the sparsest result
// wins (sandwich_simplify.hpp's measure). Each term of the result is normalised: U and V primitive integral
// (first non-zero entry positive), W carries the scale. Throws InputError where the stabiliser search
// refuses s (stabiliser.hpp: zero factors, an infinite stabiliser, undetermined sandwiches).
Descent descend_to_rationals(const Scheme& s, std::uint64_t seed, int tries = 64);

}  // namespace tdisc
