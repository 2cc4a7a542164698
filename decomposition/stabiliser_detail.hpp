// Internals of the stabiliser search (stabiliser.hpp): the column and row spaces of every factor, the
// linear conditions a sandwich must meet to carry one term onto another, and the search for every
// sandwich that carries one scheme onto another as a set of rank-one tensors.
//
// Why the conditions: (P U Q⁻¹, Q V S⁻¹, S W P⁻¹) ∝ (U₂, V₂, W₂) forces P·col(U) = col(U₂),
// row(U₂)·Q = row(U), Q·col(V) = col(V₂), row(V₂)·S = row(V), S·col(W) = col(W₂) and
// row(W₂)·P = row(W). Each is linear in one of P, Q, S (aᵀ·M·b = 0 for a in an annihilator and b in a
// basis), so a partial matching of terms cuts each of P, Q, S down to a linear space; once each is a
// line, the sandwich is known up to the scalars that act trivially, and the whole matching is checked.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "decomposition/modp.hpp"
#include "decomposition/symmetry.hpp"

namespace tdisc::stab {

// The kernel of k as columns (cols × d), exactly; the basis is canonical for the kernel (the free
// unknowns of the reduced echelon form carry the identity).
CoeffMatrix exact_nullspace(const CoeffMatrix& k);
int exact_rank(const CoeffMatrix& k);
// Every entry modulo p (TDISC_REQUIRE: no denominator divisible by p).
modp::Matrix reduce_matrix(const CoeffMatrix& m);

// The spaces of one factor M (rows × cols); every basis is stored as columns.
struct FactorSpaces {
  int rank = 0;
  std::string col_key, row_key;  // canonical text of col(M)^⊥ and ker(M): equal keys, equal spaces
  CoeffMatrix col_basis;         // rows × rank: spans col(M)
  CoeffMatrix col_ann;           // rows × (rows − rank): ℓ with ℓᵀ·M = 0
  CoeffMatrix row_basis;         // cols × rank: spans row(M)ᵀ
  CoeffMatrix row_ann;           // cols × (cols − rank): ℓ with M·ℓ = 0
  modp::Matrix col_basis_p, col_ann_p, row_basis_p, row_ann_p;  // the same modulo p
  modp::Matrix matrix_p;         // M itself modulo p, rows × cols
};
struct TermSpaces {
  std::array<FactorSpaces, 3> f;  // U (n×m), V (m×p), W (p×n)
};
std::vector<TermSpaces> term_spaces(const Scheme& s);

// Throws InputError, with the reason, for a scheme the search does not handle: no terms, a modular
// ring, a zero factor, a denominator divisible by the search's prime.
void require_supported(const Scheme& s);
// Throws InputError unless the terms' own conditions pin each of P, Q, S to a line (a finite
// stabiliser whose sandwiches the factor spaces determine); says whether the group is infinite.
void require_determined(const Scheme& s, const std::vector<TermSpaces>& spaces);

// The side lengths of the three sandwich matrices P (n), Q (m), S (p).
std::array<int, 3> slot_sizes(Format f);

// The rows of the linear system for vec(M) (row-major, M[i][j] at i·d + j) that carry term `from`
// onto term `to` in slot `slot` (0: P, 1: Q, 2: S), exactly and modulo p. Slot k multiplies factor k
// from the left (P·U) and its inverse multiplies factor k − 1 from the right (W·P⁻¹).
std::vector<std::vector<Coeff>> exact_condition_rows(const TermSpaces& from, const TermSpaces& to, int slot);
std::vector<std::vector<modp::Fp>> condition_rows_p(const TermSpaces& from, const TermSpaces& to, int slot);
// Entry e of row `index` of exact_condition_rows(from, to, slot), alone.
Coeff exact_condition_entry(const TermSpaces& from, const TermSpaces& to, int slot, size_t index, int e);

// Six numbers for a pair of terms that every sandwich preserves: dim(col(X_a) + col(X_b)) and
// dim(row(X_a) + row(X_b)) for X = U, V, W. Cached by the spaces' keys, shared across schemes.
using PairInvariant = std::array<int, 6>;
class PairDims {
public:
  PairInvariant of(const TermSpaces& a, const TermSpaces& b);

private:
  int sum_dim(const std::string& ka, const CoeffMatrix& a, const std::string& kb, const CoeffMatrix& b);
  struct Hash {
    size_t operator()(const std::pair<std::string, std::string>& k) const;
  };
  std::unordered_map<std::pair<std::string, std::string>, int, Hash> cache_;
};

// Rows of equal length as a matrix (rows.size() × width).
CoeffMatrix stack_rows(const std::vector<std::vector<Coeff>>& rows, int width);

// A matching of terms: (source term, target term) pairs.
using Matching = std::vector<std::pair<int, int>>;
// Sandwich matrix `slot` as the matched terms' conditions leave it, exactly, up to scale: from d² − 1
// rows independent modulo p when line_p (d² × 1, the line modulo p) is given, else from the kernel of
// every row. nullopt when there is none. A matrix found from some rows meets those rows only: the
// caller checks the images (exact_images).
std::optional<CoeffMatrix> exact_slot(const std::vector<TermSpaces>& src, const std::vector<TermSpaces>& tgt,
                                      const Matching& matched, int slot, const modp::Matrix* line_p);
// The target term of every source term under the sandwich (P, Q, S), compared exactly (scalars
// included): with the one `expected` names where given, else looked up by exact key. nullopt when
// a matrix is singular or a term lands outside the target.
std::optional<std::vector<int>> exact_images(const Scheme& source, const Scheme& target,
                                             const std::array<CoeffMatrix, 3>& pqs, const std::vector<int>& expected);

// A sandwich found by the search: source term r goes to target term image[r].
struct Found {
  std::array<CoeffMatrix, 3> pqs;  // P, Q, S
  std::vector<int> image;
};

// Every sandwich (P, Q, S) over Q(i) carrying `source` onto `target` as a multiset of rank-one
// tensors, each checked exactly. Both schemes have the same format and rank and no zero factor; the
// spaces of `target`'s factors must determine a sandwich (see stabiliser.cpp). `pairs` is shared so
// that the six outer symmetries reuse each other's dimensions. Stops after max_found + 1 results;
// throws InputError beyond node_budget search nodes.
std::vector<Found> sandwiches_onto(const Scheme& source, const Scheme& target, PairDims& pairs, int max_found,
                                   long node_budget);

// The dimensions of the spaces of P, Q and S that carry every term of s onto itself: (1, 1, 1) when
// the factor spaces determine a sandwich up to the scalars that act trivially. Modulo p first, and
// exactly where that is not (1, 1, 1) (a rank only drops modulo p).
std::array<int, 3> self_dims(const Scheme& s, const std::vector<TermSpaces>& spaces);

// The dimension of the Lie algebra of sandwiches fixing every term of s, exactly: triples (X, Y, Z)
// with X·U − U·Y = a·U, Y·V − V·Z = b·V, Z·W − W·X = c·W, a + b + c = 0 for every term (the tangent
// space of the Segre variety). The scalars give 3; more means an infinite stabiliser.
int tangent_dimension(const Scheme& s);

// The exact key of a rank-one tensor u⊗v⊗w (factors rescaled so the first non-zero entries of u and v
// are 1): equal keys, equal tensors.
std::string tensor_key(const CoeffMatrix& u, const CoeffMatrix& v, const CoeffMatrix& w);
std::string term_key(const Scheme& s, int r);

}  // namespace tdisc::stab
