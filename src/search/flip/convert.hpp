// Between exact schemes (decomposition/Scheme) and the walker's packed terms over GF2, GF3, ZT:
// the standard algorithm, reading a start scheme, writing a result, and checkpoint JSON.
#pragma once
#include <nlohmann/json.hpp>

#include "decomposition/scheme.hpp"
#include "src/search/flip/walker.hpp"

namespace tdisc::search::flip {

// The standard algorithm: one term a_ij ⊗ b_jk ⊗ c_ki per (i, j, k).
template <class F>
Terms<F> standard_terms(Format f);
// Reduces the coefficients into F (GF2: mod 2, GF3: mod 3, ZT: must be in {-1,0,1}); terms with a
// zero factor are dropped. Throws InputError naming the first coefficient F cannot hold.
template <class F>
Terms<F> terms_from_scheme(const Scheme& s);
// The scheme over F's ring (GF2, GF3 or ZT), signs folded into W.
template <class F>
Scheme scheme_from_terms(Format f, const Terms<F>& t);
// Compact checkpoint form: {"u": [[…]], "v": …, "w": …} with integer entries.
template <class F>
nlohmann::json terms_json(Format f, const Terms<F>& t);
template <class F>
Terms<F> terms_from_json(Format f, const nlohmann::json& j);

}  // namespace tdisc::search::flip
