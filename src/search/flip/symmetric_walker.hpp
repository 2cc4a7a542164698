// A random walk in the flip graph of Z3-symmetric schemes of ⟨n,n,n⟩ (Moosbauer–Poole 2025): moves on
// orbit representatives keep the scheme invariant under (u,v,w) → (v,w,u); fixed terms stay put.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "decomposition/format.hpp"
#include "src/search/flip/buckets.hpp"
#include "src/search/flip/orbits.hpp"
#include "src/search/flip/position_pairs.hpp"
#include "src/search/flip/rng.hpp"
#include "src/search/flip/walker.hpp"

namespace tdisc::search::flip {

// Orbit j holds the factors x[3j], x[3j+1], x[3j+2]; its rotation r is the term (x_r, x_r+1, x_r+2)
// (slots mod 3 within the orbit), so every factor of an orbit sits in every slot of some term. A
// flip takes two positions p, q of different orbits that hold the same factor A, rotates each orbit
// so that A comes first — terms P = (A, p1, p2), Q = (A, q1, q2) — and applies the ordinary flip
// P + Q = (A, p1 + t·q1, p2) + (A, q1, q2 − t·p2) to the representatives, hence to all three
// rotations at once: the three flips touch disjoint pairs of terms, so the sum is unchanged. Flips
// inside one orbit would overlap and are not moves. The rank moves in steps of 3 (one orbit), except
// that a degenerate orbit (a,a,a) is 3·a⊗a⊗a: zero over GF3, one fixed term over GF2.
template <class F>
class SymmetricWalker : public WalkCore<F, SymmetricWalker<F>> {
  using Core = WalkCore<F, SymmetricWalker<F>>;

public:
  using Vec = typename F::Vec;
  static constexpr int kRankStep = 3;  // plus_diff counts orbits: a plus transition adds 3 terms
  SymmetricWalker(Format format, WalkParams params, std::uint64_t seed);

  void load(const Terms<F>& t);  // a Z3-invariant scheme (TDISC_REQUIRE); orbits are re-derived
  void load(const OrbitTerms<F>& o);
  Terms<F> terms() const { return expand_orbits<F>(o_); }  // the full scheme
  const OrbitTerms<F>& orbit_terms() const { return o_; }
  int rank() const { return o_.rank(); }
  bool reducible() const { return !pending_.empty(); }
  void plus_transition();  // symmetric_plus.cpp: one new orbit, rank + 3
  void reduce();           // symmetric_reduce.cpp: two orbits merge, rank − 3 (− 6 when they cancel)
  bool flip();             // symmetric_flip.cpp: one random symmetric flip

  size_t available_flips() const { return pairs_.size(); }

private:
  static int orbit_of(int position) { return position / 3; }
  static int at(int position, int shift) { return position - position % 3 + (position % 3 + shift) % 3; }
  // symmetric_walker.cpp: index maintenance.
  void rebuild();
  void note_pair(int p, int q);                 // p, q of different orbits share a factor
  void set_factor(int position, Vec v);         // v normalised and non-zero; keeps the index
  // After a move that zeroed orbits (dead) or changed some (touched): settles degenerate orbits,
  // erases the dead ones, rebuilds the index and books the rank drop.
  void restructure(std::vector<int> dead, std::initializer_list<int> touched);
  bool settle_degenerate(int orbit);            // (a,a,a): true when it must go (GF3: zero; GF2: now a fixed term)
  void erase_orbit(int orbit);                  // the last orbit takes its place; no index update
  bool accept_by_factor(std::uint32_t code, std::uint64_t r) const;  // symmetric_flip.cpp: pick_by_factor

  using Core::format_;
  using Core::params_;
  using Core::rng_;
  OrbitTerms<F> o_;
  PositionPairs pairs_;                       // positions of different orbits holding the same factor
  Buckets<Vec> buckets_;                      // positions by factor
  std::vector<std::pair<int, int>> pending_;  // position pairs whose rotated terms share two factors
};

}  // namespace tdisc::search::flip
