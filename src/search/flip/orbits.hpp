// Z3-symmetric schemes of ⟨n,n,n⟩ as fixed terms a⊗a⊗a plus orbits {(a,b,c),(b,c,a),(c,a,b)} of
// the cyclic shift of the factors, and the diagonal starting points of Moosbauer–Poole 2025.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "src/search/flip/terms.hpp"

namespace tdisc::search::flip {

// A Z3-invariant scheme: rank = fixed terms + 3 · orbits. Every factor is normalised as in Terms.
// With images = 2 (s3, reversal.hpp) orbits come in classes of two: orbit 2c+1 is J of orbit 2c.
template <class F>
struct OrbitTerms {
  using Vec = typename F::Vec;
  std::vector<Vec> fixed;               // k: fixed term sign·a⊗a⊗a
  std::vector<std::int8_t> fixed_sign;  // k
  std::vector<Vec> x;                   // 3 × K, orbit-major: orbit j's representative (x[3j], x[3j+1], x[3j+2])
  std::vector<std::int8_t> sign;        // K: the sign shared by the three terms of the orbit
  int images = 1;                       // orbits per class: 1 (z3) or 2 (s3: an orbit and its J-image)
  int orbits() const { return static_cast<int>(sign.size()); }
  int rank() const { return static_cast<int>(fixed.size()) + 3 * orbits(); }
};

// Groups the terms of a scheme into fixed terms and orbits; nullopt (with a reason) when the
// multiset of terms is not invariant under (u,v,w) → (v,w,u).
template <class F>
std::optional<OrbitTerms<F>> split_orbits(const Terms<F>& t, std::string* why_not = nullptr);
// All terms: each fixed term once, each orbit as its three rotations (rotation r: (x_r, x_r+1, x_r+2)).
template <class F>
Terms<F> expand_orbits(const OrbitTerms<F>& o);

// A diagonal partition: disjoint parts covering {0, …, n−1}. Part P gives the fixed term a_P⊗a_P⊗a_P
// with a_P = Σ_{i∈P} e_ii; the rest of ⟨n,n,n⟩ starts as its trivial decomposition into orbits.
using Diagonal = std::vector<std::vector<int>>;

// "0,1|2": parts separated by '|', indices by ','; "auto" picks one for the target rank.
// Throws UsageError naming the problem.
Diagonal parse_diagonal(const std::string& text, int n, int target_rank);
// The auto choice: the fewest parts k (1 ≤ k ≤ n) with k ≡ target (mod 3), as balanced consecutive
// blocks; nullopt when no k fits (2x2 with a rank divisible by 3).
std::optional<Diagonal> auto_diagonal(int n, int target_rank);
std::string diagonal_text(const Diagonal& d);  // "0,1|2"
// The diagonal starting point: Σ_P a_P^⊗3 + (⟨n,n,n⟩ − Σ_P a_P^⊗3) with the remainder written as
// the terms e_ij⊗e_jk⊗e_ki (i,j,k not all equal) and −e_ii⊗e_jj⊗e_kk (i,j,k ∈ P, not all equal).
template <class F>
Terms<F> diagonal_start(int n, const Diagonal& d);

}  // namespace tdisc::search::flip
