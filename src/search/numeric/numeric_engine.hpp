// Factory of the numeric engine (see engine.hpp for the contract).
#pragma once
#include "src/search/engine.hpp"

namespace tdisc::search {
std::unique_ptr<Engine> make_numeric_engine();
}
