// The index reversal J of ⟨n,n,n⟩, entry (i,j) ↦ (n−1−i, n−1−j) in all three factors, which with the
// cyclic shift gives the 6-fold symmetry of Moosbauer–Poole 2025 (their SYMMETRY 6; tdisc "s3").
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "src/search/flip/orbits.hpp"

namespace tdisc::search::flip {

// Reverses the n² entries of a factor word: bit e goes to bit n²−1−e. shift = 64 − n².
inline std::uint64_t reverse_bits(std::uint64_t x, int shift) {
  x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
  x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
  x = ((x >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((x & 0x0F0F0F0F0F0F0F0Full) << 4);
  return __builtin_bswap64(x) >> shift;
}
inline std::uint64_t reversed(std::uint64_t v, int shift) { return reverse_bits(v, shift); }
// W words (large formats): bit e goes to bit 64·W − 1 − e, then everything moves down by shift = 64·W − n².
template <int W>
Bits<W> reversed(const Bits<W>& v, int shift) {
  Bits<W> r;
  for (int i = 0; i < W; ++i) r.w[W - 1 - i] = reverse_bits(v.w[i], 0);
  const int words = shift >> 6, bits = shift & 63;
  Bits<W> out;
  for (int i = 0; i + words < W; ++i) {
    const std::uint64_t lo = r.w[i + words], hi = i + words + 1 < W ? r.w[i + words + 1] : 0;
    out.w[i] = bits == 0 ? lo : (lo >> bits) | (hi << (64 - bits));
  }
  return out;
}
template <class Wd>
PlanesOf<Wd> reversed(const PlanesOf<Wd>& v, int shift) {
  return {reversed(v.p, shift), reversed(v.n, shift)};
}
// The sign that normalising J(v) takes out of a normalised v: its highest entry's sign (the planes
// are disjoint, so the larger word holds the highest entry). GF2: 1.
inline int top_sign(std::uint64_t) { return 1; }
template <int W>
int top_sign(const Bits<W>&) {
  return 1;
}
inline int top_sign(const Planes& v) { return v.p > v.n ? 1 : -1; }
template <int W>
int top_sign(const PlanesOf<Bits<W>>& v) {
  for (int i = W - 1; i >= 0; --i)
    if (v.p.w[i] != v.n.w[i]) return v.p.w[i] > v.n.w[i] ? 1 : -1;
  return 1;
}

// Pairs every orbit of a Z3-split scheme with its image under J (stored as J of its representative,
// so that position 3t+k of the image triple holds J of position k of the orbit), and checks that the
// fixed terms are J-invariant. The result has images = 2: triples 2c and 2c+1 form class c. nullopt
// (with a reason) when the scheme is not J-invariant, or holds an orbit that J fixes an odd number of times.
template <class F>
std::optional<OrbitTerms<F>> pair_reversed(const OrbitTerms<F>& o, int n, std::string* why_not = nullptr);

// A diagonal partition for an s3 walk: "auto" takes the fewest parts k ≡ target (mod 6) and builds
// them as the anchor's case files do (k | n: consecutive equal blocks, 6x6:153 → 0,1|2,3|4,5;
// otherwise from the mirror pairs {i, n−1−i}, 5x5:93 → 0,4|1,3|2). An explicit partition must map
// onto itself under i ↦ n−1−i. Throws UsageError naming the problem.
Diagonal parse_reversed_diagonal(const std::string& text, int n, int target_rank);
std::optional<Diagonal> auto_reversed_diagonal(int n, int target_rank);

}  // namespace tdisc::search::flip
