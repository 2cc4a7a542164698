// Greedy pairwise common-subexpression sharing over exact linear forms.
#include "codegen/cse.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace tdisc::codegen {

namespace {

// A pair x + ratio·y with x < y, keyed exactly.
struct PairKey {
  int x, y;
  Coeff ratio;
  friend bool operator<(const PairKey& a, const PairKey& b) {
    if (a.x != b.x) return a.x < b.x;
    if (a.y != b.y) return a.y < b.y;
    return a.ratio < b.ratio;
  }
};

const Coeff* coeff_of(const LinearForm& f, int var) {
  for (const Term& t : f)
    if (t.var == var) return &t.coeff;
  return nullptr;
}

bool is_power_of_two(const mpz_class& z) { return z > 0 && (z & (z - 1)) == 0; }

// A real ratio with a power-of-two denominator: x + r·y on dyadic data rounds no more than before.
bool dyadic(const Coeff& c) { return c.is_real() && is_power_of_two(c.re().get_den()); }

// Counts each pair once per form that contains it; only pairs whose ratio is dyadic, so that
// sharing never brings in a factor like 5/3 that binary floating point cannot hold.
std::map<PairKey, int> count_pairs(const std::vector<LinearForm>& forms) {
  std::map<PairKey, int> count;
  for (const LinearForm& f : forms)
    for (size_t a = 0; a < f.size(); ++a)
      for (size_t b = a + 1; b < f.size(); ++b) {
        const Coeff ratio = f[b].coeff / f[a].coeff;
        if (dyadic(ratio)) ++count[{f[a].var, f[b].var, ratio}];
      }
  return count;
}

// Replaces c·x + c·ratio·y in f by c·t, when f holds that pair.
void substitute(LinearForm& f, const PairKey& k, int t) {
  const Coeff* cx = coeff_of(f, k.x);
  const Coeff* cy = coeff_of(f, k.y);
  if (!cx || !cy || *cy != *cx * k.ratio) return;
  Coeff c = *cx;
  std::erase_if(f, [&](const Term& term) { return term.var == k.x || term.var == k.y; });
  f.push_back({t, c});
  std::sort(f.begin(), f.end(), [](const Term& a, const Term& b) { return a.var < b.var; });
}

long form_additions(const LinearForm& f) { return f.empty() ? 0 : static_cast<long>(f.size()) - 1; }

}  // namespace

bool exact_scale(const Coeff& c) {
  if (!c.is_real() || c.is_zero()) return false;
  const mpq_class& q = c.re();
  return is_power_of_two(abs(q.get_num())) && is_power_of_two(q.get_den());
}

long Program::additions() const {
  long n = 0;
  for (const auto& f : temps) n += form_additions(f);
  for (const auto& f : outputs) n += form_additions(f);
  return n;
}

std::vector<LinearForm> expand(const Program& prog) {
  std::vector<std::map<int, Coeff>> temps;  // temp t over the inputs
  auto over_inputs = [&](const LinearForm& f) {
    std::map<int, Coeff> sum;
    for (const Term& t : f) {
      if (t.var < prog.inputs) {
        sum[t.var] += t.coeff;
        continue;
      }
      for (const auto& [var, c] : temps[static_cast<size_t>(t.var - prog.inputs)]) sum[var] += t.coeff * c;
    }
    std::erase_if(sum, [](const auto& kv) { return kv.second.is_zero(); });
    return sum;
  };
  for (const LinearForm& f : prog.temps) temps.push_back(over_inputs(f));
  std::vector<LinearForm> out;
  for (const LinearForm& f : prog.outputs) {
    LinearForm g;
    for (const auto& [var, c] : over_inputs(f)) g.push_back({var, c});
    out.push_back(std::move(g));
  }
  return out;
}

Program plain_program(int inputs, std::vector<LinearForm> outputs) {
  Program p;
  p.inputs = inputs;
  p.outputs = std::move(outputs);
  return p;
}

Program share_subexpressions(int inputs, std::vector<LinearForm> outputs) {
  Program p;
  p.inputs = inputs;
  // Temps take part in later sharing, so they live in the same list while the loop runs.
  std::vector<LinearForm> forms = std::move(outputs);
  for (;;) {
    std::map<PairKey, int> count = count_pairs(forms);
    auto best = count.end();
    for (auto it = count.begin(); it != count.end(); ++it)
      if (it->second >= 2 && (best == count.end() || it->second > best->second)) best = it;
    if (best == count.end()) break;
    const PairKey key = best->first;
    const int t = inputs + static_cast<int>(p.temps.size());
    p.temps.push_back({{key.x, Coeff(1)}, {key.y, key.ratio}});
    for (LinearForm& f : forms) substitute(f, key, t);
  }
  p.outputs = std::move(forms);
  return p;
}

}  // namespace tdisc::codegen
