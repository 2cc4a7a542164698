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

// The most Hensel steps from GF(p): p^(steps+1) stays below 2^40 so that triple products fit in
// 128 bits — 39 from GF2, 24 from GF3.
int max_hensel_steps(int p);

// `modp` must be valid over GF2 (p = 2) or GF3 (p = 3), coefficients in {-1, 0, 1}.
// max_steps must not exceed max_hensel_steps(p) (the flip engine refuses larger lift_steps up front).
LiftResult hensel_lift(const Scheme& modp, int p, int max_steps = 20);

}  // namespace tdisc::search::flip
