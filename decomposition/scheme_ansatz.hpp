// The ansatz of a scheme under a group that fixes it: the orbits of its terms, each with a
// representative, the representative's stabiliser, one group element per term of the orbit, and the
// seed space in which every seed gives an orbit of the same shape. Expanding the representatives'
// seeds gives the scheme back (as a set of rank-one tensors); other seeds give other invariant schemes.
#pragma once
#include <string>
#include <vector>

#include "decomposition/ansatz.hpp"

namespace tdisc {

struct SchemeAnsatz {
  Ansatz ansatz;
  std::vector<std::vector<int>> terms;  // orbit o → s's terms in the order of its map_elements (the first: its representative)
  std::vector<CoeffMatrix> seeds;       // orbit o → θ_o (basis.cols() × 1) with basis·θ_o = the representative's column
};

// Every element of g must map s onto itself as a set of tensors (InputError otherwise). An element h of
// a representative's stabiliser maps it to (αU, βV, γW) with αβγ = 1; the seed basis is the space of
// columns that every such h scales by its own (α, β, γ), so that for every seed the expansion is again
// invariant, and it contains the representative. Map elements are the shortest words that reach each
// term. Each map and each stabiliser element is checked exactly on the representative. An empty name
// becomes "stabiliser of r48-Q-2fc8ef12" (s's catalogue name), an empty source s's sha256 and name.
SchemeAnsatz scheme_ansatz(const Scheme& s, const IsotropyGroup& g, std::string name = "", std::string source = "");
Ansatz ansatz_of(const Scheme& s, const IsotropyGroup& g);  // scheme_ansatz(s, g).ansatz

// Whether two schemes hold the same multiset of rank-one tensors (terms in any order, factors up to
// scalars α, β, γ with αβγ = 1).
bool same_tensor_set(const Scheme& a, const Scheme& b);

}  // namespace tdisc
