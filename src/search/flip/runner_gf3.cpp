// The pool run (runner_run.hpp) over GF3, at each factor width.
#include "src/search/flip/runner_run.hpp"

namespace tdisc::search::flip {

template void run_walkers<GF3W<1>>(const EngineConfig&, const FlipParams&, Reporter&, LaneGate);
template void run_walkers<GF3W<2>>(const EngineConfig&, const FlipParams&, Reporter&, LaneGate);
template void run_walkers<GF3W<4>>(const EngineConfig&, const FlipParams&, Reporter&, LaneGate);

}  // namespace tdisc::search::flip
