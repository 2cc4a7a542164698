#include "verifier/narrow.hpp"

#include "verifier/verify.hpp"

namespace tdisc {

Ring narrowed_ring(const Scheme& s) {
  const RingReport rr = classify(s);
  if (rr.valid_char0 && (ring_is_modular(s.ring) || ring_contains(s.ring, rr.smallest))) return rr.smallest;
  return s.ring;
}

}  // namespace tdisc
