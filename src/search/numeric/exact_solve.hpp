// Exact linear algebra over Q(i): Gauss–Jordan elimination on tdisc::Coeff, used by the repair to
// solve for one factor of a scheme exactly when the other two are fixed.
#pragma once
#include <optional>
#include <string>

#include "decomposition/scheme.hpp"

namespace tdisc::search::numeric {

struct ExactSolution {
  std::optional<CoeffMatrix> x;  // n × k when the system is consistent
  int rank = 0;                  // rank of the coefficient matrix
  std::string why_not;           // set when inconsistent
};

// Solves K·X = B exactly (K: rows × n, B: rows × k). Among the solutions it returns the one whose
// free unknowns equal `preferred` (n × k), so a repair stays close to the rounded numeric point.
ExactSolution solve_exact(const CoeffMatrix& k, const CoeffMatrix& b, const CoeffMatrix& preferred);

}  // namespace tdisc::search::numeric
