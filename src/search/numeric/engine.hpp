// Factory of the numeric engine (see engine.hpp for the contract): ALS / Levenberg–Marquardt from
// random starts, lattice rounding, exact repair and verification; restarts batched across threads.
#pragma once
#include "src/search/engine.hpp"

namespace tdisc::search {
std::unique_ptr<Engine> make_numeric_engine();
}
