// The symmetry group of a scheme, computed exactly: every isotropy g of T⟨n,m,p⟩ (transpose and
// cyclic shift where the format allows them, de Groote's sandwich (P,Q,S) over Q(i)) with g·S = S as
// a set of rank-one tensors (Burichenko 2014 computed these groups for Strassen and Laderman by
// hand). The search matches terms and solves for the sandwich; every element is checked exactly.
#pragma once
#include <array>
#include <optional>
#include <string>

#include "decomposition/symmetry.hpp"

namespace tdisc {

// The stabiliser of s, as an IsotropyGroup: its generators are found elements, its closure is
// checked to hold exactly the elements found, and each element is checked to map s onto itself.
// Transpose needs n = p, the shift a square format; sandwiches range over GL(Q(i)), which for a
// scheme over Q gives the same group (each element is the unique line of a rational linear system).
// Throws InputError, with the reason, for what it does not handle: a GF2 or GF3 scheme; a zero factor; an infinite
// stabiliser (the classical algorithm: every diagonal sandwich fixes it); factor column and row
// spaces that do not determine a sandwich (no rank-deficient factors); more than max_order elements;
// a search that prunes too little.
IsotropyGroup stabiliser(const Scheme& s, int max_order = 4096);

// An isotropy g with g·a = b as sets of rank-one tensors (the two schemes are equivalent), found by
// the same search and checked exactly; nullopt when none exists. Same conditions as stabiliser(b).
std::optional<Isotropy> isotropy_between(const Scheme& a, const Scheme& b);

// The rank types of the terms, "32×(1,1,1) + 16×(2,2,2)": (rank U_r, rank V_r, rank W_r) with their
// counts, most frequent first. An isotropy invariant (the shift and transpose permute the entries).
std::string rank_types(const Scheme& s);
std::array<int, 3> rank_type(const Scheme& s, int r);

}  // namespace tdisc
