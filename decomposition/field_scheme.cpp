#include "decomposition/field_scheme.hpp"

namespace tdisc {

namespace {

std::vector<FieldElement> factor_in(const CoeffMatrix& m, const NumberField& k) {
  std::vector<FieldElement> out;
  out.reserve(static_cast<size_t>(m.size()));
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c) out.push_back(k.from_coeff(m(r, c)));
  return out;
}

}  // namespace

FieldScheme field_scheme_of(const Scheme& s, const NumberField& k) {
  return FieldScheme{s.format, k, factor_in(s.u, k), factor_in(s.v, k), factor_in(s.w, k), s.provenance};
}

}  // namespace tdisc
