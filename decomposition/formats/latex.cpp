// LaTeX for a paper: the products M_r = (Σ u·A)(Σ v·B) and the entries C_ik = Σ w·M_r in an
// amsmath align* environment, exact coefficients (\tfrac for rationals, i for Gaussian parts).
#include <algorithm>

#include "decomposition/formats/escape.hpp"
#include "decomposition/formats/readers.hpp"

namespace tdisc::fmt {

namespace {

std::string rational_tex(const mpq_class& q) {  // |q|, q ≠ 0
  mpq_class a = abs(q);
  if (a.get_den() == 1) return a.get_num().get_str();
  return "\\tfrac{" + a.get_num().get_str() + "}{" + a.get_den().get_str() + "}";
}

std::string coeff_tex(const Coeff& c) {  // a Gaussian coefficient, parenthesised, with its sign
  std::string out;
  if (sgn(c.re()) != 0) out += (sgn(c.re()) < 0 ? "-" : "") + rational_tex(c.re());
  if (sgn(c.im()) != 0) {
    out += sgn(c.im()) < 0 ? "-" : (out.empty() ? "" : "+");
    out += (abs(c.im()) == 1 ? "" : rational_tex(c.im())) + "i";
  }
  return "\\left(" + out + "\\right)";
}

std::string form_tex(const std::map<int, Coeff>& form, const std::function<std::string(int)>& name) {
  std::string out;
  for (auto& [x, c] : form) {
    bool negative = c.is_real() && sgn(c.re()) < 0;
    out += out.empty() ? (negative ? "-" : "") : (negative ? " - " : " + ");
    if (c.is_real()) {
      if (abs(c.re()) != 1) out += rational_tex(c.re()) + " ";
    } else {
      out += coeff_tex(c) + " ";
    }
    out += name(x);
  }
  return out.empty() ? "0" : out;
}

std::string sub(char letter, int x, int y, bool wide) {
  return std::string(1, letter) + "_{" + std::to_string(x + 1) + (wide ? "," : "") + std::to_string(y + 1) + "}";
}

}  // namespace

std::string write_latex(const Scheme& s) {
  const Format& f = s.format;
  const bool wide = std::max({f.n, f.m, f.p}) > 9;
  auto a = [&](int x) { return sub('A', x / f.m, x % f.m, wide); };
  auto b = [&](int x) { return sub('B', x / f.p, x % f.p, wide); };
  auto m = [](int r) { return "M_{" + std::to_string(r + 1) + "}"; };
  std::string out = "% " + f.str() + " rank " + std::to_string(s.rank()) + " over " + std::string(ring_name(s.ring)) +
                    ", written by tdisc. Needs \\usepackage{amsmath}; \\allowdisplaybreaks for long schemes.\n";
  if (!s.provenance.source.empty()) out += "% source: " + escape_latex(s.provenance.source) + "\n";
  out += "\\begin{align*}\n";
  for (int r = 0; r < s.rank(); ++r) {
    auto paren = [](const std::string& t) { return "\\left(" + t + "\\right)"; };
    out += m(r) + " &= " + paren(form_tex(row_form(s.u, r), a)) + paren(form_tex(row_form(s.v, r), b)) + " \\\\\n";
  }
  auto outs = output_forms(s);
  for (int t = 0; t < f.n * f.p; ++t) {
    out += sub('C', t / f.p, t % f.p, wide) + " &= " + form_tex(outs[static_cast<size_t>(t)], m);
    out += t + 1 < f.n * f.p ? " \\\\\n" : "\n";
  }
  return out + "\\end{align*}\n";
}

}  // namespace tdisc::fmt
