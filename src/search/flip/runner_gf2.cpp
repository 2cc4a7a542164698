// The pool run (runner_run.hpp) over GF2, at each factor width.
#include "src/search/flip/runner_run.hpp"

namespace tdisc::search::flip {

template void run_walkers<GF2W<1>>(const EngineConfig&, const FlipParams&, Reporter&, LaneGate);
template void run_walkers<GF2W<2>>(const EngineConfig&, const FlipParams&, Reporter&, LaneGate);
template void run_walkers<GF2W<4>>(const EngineConfig&, const FlipParams&, Reporter&, LaneGate);

}  // namespace tdisc::search::flip
