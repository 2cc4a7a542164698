// Factory of the flip engine (see engine.hpp for the contract).
#pragma once
#include "src/search/engine.hpp"

namespace tdisc::search {
std::unique_ptr<Engine> make_flip_engine();
}
