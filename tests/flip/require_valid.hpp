// Shared by the walk tests: a walker's terms, as a full scheme, must pass the exact verifier over
// the walk's own ring (the check every long-walk test makes every N moves).
#pragma once
#include <catch2/catch.hpp>

#include "src/search/flip/convert.hpp"
#include "verifier/verify.hpp"

namespace tdisc::search::flip {

template <class F>
void require_valid(const Format& f, const Terms<F>& t, long step) {
  Scheme s = scheme_from_terms<F>(f, t);
  Verdict v = verify(s, s.ring);
  INFO(F::name << " " << f.str() << " after " << step << " moves, rank " << t.rank() << ": " << v.why_not);
  REQUIRE(v.valid);
}

}  // namespace tdisc::search::flip
