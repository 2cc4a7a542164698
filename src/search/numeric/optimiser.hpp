// One optimisation step by the chosen method: an ALS sweep or an LM step, on real or complex
// factors. The schedules (restart.cpp, rounding.cpp) call this and stay method-agnostic.
#pragma once
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
    if (method == Method::Lm) lm_step(tensor, x, fixed, w, lm);
    else als_sweep(tensor, x, fixed, w);
  }
};

}  // namespace tdisc::search::numeric
