// The ansatz file, `tdisc-ansatz` version 1 (docs/symmetry.md): a finite group of isotropies given by
// its generators, and the orbits of a symmetric scheme of that group, each as the words of its maps and
// its stabiliser and the basis of its seed space. It holds no coefficients of a scheme, only the shape
// that a search fills in.
//
//   {"format": "tdisc-ansatz", "version": 1, "n": 4, "m": 4, "p": 4,
//    "name": "stabiliser of r48-Q-2fc8ef12", "source": "…", "order": 64, "rank": 48, "parameters": 1808,
//    "generators": [{"transposed": false, "shift": 0, "P": [["0","1"],…], "Q": […], "S": […]}, …],
//    "orbits": [{"size": 16, "maps": [[], [0], [1, 0], …], "stabiliser": [[], [2]],
//                "basis": [["1","0",…], …]}, …]}
//
// A word [g1, g2, …] is the product A_g1·A_g2·… of generator actions (the empty word: the identity);
// a basis row is one seed direction, a term column [u; v; w] of nm + mp + pn coefficients.
#pragma once
#include <string>

#include "decomposition/ansatz.hpp"

namespace tdisc {

// Parses ansatz text; `path` labels errors, InputError("PATH:LINE: …"). The group is regenerated from
// the generators and must have the stated order; each orbit's maps, one per term, must start with the
// identity and together with its stabiliser cover the group exactly once (g_k·h distinct for every
// map g_k and stabiliser element h, |maps|·|stabiliser| = order), and every stabiliser element must
// scale the basis by one triple (α, β, γ) with αβγ = 1, so every expansion is invariant.
Ansatz parse_ansatz(const std::string& text, const std::string& path);
Ansatz read_ansatz(const std::string& path);
// The text of a file, one generator matrix row, map word and basis row per line.
std::string ansatz_text(const Ansatz& a);
void write_ansatz(const std::string& path, const Ansatz& a);  // atomic

}  // namespace tdisc
