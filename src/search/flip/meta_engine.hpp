// Factory of the meta engine ("meta", tdisc search --meta): flip walks started from catalogued
// schemes of neighbouring formats carried over by meta moves (meta_moves.hpp).
#pragma once
#include "src/search/engine.hpp"

namespace tdisc::search {
std::unique_ptr<Engine> make_meta_engine();
}
