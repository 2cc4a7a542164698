// Hensel lifting of a GF2/GF3 scheme to Z/p^k, rational reconstruction, exact check over Z or Q
// (the lifting step of Kauers–Moosbauer 2022). A scheme that does not lift is reported, not hidden.
#pragma once
#include <optional>
#include <string>

#include "decomposition/scheme.hpp"

namespace tdisc::search::flip {

struct LiftResult {
  std::optional<Scheme> scheme;  // valid over Z or Q (checked by verify), when it lifted
  int steps = 0;                 // Hensel steps taken (the last modulus is p^(steps+1))
  std::string why_not;           // empty when it lifted
};

// `modp` must be valid over GF2 (p = 2) or GF3 (p = 3), coefficients in {-1, 0, 1}.
LiftResult hensel_lift(const Scheme& modp, int p, int max_steps = 20);

}  // namespace tdisc::search::flip
