// One optimisation step by the chosen method: an ALS sweep, or an LM step (real factors only).
// The schedules (restart.cpp, rounding.cpp) call this and stay method-agnostic.
#pragma once
#include <type_traits>

#include "src/search/numeric/als.hpp"
#include "src/search/numeric/lm.hpp"
#include "src/search/numeric/params.hpp"

namespace tdisc::search::numeric {

template <class S>
struct Optimiser {
  const MatmulTensor& tensor;
  Method method = Method::Als;
  LmState lm{};

  void step(Factors<S>& x, const FixedMask& fixed, const Weights& w) {
    if constexpr (std::is_same_v<S, double>) {
      if (method == Method::Lm) {
        lm_step(tensor, x, fixed, w, lm);
        return;
      }
    }
    als_sweep(tensor, x, fixed, w);
  }
};

}  // namespace tdisc::search::numeric
