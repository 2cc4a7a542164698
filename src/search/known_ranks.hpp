// Best known ranks over the integers for formats up to 5x5x5 (any permutation of the dimensions),
// used to pick default targets, rings and engines. Sources in known_ranks.cpp.
#pragma once
#include <optional>

#include "decomposition/format.hpp"

namespace tdisc::search {

std::optional<int> best_integer_rank(const Format& f);

}  // namespace tdisc::search
