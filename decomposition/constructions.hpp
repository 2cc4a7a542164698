// Exact constructions on schemes in trace form (DESIGN §1): the classical algorithm, the symmetries
// (cyclic rotation, transpose, de Groote's sandwich action, de Groote 1978), the Kronecker product,
// the direct sum (join) along a dimension, and restriction/splitting.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "decomposition/scheme.hpp"

namespace tdisc {

// The dimension a join or split acts on: N = rows of A and C, M = the inner dimension, P = columns
// of B and C.
enum class Axis { N, M, P };
std::optional<Axis> parse_axis(std::string_view s);  // "n", "m", "p" (case-insensitive)

// ⟨n,m,p; nmp⟩: one product a_ij·b_jk per term, W_r = e_ki. Ring ZT.
Scheme classical_scheme(Format f);

// Cyclic rotation: tr(ABC) = tr(BCA), so ⟨n,m,p⟩ → ⟨m,p,n⟩ with (U,V,W) → (V,W,U).
Scheme rotate(const Scheme& s);
// Transpose: tr(ABC) = tr(CᵀBᵀAᵀ) = tr(BᵀAᵀCᵀ), so ⟨n,m,p⟩ → ⟨p,m,n⟩ with (U,V,W) → (Vᵀ,Uᵀ,Wᵀ).
Scheme transpose(const Scheme& s);
// A scheme for `target`, which must be a permutation of s's dimensions, by rotations and at most
// one transpose. Throws ContractError otherwise.
Scheme permute_to(const Scheme& s, Format target);

// Kronecker product: ⟨n,m,p;R⟩ ⊗ ⟨n',m',p';R'⟩ = ⟨nn',mm',pp';RR'⟩. Term (r,r') = r·R'+r' has
// factors U_r ⊗ U'_r' (row index i·n'+i', column j·m'+j'), and likewise for V and W; valid because
// tr((A⊗A')(B⊗B')(C⊗C')) = tr(ABC)·tr(A'B'C') and the elementary tensors span.
Scheme kronecker(const Scheme& a, const Scheme& b);

// Direct sum along an axis: ⟨n,m,p⟩ + ⟨n',m,p⟩ = ⟨n+n',m,p⟩ (axis N; likewise M and P), rank
// R + R'. The second scheme's indices on that axis are shifted by the first's dimension.
Scheme join(const Scheme& a, const Scheme& b, Axis axis);
// Whether join(a, b, axis) is defined: the two other dimensions agree.
bool joinable(Format a, Format b, Axis axis);

// Restriction to index subsets I ⊆ [n], J ⊆ [m], K ⊆ [p] (in the given order): the scheme for
// ⟨|I|,|J|,|K|⟩ obtained by setting the other entries of A, B and C to zero; terms that become
// zero are dropped.
Scheme restrict_scheme(const Scheme& s, const std::vector<int>& rows_i, const std::vector<int>& inner_j,
                       const std::vector<int>& cols_k);
// Restriction to the leading sub-format (indices 0..n'-1 etc.).
Scheme restrict_to(const Scheme& s, Format sub);
// The two restrictions on either side of index `at` along an axis (the inverse of join).
std::pair<Scheme, Scheme> split(const Scheme& s, Axis axis, int at);

// De Groote's sandwich action: tr(ABC) = tr((PAQ⁻¹)(QBS⁻¹)(SCP⁻¹)), which on the factors
// (⟨U,PAQ⁻¹⟩ = ⟨PᵀUQ⁻ᵀ,A⟩) gives, after renaming Pᵀ → P etc., (U,V,W) → (P U Q⁻¹, Q V S⁻¹, S W P⁻¹)
// with P n×n, Q m×m, S p×p invertible. Throws ContractError when a matrix is singular or the
// result leaves the scheme's modular ring.
Scheme de_groote(const Scheme& s, const CoeffMatrix& P, const CoeffMatrix& Q, const CoeffMatrix& S);

// Exact inverse by Gauss–Jordan elimination; nullopt when singular.
std::optional<CoeffMatrix> inverse(const CoeffMatrix& m);
// A d×d integer matrix of determinant ±1 (so its inverse is integral and it acts over every ring),
// drawn from `seed`: a product of random elementary operations, row swaps and sign changes.
CoeffMatrix random_unimodular(int d, std::uint64_t seed);

// The r-th factor of a term-major factor matrix as a rows×cols matrix (row-major flattening), and back.
CoeffMatrix term_matrix(const CoeffMatrix& factor, int r, int rows, int cols);
void set_term_matrix(CoeffMatrix& factor, int r, const CoeffMatrix& m);

}  // namespace tdisc
