// Start schemes of flip walks: the standard algorithm, --from, or a symmetric diagonal starting point
// (Moosbauer–Poole 2025: Z3, or the 6-fold s3), with the checks that make a bad symmetric request a usage error.
#include "src/search/flip/walk_start.hpp"

#include <algorithm>

#include "base/error.hpp"
#include "src/search/flip/convert.hpp"
#include "src/search/flip/orbits.hpp"
#include "src/search/flip/reversal.hpp"

namespace tdisc::search::flip {

namespace {

bool symmetric(const FlipParams& p) { return is_symmetric(p.symmetry); }
int rank_step(const FlipParams& p) { return orbit_terms(p.symmetry); }

Diagonal diagonal_for(const FlipParams& params, int n, int rank) {
  return params.symmetry == Symmetry::S3 ? parse_reversed_diagonal(params.diagonal, n, rank) : parse_diagonal(params.diagonal, n, rank);
}

}  // namespace

void check_symmetry(const EngineConfig& config, const FlipParams& params) {
  if (!symmetric(params)) return;
  const Format& f = config.target.format;
  const std::string s = symmetry_name(params.symmetry);
  if (f.n != f.m || f.m != f.p)
    throw UsageError("symmetry " + s + ": needs a square format n×n×n (the cyclic shift (u,v,w) → (v,w,u) maps ⟨n,m,p⟩ to ⟨m,p,n⟩" +
                     (s == "s3" ? ", and the reversal J acts on n×n factors" : "") + "); " + f.str() + " is not square");
  if (config.start) return;  // the fixed terms come from the --from scheme
  const Diagonal d = diagonal_for(params, f.n, config.target.rank);
  const int k = static_cast<int>(d.size()), step = rank_step(params);
  if (((config.target.rank - k) % step + step) % step != 0)
    throw UsageError("symmetry " + s + ": diagonal " + diagonal_text(d) + " gives " + std::to_string(k) +
                     " fixed terms, so the walk reaches only ranks ≡ " + std::to_string(k % step) + " (mod " +
                     std::to_string(step) + "), not " + std::to_string(config.target.rank));
}

int diagonal_start_rank(const FlipParams& params, int n, int target_rank) {
  const Diagonal d = diagonal_for(params, n, target_rank);
  return n * n <= 64 ? diagonal_start<GF2>(n, d).rank() : diagonal_start<GF2W<4>>(n, d).rank();
}

template <class F>
Terms<F> walk_start(const EngineConfig& config, const FlipParams& params) {
  const Format& f = config.target.format;
  if (!symmetric(params)) return config.start ? terms_from_scheme<F>(*config.start) : standard_terms<F>(f);
  check_symmetry(config, params);
  if (!config.start) return diagonal_start<F>(f.n, diagonal_for(params, f.n, config.target.rank));
  Terms<F> t = terms_from_scheme<F>(*config.start);
  std::string why;
  auto o = split_orbits<F>(t, &why);
  if (o && params.symmetry == Symmetry::S3) o = pair_reversed<F>(*o, f.n, &why);
  if (!o)
    throw UsageError("--from: " + config.start->provenance.source + " is not " + (params.symmetry == Symmetry::S3 ? "6-fold" : "Z3") +
                     "-symmetric over " + F::name + " (" + why + "); a --symmetry " + symmetry_name(params.symmetry) +
                     " walk starts from a scheme equal to its rotation (u,v,w) → (v,w,u)" +
                     (params.symmetry == Symmetry::S3 ? " and to its reversal (JuJ, JvJ, JwJ)" : ""));
  return t;
}

#define TDISC_WALK_START(F) template Terms<F> walk_start<F>(const EngineConfig&, const FlipParams&);
TDISC_FLIP_FIELDS(TDISC_WALK_START)

}  // namespace tdisc::search::flip
