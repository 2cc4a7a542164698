// can_generate and make_plan: verification gate, Kronecker merging of levels, operand normalisation
// and de-duplication, and the shared addition chains of each stage.
#include "codegen/plan.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "base/error.hpp"
#include "decomposition/constructions.hpp"
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

void sort_by_var(LinearForm& f) {
  std::sort(f.begin(), f.end(), [](const Term& a, const Term& b) { return a.var < b.var; });
}

// Divides f by its first coefficient when that is exact (±2^k), otherwise by its sign, so a form
// 3·X + 5·Y keeps integer coefficients instead of becoming X + 5/3·Y. Returns the divisor.
Coeff normalise(LinearForm& f) {
  const Coeff first = f.front().coeff;
  const Coeff s = exact_scale(first) ? first : Coeff(sgn(first.re()) < 0 ? -1 : 1);
  for (Term& t : f) t.coeff /= s;
  return s;
}

// Splits each product's form into (scale, normalised form), de-duplicates the normalised forms.
// Returns the scales; fills ops and of.
std::vector<Coeff> collect_operands(const CoeffMatrix& m, std::vector<Operand>& ops, std::vector<int>& of) {
  std::map<std::string, int> index;
  std::vector<Coeff> scale;
  for (int r = 0; r < m.rows(); ++r) {
    LinearForm f = row_form(m, r);
    const Coeff s = normalise(f);
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

// Rows × cols of one level's factor: U is n × m, V is m × p.
struct FactorShape {
  int rows, cols;
};

// The operand program of a stage merged from two levels (outer ⊗ inner, kronecker()'s numbering:
// product o·R_inner + i, source block (x1·r2 + x2)·(c1·c2) + y1·c2 + y2), evaluated level by level:
// for each outer term o and inner source q the sum S(o,q) = Σ_p outer(o,p)·X(p,q), then each operand
// Σ_q inner(i,q)·S(o,q). Emitted in operand order, a kernel keeps only the sources and one outer
// term's sums live; the pair-shared program of 8x8:336 kept 170-240 values live and spilled.
// Empty when the expansion does not equal the operands exactly (checked, not assumed).
std::optional<Program> level_by_level(const CoeffMatrix& outer, FactorShape so, const CoeffMatrix& inner,
                                      FactorShape si, const std::vector<Operand>& ops, const std::vector<Coeff>& scale) {
  const int sources = so.rows * si.rows * so.cols * si.cols, inner_sources = si.rows * si.cols;
  auto source = [&](int p, int q) {
    const int x1 = p / so.cols, y1 = p % so.cols, x2 = q / si.cols, y2 = q % si.cols;
    return (x1 * si.rows + x2) * (so.cols * si.cols) + y1 * si.cols + y2;
  };
  Program prog;
  prog.inputs = sources;
  std::map<std::pair<int, int>, Term> sum;  // (o, q) → the variable holding S(o,q) up to its factor
  auto sum_of = [&](int o, int q) {
    auto [it, fresh] = sum.try_emplace({o, q});
    if (!fresh) return it->second;
    LinearForm f;
    for (int p = 0; p < outer.cols(); ++p)
      if (!outer(o, p).is_zero()) f.push_back({source(p, q), outer(o, p)});
    sort_by_var(f);
    if (f.size() == 1) return it->second = f.front();
    const Coeff s = normalise(f);
    prog.temps.push_back(std::move(f));
    return it->second = Term{sources + static_cast<int>(prog.temps.size()) - 1, s};
  };
  for (const Operand& op : ops) {
    const int r = op.products.front(), o = r / static_cast<int>(inner.rows()), i = r % static_cast<int>(inner.rows());
    if (o >= outer.rows()) return std::nullopt;
    LinearForm f;
    for (int q = 0; q < inner_sources; ++q)
      if (!inner(i, q).is_zero()) {
        const Term t = sum_of(o, q);
        f.push_back({t.var, inner(i, q) * t.coeff / scale[static_cast<size_t>(r)]});
      }
    sort_by_var(f);
    prog.outputs.push_back(std::move(f));
  }
  const std::vector<LinearForm> got = expand(prog);
  for (size_t k = 0; k < ops.size(); ++k)
    if (form_key(got[k]) != form_key(ops[k].form)) return std::nullopt;
  return prog;
}

// The pair-shared program, or for a wide stage merged from two levels the level-by-level one.
Program operand_program(int sources, const std::vector<Operand>& ops, const std::vector<Coeff>& scale, bool wide,
                        const Scheme* outer, const Scheme* inner, bool a_side) {
  if (wide && outer && inner) {
    const FactorShape so = a_side ? FactorShape{outer->format.n, outer->format.m} : FactorShape{outer->format.m, outer->format.p};
    const FactorShape si = a_side ? FactorShape{inner->format.n, inner->format.m} : FactorShape{inner->format.m, inner->format.p};
    if (auto p = level_by_level(a_side ? outer->u : outer->v, so, a_side ? inner->u : inner->v, si, ops, scale))
      return *p;
  }
  return share_subexpressions(sources, forms_of(ops));
}

// parts: the level schemes merged into s (two of them enable the level-by-level operand programs).
Stage make_stage(Scheme s, const std::vector<Scheme>& parts) {
  drop_zero_terms(s);
  Stage st;
  st.format = s.format;
  st.rank = s.rank();
  st.levels = static_cast<int>(parts.size());
  std::vector<Coeff> su = collect_operands(s.u, st.a_ops, st.a_of);
  std::vector<Coeff> sv = collect_operands(s.v, st.b_ops, st.b_of);
  const bool wide = wide_stage(std::max(s.format.a_size(), s.format.b_size()), s.rank());
  const Scheme* outer = parts.size() == 2 ? &parts[0] : nullptr;
  const Scheme* inner = parts.size() == 2 ? &parts[1] : nullptr;
  st.a_prog = operand_program(s.format.a_size(), st.a_ops, su, wide, outer, inner, true);
  st.b_prog = operand_program(s.format.b_size(), st.b_ops, sv, wide, outer, inner, false);
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
    plan.stages.push_back(make_stage(merged, {levels.begin() + static_cast<long>(l), levels.begin() + static_cast<long>(l + count)}));
    l += static_cast<size_t>(count);
  }
  return plan;
}

}  // namespace tdisc::codegen
