// Tensor symmetries (isotropies) of T⟨n,m,p⟩ acting on single terms, exactly, and the finite groups
// they generate. A term is the column x = [u; v; w] of its flattened factors (DESIGN §1), length
// nm + mp + pn; every isotropy acts on it by one exact matrix, so a group is a set of such matrices.
// Used by the symmetric ansätze (ansatz.hpp) and by the stabiliser of a scheme (stabiliser.hpp).
#pragma once
#include <string>
#include <vector>

#include "decomposition/scheme.hpp"

namespace tdisc {

// One isotropy: first the transpose (U,V,W) → (Vᵀ,Uᵀ,Wᵀ) when `transposed`, then `shift` cyclic
// rotations (U,V,W) → (V,W,U), then de Groote's sandwich (U,V,W) → (P U Q⁻¹, Q V S⁻¹, S W P⁻¹).
// Transpose and shift need a square format ⟨n,n,n⟩; an empty P, Q or S stands for the identity.
struct Isotropy {
  bool transposed = false;
  int shift = 0;    // 0, 1 or 2
  CoeffMatrix P;    // n × n
  CoeffMatrix Q;    // m × m
  CoeffMatrix S;    // p × p
};

// The length of a term column [u; v; w]: nm + mp + pn.
int term_length(Format f);
// The exact matrix of g on term columns: g·x = A·x, A (nm+mp+pn) × (nm+mp+pn). Throws ContractError
// when g needs a square format and f is not, or P, Q, S have the wrong shape or are singular.
CoeffMatrix term_action(const Isotropy& g, Format f);
// Term r of a scheme as a column [u; v; w], and a term column back as (u, v, w) rows of a scheme.
CoeffMatrix term_column(const Scheme& s, int r);              // (nm+mp+pn) × 1
void set_term_column(Scheme& s, int r, const CoeffMatrix& x);  // x: (nm+mp+pn) × 1
// Whether two term columns are the same rank-one tensor u⊗v⊗w (factors may differ by scalars
// α, β, γ with αβγ = 1). Zero factors count as the zero tensor.
bool same_tensor(const CoeffMatrix& x, const CoeffMatrix& y, Format f);
// Whether two action matrices are the same isotropy up to scalars on the three blocks
// (diag(αI, βI, γI)·A with αβγ = 1 acts identically on tensors).
bool same_isotropy(const CoeffMatrix& a, const CoeffMatrix& b, Format f);
// Exact matrix product of two CoeffMatrix values (Eigen's kernels are not meant for GMP scalars).
CoeffMatrix exact_product(const CoeffMatrix& a, const CoeffMatrix& b);

// A finite group of isotropies, given by generators and closed by multiplication. Elements are kept
// once up to the scalars of same_isotropy; element 0 is the identity.
struct IsotropyGroup {
  Format format;
  std::vector<Isotropy> generators;
  std::vector<CoeffMatrix> elements;     // action matrices, (nm+mp+pn)² each
  std::vector<std::vector<int>> words;   // words[e] = generator indices g1 g2 …: element = A_g1·A_g2·…
  int order() const { return static_cast<int>(elements.size()); }
};

// The closure of the generators. Throws InputError when more than max_order distinct isotropies
// arise (the generators do not generate a finite group of that size).
IsotropyGroup generate_group(Format f, std::vector<Isotropy> generators, int max_order = 4096);
// The action matrix of a word in the generators (A_w0·A_w1·…; the empty word is the identity).
CoeffMatrix word_action(const IsotropyGroup& g, const std::vector<int>& word);
// The isotropy applied to every term of a scheme (terms keep their order).
Scheme apply_isotropy(const CoeffMatrix& action, const Scheme& s);

}  // namespace tdisc
