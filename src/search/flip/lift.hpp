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

// The lift reduces the Jacobian densely: (n·m·p·n·m·p) equations × (R·(nm+mp+pn) + equations) entries,
// 2 bits each. lift_bytes is that size; lift_fits says whether it stays within kLiftBudget (2 GiB:
// 6x6 at rank 200 needs 0.8 GiB, 7x7x7 at 250 already 4.5 GiB). Larger schemes are not lifted (why_not says so).
constexpr double kLiftBudget = 2.0 * (1ull << 30);
double lift_bytes(const Format& f, int rank);
bool lift_fits(const Format& f, int rank);

// `modp` must be valid over GF2 (p = 2) or GF3 (p = 3), coefficients in {-1, 0, 1}.
// max_steps must not exceed max_hensel_steps(p) (the flip engine refuses larger lift_steps up front).
LiftResult hensel_lift(const Scheme& modp, int p, int max_steps = 20);

}  // namespace tdisc::search::flip
