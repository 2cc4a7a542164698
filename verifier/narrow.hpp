// The ring a verified scheme is filed under: `tdisc catalog add` and the Python catalogue
// (python/src/catalog.cpp) narrow a scheme to the smallest ring it is valid over.
#pragma once
#include "decomposition/scheme.hpp"

namespace tdisc {

// For a scheme valid over its declared ring: the smallest characteristic-0 ring it is valid over
// when that lies inside the declared one (or the declared ring is modular), else the declared ring.
Ring narrowed_ring(const Scheme& s);

}  // namespace tdisc
