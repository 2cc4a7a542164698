// Shared by the construction files: the ring and the provenance of a derived scheme.
// Internal to decomposition/ (not part of the public constructions API).
#pragma once
#include <string>
#include <vector>

#include "decomposition/scheme.hpp"

namespace tdisc::detail {

// The ring a derived scheme is valid over: the parents' modular ring if any (all parents must agree
// on the characteristic), else the smallest characteristic-0 ring holding the new coefficients
// (over characteristic 0 the Brent equations do not depend on the ring, only on the coefficients).
Ring derived_ring(const std::vector<const Scheme*>& parents, const Scheme& out);

// Provenance of a derived scheme: tool, method, time, the parents' hashes, sources and licences.
Provenance derived_provenance(const std::string& method, const std::vector<const Scheme*>& parents,
                              const std::string& detail = "");

// Sets out.ring and out.provenance from the parents; the common tail of every construction.
Scheme finish_derived(Scheme out, const std::string& method, const std::vector<const Scheme*>& parents,
                      const std::string& detail = "");

}  // namespace tdisc::detail
