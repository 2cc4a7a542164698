// The scheme limits of scheme_limits.hpp.
#include "decomposition/scheme_limits.hpp"

#include "base/error.hpp"
#include "decomposition/coeff.hpp"

namespace tdisc {

void check_scheme_size(const std::string& path, int line, const Format& f, long rank) {
  if (f.n < 1 || f.m < 1 || f.p < 1) throw InputError(path, line, "dimensions must be at least 1, not " + f.str());
  if (rank < 0) throw InputError(path, line, "the rank cannot be negative (" + std::to_string(rank) + ")");
  const long per_term = static_cast<long>(f.n) * f.m + static_cast<long>(f.m) * f.p + static_cast<long>(f.p) * f.n;
  if (per_term > kMaxCoefficients || rank > kMaxCoefficients / per_term)
    throw InputError(path, line, "a scheme of format " + f.str() + " and rank " + std::to_string(rank) +
                                     " would hold more than " + std::to_string(kMaxCoefficients) +
                                     " coefficients; refused (damaged file?)");
}

bool coefficient_text_fits(const Coeff& c) {
  auto digits = [](const mpq_class& q) {
    return mpz_sizeinbase(q.get_num_mpz_t(), 10) + mpz_sizeinbase(q.get_den_mpz_t(), 10) + 2;
  };
  return digits(c.re()) + digits(c.im()) + 2 <= kMaxCoefficientChars;
}

}  // namespace tdisc
