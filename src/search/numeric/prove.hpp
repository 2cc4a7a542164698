// From a numerical scheme inside a symmetric ansatz to an exact one over a number field (issue 25, 3b):
//  1. Gauss–Newton in seed space (double) to the working precision of doubles;
//  2. gauge fixing: the solutions of an ansatz form families (orbit scalings, the torus of sandwiches
//     commuting with the group); as many seed coordinates as the family has dimensions are moved to 1
//     by continuation, chosen by a pivoted QR of the Jacobian's null space, until the point is isolated;
//  3. refinement to `digits` decimal digits: the residual in GMP floats, the correction from the
//     double Jacobian (iterative refinement, ~14 digits per step);
//  4. recognition: each free coordinate as Σ q_{a,b}·z^a·r^b with rational q by an integer relation
//     (LLL), first against one power of r at a time, then against classes of powers, then all;
//  5. the exact expansion over K and the verifier over K, the only judge.
#pragma once
#include <functional>
#include <optional>
#include <string>

#include "decomposition/field_scheme.hpp"
#include "src/search/numeric/seed_space.hpp"

namespace tdisc::search::numeric {

struct ProveOptions {
  int digits = 160;  // decimal digits of the refinement
  // When no field is given: the cyclotomic base Q(ζ_n) of the search for a pure radical r^k = β
  // (discover_field) and the largest k tried.
  int auto_cyclotomic = 12, auto_max_root = 12;
  std::function<void(const std::string&)> log;  // progress lines (may be empty)
};

struct ProofOutcome {
  std::optional<FieldScheme> scheme;  // set only when verify_over_field accepted it
  int family_dimension = -1;          // nullity of the Jacobian at the solution (complex)
  int recognised = 0, coordinates = 0;  // seed coordinates recognised in K, of all
  double double_residual = 0;         // after step 1
  std::string why_not;                // which step failed, when scheme is empty
  std::optional<NumberField> field;   // the field used (given or discovered)
};

// With no field, one is discovered from the refined coordinates (discover_field).
ProofOutcome prove_numerical(const SeedSpace& s, const Vec<cdouble>& theta, const std::optional<NumberField>& k,
                             const ProveOptions& options);

// The Jacobian ∂X/∂θ of the expansion X = Σ_t u_t⊗v_t⊗w_t (holomorphic in θ): (nm·mp·pn) × parameters,
// row (a·mp + b)·pn + c; and the residual X − T in the same order.
Mat<cdouble> seed_jacobian(const SeedSpace& s, const Vec<cdouble>& theta);
Vec<cdouble> seed_residual(const SeedSpace& s, const Vec<cdouble>& theta);

}  // namespace tdisc::search::numeric
