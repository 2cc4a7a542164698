// Exact verification of the Brent equations over a number field K: Σ_r U_r[i][j]·V_r[j'][k]·W_r[k'][i']
// = δ(j,j')δ(k,k')δ(i,i') in K, with K's exact arithmetic (decomposition/number_field.hpp). The verdict
// names the field; an identity in K holds in C under K's embedding, so a valid verdict proves the
// scheme over C.
#pragma once
#include <string>

#include "decomposition/field_scheme.hpp"

namespace tdisc {

struct FieldVerdict {
  bool valid = false;
  std::string field;          // K's name, "Q(ζ_12, r) with r^3 = …"
  long equations = 0;         // (nm)(mp)(pn)
  long failing_equations = 0;
  std::string first_failure;  // "A[0][1]·B[1][2]·C[2][0]: expected 1, got 1 - z" when invalid
};

FieldVerdict verify_over_field(const FieldScheme& s);

}  // namespace tdisc
