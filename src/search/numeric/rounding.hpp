// Progressive rounding: fix the free entries closest to the lattice (most confident first), then
// re-optimise the rest; back off to smaller batches when the residual jumps, try the other lattice
// neighbour of an entry that fails alone, and leave a few entries to the exact repair (Smirnov 2013).
#pragma once
#include <functional>

#include "src/search/numeric/optimiser.hpp"

namespace tdisc::search::numeric {

struct RoundingResult {
  bool complete = false;      // every entry fixed on the lattice with residual ≤ tolerance
  double residual = 0;        // at the end (complete) or at the last accepted batch
  double exact_fraction = 0;  // fixed entries / entries being rounded
};

// Rounds x in place; `fixed` grows. `stop` is polled between batches.
template <class S>
RoundingResult progressive_round(Optimiser<S>& opt, Factors<S>& x, FixedMask& fixed, const Params& p,
                                 const std::function<bool()>& stop);

}  // namespace tdisc::search::numeric
