// Symmetric ansätze: a scheme built from a few seed terms and a finite group of isotropies, each
// orbit of terms being the images of one seed (Kaporin 2024's Z3 × Z4 construction of a complex
// 4x4:48, Ballard–Ikenmeyer–Landsberg–Ryder's cyclic schemes). The seed of an orbit with a non-trivial
// stabiliser lies in the stabiliser's fixed space, so every expansion is invariant under the group.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "decomposition/symmetry.hpp"

namespace tdisc {

// One orbit of terms: term k = maps[k]·(basis·θ) for the seed parameters θ (basis.cols() of them).
struct AnsatzOrbit {
  std::vector<int> map_elements;         // group elements, one per term (the first is the identity)
  std::vector<int> stabiliser_elements;  // the elements that fix the seed (the identity included)
  CoeffMatrix basis;                     // (nm+mp+pn) × d: the fixed space of the stabiliser
};

struct Ansatz {
  Format format;
  std::string name;     // "z3xz4", "file:…", "stabiliser of r48-Q-…"
  std::string source;   // where the group came from (a paper, a scheme file and its sha256)
  IsotropyGroup group;
  std::vector<AnsatzOrbit> orbits;

  int rank() const;        // terms: Σ orbit sizes
  int parameters() const;  // seed unknowns: Σ basis columns
};

// The number of orbits of each stabiliser: `stabiliser` lists group elements (their closure is the
// subgroup); the orbit has order/|H| terms.
struct OrbitType {
  std::vector<int> stabiliser;
  int count = 0;
};
// The ansatz with the given orbit types: per orbit, coset representatives of G/H as maps and the
// fixed space of H as the seed basis. Throws InputError when a set of elements is not a subgroup.
Ansatz ansatz_from_types(const IsotropyGroup& g, const std::vector<OrbitType>& types, std::string name,
                         std::string source);

// Built-in groups: "z3" (the cyclic shift, square formats) and "z3xz4" (the shift and the sandwich
// by d = diag(1, i, −1, −i, …) on every factor: Kaporin's group for 4x4). nullopt for other names.
std::optional<IsotropyGroup> builtin_group(std::string_view name, Format f);
// The built-in ansatz for a rank: orbits fixed by the shift (`fixed`, −1: the default, R/|Z4| mod 3
// or 3 when that is 0) and free orbits for the rest. Throws InputError when the rank does not split.
Ansatz builtin_ansatz(std::string_view name, Format f, int rank, int fixed = -1);

// The scheme of seed parameters θ_o (basis.cols() × 1 each, one per orbit), exactly.
Scheme expand(const Ansatz& a, const std::vector<CoeffMatrix>& seeds);

}  // namespace tdisc
