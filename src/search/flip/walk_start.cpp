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
int rank_step(const FlipParams& p) { return p.symmetry == Symmetry::S3 ? 6 : 3; }  // terms per orbit class

// Above 4x4 a symmetric walk follows the policy of Moosbauer–Poole's case files (r5-93-1.txt,
// r6-153-1.txt), counted in moves on classes (theirs count every term: 3 per Z3 orbit flip, 6 per
// 6-fold one): a run ends after a flip limit that restarts at each new best (1e8 terms for 5x5, 1e9
// above) and starts over from the diagonal; a plus transition after a fixed count of flips without a
// drop (z3: 5e4 terms for 5x5, 5e5 above; s3: 1e5 for 5x5 as MatrixMult22.py suggests, 5e5 above as
// r6-153-1.txt). On 5x5:93 over GF2 (3 seeds, 300M flips each) the z3 policy reached 96, 93, 99
// against 99, 99, 99 with the 4x4 defaults scaled by n³ (docs/PERFORMANCE.md). Explicit parameters win.
void anchor_policy(const EngineConfig& config, params::Bound<FlipParams>& b) {
  const bool five = config.target.format.n == 5;
  const long per = rank_step(b.value);
  const long terms_limit = five ? 100000000L : 1000000000L;
  const long terms_plus = b.value.symmetry == Symmetry::S3 ? (five ? 100000L : 500000L) : (five ? 50000L : 500000L);
  if (!b.given("restart_after")) b.derive("restart_after", (terms_limit + per / 2) / per, "anchor policy");
  if (!b.given("plus_min") && !b.given("plus_max")) {
    b.derive("plus_min", (terms_plus + per / 2) / per, "anchor policy");
    b.derive("plus_max", (terms_plus + per / 2) / per, "anchor policy");
  }
}

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

void derive_anchor_policy(const EngineConfig& config, params::Bound<FlipParams>& b) {
  const Format& f = config.target.format;
  if (!symmetric(b.value) || f.n <= 4) return;
  anchor_policy(config, b);
  if (config.start || b.given("plus_diff") || b.given("plus_ceiling")) return;
  if (b.value.symmetry == Symmetry::S3) {  // below the classical rank n³ at any best, as r6-153-1.txt's absolute PLUS_TRANSITION_LIMIT 216
    b.derive("plus_ceiling", f.n * f.n * f.n, "anchor plus limit");
    b.derive("plus_diff", 64, "anchor plus limit");
    return;
  }
  // z3: plus transitions up to the start's rank, as the anchor's PLUS_TRANSITION_LIMIT 0 (r5-93-1.txt).
  const Diagonal d = diagonal_for(b.value, f.n, config.target.rank);
  const int start_rank = f.n * f.n <= 64 ? diagonal_start<GF2>(f.n, d).rank() : diagonal_start<GF2W<4>>(f.n, d).rank();
  b.derive("plus_diff", std::max(1, (start_rank - config.target.rank) / rank_step(b.value)), "anchor plus limit");
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
