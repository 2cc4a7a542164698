// can_generate and make_plan: verification gate, Kronecker merging of levels, operand normalisation
// and de-duplication, and the shared addition chains of each stage.
#include "codegen/plan.hpp"

#include <map>

#include "decomposition/constructions.hpp"
#include "decomposition/error.hpp"
#include "verifier/verify.hpp"

namespace tdisc::codegen {

std::string backend_name(Backend b) { return b == Backend::Cuda ? "cuda" : "host"; }
std::string dtype_name(DType d) { return d == DType::F32 ? "f32" : "f64"; }

Answer can_generate(const std::vector<Scheme>& levels, const Target& target) {
  if (levels.empty()) return {false, "no level scheme given"};
  for (size_t l = 0; l < levels.size(); ++l) {
    const Scheme& s = levels[l];
    const std::string where = "level " + std::to_string(l) + " (" + s.format.str() + " rank " +
                              std::to_string(s.rank()) + "): ";
    if (s.rank() == 0) return {false, where + "empty scheme"};
    if (s.format.n < 1 || s.format.m < 1 || s.format.p < 1) return {false, where + "empty format"};
    if (ring_is_modular(s.ring))
      return {false, where + "declared valid only modulo " + std::to_string(ring_characteristic(s.ring)) +
                         "; floating-point GEMM needs a scheme valid in characteristic 0"};
    if (coefficient_ring(s) == Ring::QI)
      return {false, where + "complex coefficients; the " + dtype_name(target.dtype) +
                         " backends generate real arithmetic only"};
    Verdict v = verify(s, Ring::Q);
    if (!v.valid) return {false, where + "not a valid scheme over Q: " + v.why_not};
  }
  if (target.max_fused_rank < 0) return {false, "max fused rank must be ≥ 0"};
  return {true, ""};
}

namespace {

LinearForm row_form(const CoeffMatrix& m, int r) {
  LinearForm f;
  for (int c = 0; c < m.cols(); ++c)
    if (!m(r, c).is_zero()) f.push_back({c, m(r, c)});
  return f;
}

std::string form_key(const LinearForm& f) {
  std::string k;
  for (const Term& t : f) k += std::to_string(t.var) + ":" + t.coeff.str() + ";";
  return k;
}

// Splits each product's form into (scale, normalised form), de-duplicates the normalised forms.
// Returns the scales; fills ops and of.
std::vector<Coeff> collect_operands(const CoeffMatrix& m, std::vector<Operand>& ops, std::vector<int>& of) {
  std::map<std::string, int> index;
  std::vector<Coeff> scale;
  for (int r = 0; r < m.rows(); ++r) {
    LinearForm f = row_form(m, r);
    // Divide by the first coefficient only when that is exact (±2^k); otherwise by its sign, so a
    // form 3·X + 5·Y keeps integer coefficients instead of becoming X + 5/3·Y.
    const Coeff& first = f.front().coeff;
    Coeff s = exact_scale(first) ? first : Coeff(sgn(first.re()) < 0 ? -1 : 1);
    for (Term& t : f) t.coeff /= s;
    auto [it, fresh] = index.try_emplace(form_key(f), static_cast<int>(ops.size()));
    if (fresh) {
      Operand op;
      op.form = f;
      if (f.size() == 1) op.source = f.front().var;
      ops.push_back(op);
    }
    ops[static_cast<size_t>(it->second)].products.push_back(r);
    of.push_back(it->second);
    scale.push_back(s);
  }
  int slot = 0;
  for (Operand& op : ops)
    if (op.source < 0) op.slot = slot++;
  return scale;
}

std::vector<LinearForm> forms_of(const std::vector<Operand>& ops) {
  std::vector<LinearForm> f;
  for (const Operand& op : ops) f.push_back(op.form);
  return f;
}

Stage make_stage(Scheme s, int levels) {
  drop_zero_terms(s);
  Stage st;
  st.format = s.format;
  st.rank = s.rank();
  st.levels = levels;
  std::vector<Coeff> su = collect_operands(s.u, st.a_ops, st.a_of);
  std::vector<Coeff> sv = collect_operands(s.v, st.b_ops, st.b_of);
  st.a_prog = share_subexpressions(s.format.a_size(), forms_of(st.a_ops));
  st.b_prog = share_subexpressions(s.format.b_size(), forms_of(st.b_ops));
  // C[i][k] = Σ_r W_r[k][i]·scale_r·P_r, blocks numbered i·p+k.
  std::vector<LinearForm> c(static_cast<size_t>(s.format.n * s.format.p));
  st.c_cols.resize(static_cast<size_t>(s.rank()));
  for (int r = 0; r < s.rank(); ++r)
    for (int i = 0; i < s.format.n; ++i)
      for (int k = 0; k < s.format.p; ++k) {
        const Coeff& w = s.w(r, s.format.c_index(k, i));
        if (w.is_zero()) continue;
        c[static_cast<size_t>(i * s.format.p + k)].push_back({r, w * su[r] * sv[r]});
        st.c_cols[static_cast<size_t>(r)].push_back({i * s.format.p + k, w * su[r] * sv[r]});
      }
  st.c_prog = share_subexpressions(s.rank(), std::move(c));
  return st;
}

}  // namespace

int Stage::a_slots() const {
  int n = 0;
  for (const Operand& op : a_ops) n += op.source < 0;
  return n;
}
int Stage::b_slots() const {
  int n = 0;
  for (const Operand& op : b_ops) n += op.source < 0;
  return n;
}

Plan make_plan(const std::vector<Scheme>& levels, const Target& target) {
  TDISC_REQUIRE(can_generate(levels, target).ok, can_generate(levels, target).why_not);
  Plan plan;
  plan.target = target;
  size_t l = 0;
  while (l < levels.size()) {
    Scheme merged = levels[l];
    int count = 1;
    while (l + count < levels.size() &&
           static_cast<long>(merged.rank()) * levels[l + count].rank() <= target.max_fused_rank) {
      merged = tdisc::kronecker(merged, levels[l + count]);  // decomposition/: ring of the product
      ++count;
    }
    plan.stages.push_back(make_stage(merged, count));
    l += static_cast<size_t>(count);
  }
  return plan;
}

}  // namespace tdisc::codegen
