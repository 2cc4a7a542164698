// Start schemes of flip walks: the standard algorithm, --from, or a Z3 diagonal starting point
// (Moosbauer–Poole 2025), with the checks that make a bad symmetric request a usage error.
#include "src/search/flip/walk_start.hpp"

#include "decomposition/error.hpp"
#include "src/search/flip/convert.hpp"
#include "src/search/flip/orbits.hpp"

namespace tdisc::search::flip {

void check_symmetry(const EngineConfig& config, FlipParams& params) {
  if (params.symmetry != "z3") return;
  const Format& f = config.target.format;
  if (f.n != f.m || f.m != f.p)
    throw UsageError("symmetry z3: needs a square format n×n×n (the cyclic shift (u,v,w) → (v,w,u) maps ⟨n,m,p⟩ to ⟨m,p,n⟩); " +
                     f.str() + " is not square");
  if (!config.params.contains("restart_after") && f.n > 4)
    params.restart_after = kSymmetricRestartAfter * f.n * f.n * f.n / 64;
  if (config.start) return;  // the fixed terms come from the --from scheme
  const Diagonal d = parse_diagonal(params.diagonal, f.n, config.target.rank);
  const int k = static_cast<int>(d.size());
  if (((config.target.rank - k) % 3 + 3) % 3 != 0)
    throw UsageError("symmetry z3: diagonal " + diagonal_text(d) + " gives " + std::to_string(k) +
                     " fixed terms, so the walk reaches only ranks ≡ " + std::to_string(k % 3) + " (mod 3), not " +
                     std::to_string(config.target.rank));
}

template <class F>
Terms<F> walk_start(const EngineConfig& config, const FlipParams& params) {
  const Format& f = config.target.format;
  if (params.symmetry != "z3") return config.start ? terms_from_scheme<F>(*config.start) : standard_terms<F>(f);
  FlipParams checked = params;
  check_symmetry(config, checked);
  if (!config.start) return diagonal_start<F>(f.n, parse_diagonal(params.diagonal, f.n, config.target.rank));
  Terms<F> t = terms_from_scheme<F>(*config.start);
  std::string why;
  if (!split_orbits<F>(t, &why))
    throw UsageError("--from: " + config.start->provenance.source + " is not Z3-symmetric over " + F::name + " (" + why +
                     "); a --symmetry z3 walk starts from a scheme equal to its rotation (u,v,w) → (v,w,u)");
  return t;
}

template Terms<GF2> walk_start<GF2>(const EngineConfig&, const FlipParams&);
template Terms<ZT> walk_start<ZT>(const EngineConfig&, const FlipParams&);
template Terms<GF3> walk_start<GF3>(const EngineConfig&, const FlipParams&);

}  // namespace tdisc::search::flip
