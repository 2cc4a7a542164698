// Where a flip walk starts: the standard algorithm or --from; with symmetry "z3" or "s3" a diagonal starting
// point (Moosbauer–Poole 2025), and --from must then be invariant under that symmetry.
#pragma once
#include "src/search/engine.hpp"
#include "src/search/flip/params.hpp"

namespace tdisc::search::flip {

// Throws UsageError when the symmetry cannot be walked for this target: a non-square format, a bad
// diagonal partition, or a target rank the diagonal's fixed terms rule out. Changes nothing.
void check_symmetry(const EngineConfig& config, const FlipParams& params);
// The rank of the diagonal start of a symmetric walk of ⟨n,n,n⟩ aiming at target_rank (the anchor
// plus limit, params.cpp). Call after check_symmetry.
int diagonal_start_rank(const FlipParams& params, int n, int target_rank);
// The start of every walker (and of fresh restarts). Throws UsageError for a --from scheme that a
// symmetric walk cannot hold (not invariant under (u,v,w) → (v,w,u), for s3 also under J).
template <class F>
Terms<F> walk_start(const EngineConfig& config, const FlipParams& params);

}  // namespace tdisc::search::flip
