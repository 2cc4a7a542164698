// Start schemes of flip walks: the standard algorithm, --from, or a Z3 diagonal starting point
// (Moosbauer–Poole 2025), with the checks that make a bad symmetric request a usage error.
#include "src/search/flip/walk_start.hpp"

#include <algorithm>

#include "decomposition/error.hpp"
#include "src/search/flip/convert.hpp"
#include "src/search/flip/orbits.hpp"

namespace tdisc::search::flip {

namespace {

// Above 4x4 a z3 walk follows the policy of Moosbauer–Poole's case files (r5-93-1.txt, r6-153-1.txt),
// counted in orbit flips (theirs count the three terms of an orbit flip): a run ends after a flip
// limit that restarts at each new best (1e8 terms for 5x5, 1e9 above) and starts over from the
// diagonal; a plus transition after a fixed count of flips without a drop (5e4 terms for 5x5, 5e5
// above). On 5x5:93 over GF2 (3 seeds, 300M flips each) this reached 96, 93, 99 against 99, 99, 99
// with the 4x4 defaults scaled by n³ (docs/PERFORMANCE.md). Explicit parameters win.
void anchor_policy(const EngineConfig& config, FlipParams& params) {
  const bool five = config.target.format.n == 5;
  if (!config.params.contains("restart_after")) params.restart_after = five ? 33333333 : 333333333;
  if (!config.params.contains("plus_min") && !config.params.contains("plus_max"))
    params.walk.plus_min = params.walk.plus_max = five ? 16667 : 166667;
}

}  // namespace

void check_symmetry(const EngineConfig& config, FlipParams& params) {
  if (params.symmetry != "z3") return;
  const Format& f = config.target.format;
  if (f.n != f.m || f.m != f.p)
    throw UsageError("symmetry z3: needs a square format n×n×n (the cyclic shift (u,v,w) → (v,w,u) maps ⟨n,m,p⟩ to ⟨m,p,n⟩); " +
                     f.str() + " is not square");
  if (f.n > 4) anchor_policy(config, params);
  if (config.start) return;  // the fixed terms come from the --from scheme
  const Diagonal d = parse_diagonal(params.diagonal, f.n, config.target.rank);
  const int k = static_cast<int>(d.size());
  if (((config.target.rank - k) % 3 + 3) % 3 != 0)
    throw UsageError("symmetry z3: diagonal " + diagonal_text(d) + " gives " + std::to_string(k) +
                     " fixed terms, so the walk reaches only ranks ≡ " + std::to_string(k % 3) + " (mod 3), not " +
                     std::to_string(config.target.rank));
  // Plus transitions up to the start's rank, as the anchor's PLUS_TRANSITION_LIMIT 0 (its start rank).
  if (f.n > 4 && !config.params.contains("plus_diff"))
    params.walk.plus_diff = std::max(1, (diagonal_start<GF2>(f.n, d).rank() - config.target.rank) / 3);
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
