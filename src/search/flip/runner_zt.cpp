// The pool run (runner_run.hpp) over ZT, at each factor width.
#include "src/search/flip/runner_run.hpp"

namespace tdisc::search::flip {

template void run_walkers<ZTW<1>>(const EngineConfig&, const FlipParams&, Reporter&, LaneGate);
template void run_walkers<ZTW<2>>(const EngineConfig&, const FlipParams&, Reporter&, LaneGate);
template void run_walkers<ZTW<4>>(const EngineConfig&, const FlipParams&, Reporter&, LaneGate);

}  // namespace tdisc::search::flip
