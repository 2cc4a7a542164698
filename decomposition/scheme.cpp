// Scheme helpers: shapes, rings of the coefficients, canonical text and its hash.
#include "decomposition/scheme.hpp"

#include "decomposition/sha256.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <vector>

#include "base/error.hpp"

namespace tdisc {

Scheme Scheme::zeros(Format f, int rank, Ring ring) {
  Scheme s;
  s.format = f;
  s.ring = ring;
  s.u = CoeffMatrix::Constant(rank, f.a_size(), Coeff(0));
  s.v = CoeffMatrix::Constant(rank, f.b_size(), Coeff(0));
  s.w = CoeffMatrix::Constant(rank, f.c_size(), Coeff(0));
  return s;
}

void Scheme::check_shape() const {
  TDISC_REQUIRE(u.cols() == format.a_size() && v.cols() == format.b_size() &&
                    w.cols() == format.c_size(),
                "factor widths disagree with the format " + format.str());
  TDISC_REQUIRE(u.rows() == v.rows() && v.rows() == w.rows(), "u, v, w have different ranks");
}

namespace {

template <class F>
bool all_coeffs(const Scheme& s, F&& pred) {
  for (const CoeffMatrix* m : {&s.u, &s.v, &s.w})
    for (Eigen::Index r = 0; r < m->rows(); ++r)
      for (Eigen::Index c = 0; c < m->cols(); ++c)
        if (!pred((*m)(r, c))) return false;
  return true;
}

bool row_is_zero(const CoeffMatrix& m, Eigen::Index r) {
  for (Eigen::Index c = 0; c < m.cols(); ++c)
    if (!m(r, c).is_zero()) return false;
  return true;
}

CoeffMatrix keep_rows(const CoeffMatrix& m, const std::vector<Eigen::Index>& rows) {
  CoeffMatrix out(static_cast<Eigen::Index>(rows.size()), m.cols());
  for (size_t k = 0; k < rows.size(); ++k) out.row(static_cast<Eigen::Index>(k)) = m.row(rows[k]);
  return out;
}

std::string row_text(const CoeffMatrix& m, Eigen::Index r) {
  std::string t;
  for (Eigen::Index c = 0; c < m.cols(); ++c) {
    if (c) t += ',';
    t += m(r, c).str();
  }
  return t;
}

}  // namespace

Ring coefficient_ring(const Scheme& s) {
  if (all_coeffs(s, [](const Coeff& c) { return c.is_ternary(); })) return Ring::ZT;
  if (all_coeffs(s, [](const Coeff& c) { return c.is_integer(); })) return Ring::Z;
  if (all_coeffs(s, [](const Coeff& c) { return c.is_real(); })) return Ring::Q;
  return Ring::QI;
}

bool ring_holds(Ring r, const Scheme& s) {
  if (ring_is_modular(r)) {
    const long p = ring_characteristic(r);
    return all_coeffs(s, [p](const Coeff& c) {
      return c.is_real() && mpz_class(c.re().get_den() % p) != 0;
    });
  }
  return ring_contains(r, coefficient_ring(s));
}

int drop_zero_terms(Scheme& s) {
  std::vector<Eigen::Index> keep;
  for (Eigen::Index r = 0; r < s.u.rows(); ++r)
    if (!row_is_zero(s.u, r) && !row_is_zero(s.v, r) && !row_is_zero(s.w, r)) keep.push_back(r);
  int dropped = s.rank() - static_cast<int>(keep.size());
  if (dropped) {
    s.u = keep_rows(s.u, keep);
    s.v = keep_rows(s.v, keep);
    s.w = keep_rows(s.w, keep);
  }
  return dropped;
}

std::string canonical_text(const Scheme& s) {
  std::vector<std::string> terms;
  for (Eigen::Index r = 0; r < s.u.rows(); ++r)
    terms.push_back(row_text(s.u, r) + "|" + row_text(s.v, r) + "|" + row_text(s.w, r));
  std::sort(terms.begin(), terms.end());
  std::string t = s.format.str() + ";" + std::to_string(s.rank()) + ";" +
                  std::string(ring_name(s.ring)) + "\n";
  for (auto& term : terms) t += term + "\n";
  return t;
}

std::string scheme_sha256(const Scheme& s) { return sha256_hex(canonical_text(s)); }

std::string scheme_hash8(const Scheme& s) { return scheme_sha256(s).substr(0, 8); }

std::string catalogue_file_name(const Scheme& s) {
  return "r" + std::to_string(s.rank()) + "-" + std::string(ring_name(s.ring)) + "-" +
         scheme_hash8(s) + ".json";
}

std::string utc_now() {
  std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace tdisc
