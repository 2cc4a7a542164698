// Placeholder until the flip engine lands: the factory returns nullptr, which the CLI reports.
#include "src/search/flip/flip_engine.hpp"

namespace tdisc::search {
std::unique_ptr<Engine> make_flip_engine() { return nullptr; }
}
