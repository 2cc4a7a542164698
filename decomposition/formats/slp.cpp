// A plain straight-line program: "m1 = (a11 + a22) * (b11 + b22)" for each product, then
// "c11 = m1 + m4 - m5 + m7" for each entry of C = A·B (c_ik is C[i][k], 1-based).
#include <algorithm>

#include "decomposition/formats/escape.hpp"
#include "decomposition/formats/expr.hpp"
#include "decomposition/formats/hints.hpp"
#include "decomposition/formats/readers.hpp"

namespace tdisc::fmt {

std::string write_slp(const Scheme& s) {
  const Format& f = s.format;
  const bool wide = std::max({f.n, f.m, f.p}) > 9;
  auto a = [&](int x) { return entry_name('a', x / f.m, x % f.m, wide); };
  auto b = [&](int x) { return entry_name('b', x / f.p, x % f.p, wide); };
  auto m = [](int r) { return "m" + std::to_string(r + 1); };
  std::string out = "# " + f.str() + " rank " + std::to_string(s.rank()) + " over " + std::string(ring_name(s.ring)) +
                    ": C = A·B with A " + std::to_string(f.n) + "×" + std::to_string(f.m) + ", B " +
                    std::to_string(f.m) + "×" + std::to_string(f.p) + "; aij = A[i][j], cik = C[i][k], 1-based.\n";
  if (!s.provenance.source.empty()) out += "# source: " + escape_comment_line(s.provenance.source) + "\n";
  for (int r = 0; r < s.rank(); ++r)
    out += m(r) + " = (" + linear_text(row_form(s.u, r), a, true) + ") * (" + linear_text(row_form(s.v, r), b, true) + ")\n";
  auto outs = output_forms(s);
  for (int t = 0; t < f.n * f.p; ++t)
    out += entry_name('c', t / f.p, t % f.p, wide) + " = " + linear_text(outs[static_cast<size_t>(t)], m, true) + "\n";
  return out;
}

}  // namespace tdisc::fmt
