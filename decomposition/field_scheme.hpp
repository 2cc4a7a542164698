// A scheme over a number field K (decomposition/number_field.hpp), in trace form as Scheme: R terms
// (U_r n×m, V_r m×p, W_r p×n) with C[i][k] = Σ_r W_r[k][i]·⟨U_r,A⟩·⟨V_r,B⟩, each coefficient in K.
// It is the exact form of a numerical scheme whose coordinates were recognised as algebraic numbers.
#pragma once
#include <vector>

#include "decomposition/format.hpp"
#include "decomposition/number_field.hpp"
#include "decomposition/scheme.hpp"

namespace tdisc {

struct FieldScheme {
  Format format;
  NumberField field = NumberField::cyclotomic(1);
  // Term-major: u[r·nm + i·m + j] = U_r[i][j], v[r·mp + j·p + k] = V_r[j][k], w[r·pn + k·n + i] = W_r[k][i].
  std::vector<FieldElement> u, v, w;
  Provenance provenance;

  int rank() const { return format.a_size() == 0 ? 0 : static_cast<int>(u.size()) / format.a_size(); }
};

// A Gaussian-rational scheme read in K (i needs 4 | n): its exact image, for tests and comparisons.
FieldScheme field_scheme_of(const Scheme& s, const NumberField& k);

}  // namespace tdisc
