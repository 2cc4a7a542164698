// Integer relations by lattice reduction: given complex numbers v_0 … v_{d−1} known to `bits` bits,
// find integers c (not all zero, c_0 ≠ 0) with Σ c_j·v_j = 0, the step that turns a refined
// coordinate into an exact algebraic number (x = −Σ_{j≥1} c_j·β_j / c_0 over a field basis β).
// LLL (Lenstra–Lenstra–Lovász 1982, δ = 0.99) on the rows (e_j, ⌊M·Re v_j⌉, ⌊M·Im v_j⌉).
#pragma once
#include <gmpxx.h>

#include <optional>
#include <vector>

#include "src/search/numeric/high_precision.hpp"

namespace tdisc::search::numeric {

// LLL-reduces the rows of `basis` (integer vectors of one length) in place.
void lll_reduce(std::vector<std::vector<mpz_class>>& basis, unsigned bits);

// A relation with c_0 ≠ 0 and every |c_j| ≤ max_coefficient that holds to about `bits`/2 bits, or
// nullopt. `bits` is the precision the values are known to.
std::optional<std::vector<mpz_class>> integer_relation(const std::vector<HpComplex>& v, unsigned bits,
                                                       const mpz_class& max_coefficient);

}  // namespace tdisc::search::numeric
