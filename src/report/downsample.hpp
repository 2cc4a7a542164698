// Thinning a long series for plotting: per pixel column keep the first, last, lowest and highest
// sample (the M4 aggregation of Jugel et al., VLDB 2014), so that the drawn line looks the same as
// the full series while its size is bounded by 4·columns points.
#pragma once
#include <cstddef>

#include "src/report/plot.hpp"

namespace tdisc::report {

// At most about 4·columns points; series of at most that size are returned unchanged.
Series downsample(const Series& s, std::size_t columns);

}  // namespace tdisc::report
