// The limits on a scheme that every reader applies before it allocates (base/limits.hpp has the
// limits on any input: nesting, bytes, archive entries).
#pragma once
#include <cstddef>
#include <string>

#include "base/limits.hpp"
#include "decomposition/format.hpp"

namespace tdisc {

class Coeff;

// One scheme holds at most this many coefficients R·(nm+mp+pn) (a 6x6x6 rank-160 scheme has 17,280).
constexpr long kMaxCoefficients = 1L << 21;
// A coefficient's text is at most this long (longer text is refused, not parsed: it would take
// quadratic time and no published scheme comes near).
constexpr size_t kMaxCoefficientChars = 256;

// Throws InputError(path, line, …) when a scheme of format f and this rank would exceed
// kMaxCoefficients, has a dimension below 1 or a negative rank.
void check_scheme_size(const std::string& path, int line, const Format& f, long rank);
// Whether a coefficient's text (Coeff::str) stays within kMaxCoefficientChars, so that what a reader
// builds by arithmetic ("2*2*…*a11", "…/3/3/3") can be written and read back. Estimated from digit
// counts, without printing.
bool coefficient_text_fits(const Coeff& c);

}  // namespace tdisc
