// The residual Σ_r U_r⊗V_r⊗W_r − T in K, accumulated over the non-zero coefficients of each term.
#include "verifier/field_verify.hpp"

#include "base/error.hpp"

namespace tdisc {

namespace {

std::vector<int> nonzero_entries(const std::vector<FieldElement>& f, int r, int width) {
  std::vector<int> nz;
  for (int x = 0; x < width; ++x)
    if (!f[static_cast<size_t>(r * width + x)].is_zero()) nz.push_back(x);
  return nz;
}

// Σ_r U_r⊗V_r⊗W_r, flat index (a·mp + b)·pn + c.
std::vector<FieldElement> product_tensor(const FieldScheme& s) {
  const NumberField& k = s.field;
  const int na = s.format.a_size(), nb = s.format.b_size(), nc = s.format.c_size();
  std::vector<FieldElement> x(static_cast<size_t>(na) * nb * nc, k.zero());
  for (int r = 0; r < s.rank(); ++r) {
    const auto ua = nonzero_entries(s.u, r, na), vb = nonzero_entries(s.v, r, nb), wc = nonzero_entries(s.w, r, nc);
    for (int a : ua)
      for (int b : vb) {
        const FieldElement uv = k.mul(s.u[static_cast<size_t>(r * na + a)], s.v[static_cast<size_t>(r * nb + b)]);
        for (int c : wc) {
          FieldElement& e = x[(static_cast<size_t>(a) * nb + b) * nc + c];
          e = k.add(e, k.mul(uv, s.w[static_cast<size_t>(r * nc + c)]));
        }
      }
  }
  return x;
}

}  // namespace

FieldVerdict verify_over_field(const FieldScheme& s) {
  const Format f = s.format;
  const size_t na = f.a_size(), nb = f.b_size(), nc = f.c_size();
  TDISC_REQUIRE(s.u.size() == s.rank() * na && s.v.size() == s.rank() * nb && s.w.size() == s.rank() * nc,
                "verify_over_field: factor sizes disagree with the format");
  FieldVerdict verdict;
  verdict.field = s.field.name();
  verdict.equations = static_cast<long>(na * nb * nc);
  std::vector<FieldElement> x = product_tensor(s);
  for (int i = 0; i < f.n; ++i)
    for (int j = 0; j < f.m; ++j)
      for (int k = 0; k < f.p; ++k) {
        FieldElement& e = x[((static_cast<size_t>(i) * f.m + j) * nb + j * f.p + k) * nc + k * f.n + i];
        e = s.field.sub(e, s.field.one());
      }
  for (size_t idx = 0; idx < x.size(); ++idx) {
    if (x[idx].is_zero()) continue;
    if (verdict.failing_equations++ > 0) continue;
    const size_t a = idx / (nb * nc), b = idx / nc % nb, c = idx % nc;
    const bool on_t = a % f.m == b / f.p && b % f.p == c / f.n && c % f.n == a / f.m;
    verdict.first_failure = "A[" + std::to_string(a / f.m) + "][" + std::to_string(a % f.m) + "]·B[" +
                            std::to_string(b / f.p) + "][" + std::to_string(b % f.p) + "]·C[" +
                            std::to_string(c % f.n) + "][" + std::to_string(c / f.n) + "]: expected " +
                            (on_t ? "1" : "0") + ", got " +
                            s.field.element_text(on_t ? s.field.add(x[idx], s.field.one()) : x[idx]);
  }
  verdict.valid = verdict.failing_equations == 0;
  return verdict;
}

}  // namespace tdisc
