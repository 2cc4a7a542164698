// A random walk in the flip graph of symmetric schemes of ⟨n,n,n⟩ (Moosbauer–Poole 2025): moves on
// orbit representatives keep the scheme invariant under (u,v,w) → (v,w,u), and with kImages = 2 also
// under the index reversal J (their 6-fold symmetry, tdisc "s3"); fixed terms stay put.
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
//
// kImages = 2: a class is an orbit (triple 2c) and its J-image (triple 2c+1, position by position J of
// the first), so every move made on one triple is mirrored onto its partner: J is linear, so the
// mirrored move is a valid move on the image terms. Flips between the two orbits of a class would
// overlap their own images and are not moves (as the anchor's `permit`). A class whose two orbits
// cancel (J(T) = −T, or J(T) = T over GF2) vanishes: rank − 6.
template <class F, int kImages = 1>
class SymmetricWalker : public WalkCore<F, SymmetricWalker<F, kImages>> {
  using Core = WalkCore<F, SymmetricWalker<F, kImages>>;
  static_assert(kImages == 1 || kImages == 2);

public:
  using Vec = typename F::Vec;
  static constexpr int kRankStep = 3 * kImages;  // plus_diff counts classes: a plus transition adds 3·kImages terms
  SymmetricWalker(Format format, WalkParams params, std::uint64_t seed);

  void load(const Terms<F>& t);  // a Z3- (and for kImages 2 J-) invariant scheme (TDISC_REQUIRE); classes are re-derived
  void load(const OrbitTerms<F>& o);
  Terms<F> terms() const { return expand_orbits<F>(o_); }  // the full scheme
  const OrbitTerms<F>& orbit_terms() const { return o_; }
  int rank() const { return o_.rank(); }
  bool reducible() const { return !pending_.empty(); }
  void plus_transition();  // symmetric_plus.cpp: one new class, rank + 3·kImages
  void reduce();           // symmetric_reduce.cpp: two classes merge, rank − 3·kImages (twice that when they cancel)
  bool flip();             // symmetric_flip.cpp: one random symmetric flip

  size_t available_flips() const { return pairs_.size(); }
  int holders(int position) const { return holders_[position]; }  // pick_by_factor: positions holding its factor, itself included

private:
  static constexpr int kClass = 3 * kImages;  // factor positions per class
  static int orbit_of(int position) { return position / kClass; }  // the class (z3: the orbit)
  static int triple_of(int position) { return position / 3; }
  static int at(int position, int shift) { return position - position % 3 + (position % 3 + shift) % 3; }
  static int partner(int position) { return position + ((position / 3) % 2 ? -3 : 3); }  // kImages 2: J's position
  // symmetric_walker.cpp: index maintenance.
  void rebuild();
  void note_pair(int p, int q);                 // p, q of different classes share a factor
  void set_factor(int position, Vec v);         // v normalised and non-zero; keeps the index
  void mirror_factor(int position);             // kImages 2: the partner position and sign follow (index kept)
  void mirror_triple(int triple);               // kImages 2: the partner triple follows (no index update)
  bool cancels(int cls) const;                  // kImages 2: the class's orbits cancel (J(T) = −T; GF2: = T)
  // After a move that zeroed classes (dead) or changed some (touched): settles degenerate classes,
  // erases the dead ones, rebuilds the index and books the rank drop.
  void restructure(std::vector<int> dead, std::initializer_list<int> touched);
  bool settle_degenerate(int cls);              // true when it must go ((a,a,a): GF3 zero, GF2 fixed terms; cancelling)
  void erase_orbit(int cls);                    // the last class takes its place; no index update
  bool accept_by_factor(std::uint32_t code, std::uint64_t r) const;  // symmetric_flip.cpp: pick_by_factor

  using Core::format_;
  using Core::params_;
  using Core::rng_;
  OrbitTerms<F> o_;
  int shift_ = 0;                             // 64·words − n²: the reversal J of a factor word (reversal.hpp)
  PositionPairs pairs_;                       // positions of different classes holding the same factor
  Buckets<Vec> buckets_;                      // positions by factor
  std::vector<int> holders_;                  // pick_by_factor only: per position, how many positions hold its factor
  std::vector<std::pair<int, int>> pending_;  // position pairs whose rotated terms share two factors
};

}  // namespace tdisc::search::flip
