// A scheme as the flip walkers hold it: R terms sign·U⊗V⊗W over GF2, GF3 or ZT, each factor one
// machine word (field.hpp), normalised so that two terms share a factor exactly when the words are equal.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "src/search/flip/field.hpp"

namespace tdisc::search::flip {

// Term t = sign[t] · U_t ⊗ V_t ⊗ W_t with each factor normalised (lowest non-zero entry +1).
template <class F>
struct Terms {
  using Vec = typename F::Vec;
  std::array<std::vector<Vec>, 3> f;  // 3 × R: f[0] U (n·m bits), f[1] V (m·p), f[2] W (p·n)
  std::vector<std::int8_t> sign;      // R: ±1 (always +1 over GF2)
  int rank() const { return static_cast<int>(sign.size()); }
};

}  // namespace tdisc::search::flip
