// Exact linear algebra over Q(i): the one Gauss–Jordan elimination on tdisc::Coeff. The numeric
// repair solves for one factor of a scheme with it; inverse() (de Groote's action) inverts with it.
#pragma once
#include <optional>
#include <string>

#include "decomposition/scheme.hpp"

namespace tdisc {

struct ExactSolution {
  std::optional<CoeffMatrix> x;  // n × k when the system is consistent
  int rank = 0;                  // rank of the coefficient matrix
  std::string why_not;           // set when inconsistent
};

// Solves K·X = B exactly (K: rows × n, B: rows × k). Among the solutions it returns the one whose
// free unknowns equal `preferred` (n × k), so a repair stays close to the rounded numeric point.
ExactSolution solve_exact(const CoeffMatrix& k, const CoeffMatrix& b, const CoeffMatrix& preferred);

}  // namespace tdisc
