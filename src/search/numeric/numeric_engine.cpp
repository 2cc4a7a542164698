// Placeholder until the numeric engine lands: the factory returns nullptr, which the CLI reports.
#include "src/search/numeric/numeric_engine.hpp"

namespace tdisc::search {
std::unique_ptr<Engine> make_numeric_engine() { return nullptr; }
}
