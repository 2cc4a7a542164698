// Exact verification of the Brent equations: Σ_r U_r[i][j]·V_r[j'][k]·W_r[k'][i'] = δ(j,j')δ(k,k')δ(i,i').
// The verifier rebuilds the tensor from the coefficients alone and trusts nothing else.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "decomposition/scheme.hpp"

namespace tdisc {

// One Brent equation that does not hold: the coefficient of a_ij ⊗ b_j'k ⊗ c_k'i' (0-based).
struct BrentFailure {
  int i = 0, j = 0;    // A[i][j]
  int j2 = 0, k = 0;   // B[j'][k]
  int k2 = 0, i2 = 0;  // W[k'][i'] (the coefficient of the product in C[i'][k'])
  std::string expected, got;  // exact values over the ring checked
  std::vector<int> terms;     // 0-based terms with a non-zero contribution
  long failing_equations = 0; // how many equations fail in all
  std::string describe() const;  // one line for messages
};

struct Verdict {
  bool valid = false;
  Ring ring = Ring::Q;         // the ring that was checked
  std::string why_not;         // empty when valid
  std::optional<BrentFailure> failure;  // set when an equation fails
  long equations = 0;          // (nm)(mp)(pn)
};

// Proves or refutes that s is a valid scheme over `over`. Coefficients the ring cannot hold
// (½ over GF2, i over Z, 2 over ZT) make the verdict invalid with a reason.
Verdict verify(const Scheme& s, Ring over);

// Validity over Z/nZ for any modulus n ≥ 2 (prime or not: the moduli of integer emulation, 255 = 3·5·17
// among them). Rational coefficients are read mod n, so every denominator must be a unit mod n (½ needs
// n odd); Gaussian coefficients cannot be held. Valid mod n means every Brent equation holds in Z/nZ.
struct ModularVerdict {
  bool valid = false;
  long modulus = 0;
  std::string why_not;                  // empty when valid
  std::optional<BrentFailure> failure;  // set when an equation fails
  long equations = 0;
};
ModularVerdict verify_mod(const Scheme& s, long modulus);

// Validity over every ring at once: the smallest characteristic-0 ring if valid there, else the
// modular rings over which it is valid.
struct RingReport {
  bool valid_char0 = false;
  Ring smallest = Ring::QI;  // meaningful when valid_char0
  bool valid_mod2 = false, valid_mod3 = false;
  std::optional<Ring> best() const;  // smallest ring it is valid over, if any
  std::string describe() const;      // "valid over ZT", "valid mod 2 only", "not valid over any ring"
};
RingReport classify(const Scheme& s);

}  // namespace tdisc
