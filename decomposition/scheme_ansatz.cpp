// The orbits of a scheme's terms under a group that fixes it, and the seed space of each orbit (see
// scheme_ansatz.hpp). Element actions on terms come from the generators' actions composed along
// each element's word, so only |generators| × R exact products are needed to find them.
#include "decomposition/scheme_ansatz.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "base/error.hpp"
#include "decomposition/stabiliser_detail.hpp"

namespace tdisc {

namespace {

using Perm = std::vector<int>;  // term r → term perm[r]

std::string column_key(const CoeffMatrix& x, Format f) {  // x: (nm+mp+pn) × 1
  return stab::tensor_key(x.middleRows(0, f.a_size()), x.middleRows(f.a_size(), f.b_size()),
                          x.middleRows(f.a_size() + f.b_size(), f.c_size()));
}

std::vector<Perm> generator_perms(const Scheme& s, const IsotropyGroup& g) {
  std::map<std::string, std::vector<int>> terms;  // exact tensor key → terms
  for (int r = 0; r < s.rank(); ++r) terms[stab::term_key(s, r)].push_back(r);
  std::vector<Perm> out;
  for (size_t k = 0; k < g.generators.size(); ++k) {
    const CoeffMatrix a = term_action(g.generators[k], g.format);
    std::map<std::string, int> used;
    Perm p;
    for (int r = 0; r < s.rank(); ++r) {
      const std::string key = column_key(exact_product(a, term_column(s, r)), s.format);
      auto it = terms.find(key);
      int& n = used[key];
      if (it == terms.end() || n >= static_cast<int>(it->second.size()))
        throw InputError("generator " + std::to_string(k + 1) + " of the group maps term " + std::to_string(r + 1) +
                         " outside the scheme: the group does not fix it");
      p.push_back(it->second[static_cast<size_t>(n++)]);
    }
    out.push_back(std::move(p));
  }
  return out;
}

// Element e = A_w0·A_w1·…: the last letter acts first.
std::vector<Perm> element_perms(const IsotropyGroup& g, const std::vector<Perm>& gens, int rank) {
  std::vector<Perm> out;
  for (const std::vector<int>& word : g.words) {
    Perm p(static_cast<size_t>(rank));
    for (int r = 0; r < rank; ++r) {
      int t = r;
      for (auto it = word.rbegin(); it != word.rend(); ++it) t = gens[static_cast<size_t>(*it)][static_cast<size_t>(t)];
      p[static_cast<size_t>(r)] = t;
    }
    out.push_back(std::move(p));
  }
  return out;
}

// The scalars (α, β, γ) with y = (αu, βv, γw) for x = (u, v, w), exactly; nullopt when there are none.
std::optional<std::array<Coeff, 3>> block_scalars(const CoeffMatrix& x, const CoeffMatrix& y, Format f) {
  const Eigen::Index bounds[4] = {0, f.a_size(), f.a_size() + f.b_size(), term_length(f)};
  std::array<Coeff, 3> out;
  for (int b = 0; b < 3; ++b) {
    std::optional<Coeff> ratio;
    for (Eigen::Index i = bounds[b]; i < bounds[b + 1]; ++i) {
      if (x(i, 0).is_zero()) {
        if (!y(i, 0).is_zero()) return std::nullopt;
        continue;
      }
      if (!ratio) ratio = y(i, 0) / x(i, 0);
      else if (y(i, 0) != *ratio * x(i, 0)) return std::nullopt;
    }
    if (!ratio || ratio->is_zero()) return std::nullopt;
    out[static_cast<size_t>(b)] = *ratio;
  }
  return out;
}

CoeffMatrix identity(int d) {
  CoeffMatrix m = CoeffMatrix::Zero(d, d);
  for (int i = 0; i < d; ++i) m(i, i) = 1;
  return m;
}

// The columns that every stabiliser element h scales by the representative's own (α_h, β_h, γ_h):
// the kernel of A_h − D_h for each h, intersected one h at a time (an h that already scales the
// current basis so costs one product).
CoeffMatrix seed_basis(const IsotropyGroup& g, const std::vector<int>& stabiliser, const CoeffMatrix& x) {
  const Format f = g.format;
  const int len = term_length(f);
  auto block = [&](int i) { return static_cast<size_t>(i < f.a_size() ? 0 : i < f.a_size() + f.b_size() ? 1 : 2); };
  CoeffMatrix basis = identity(len);  // len × d
  for (int h : stabiliser) {
    if (h == 0) continue;  // the identity
    const CoeffMatrix& a = g.elements[static_cast<size_t>(h)];
    auto d = block_scalars(x, exact_product(a, x), f);
    if (!d || (*d)[0] * (*d)[1] * (*d)[2] != Coeff(1))
      throw ContractError("scheme_ansatz: stabiliser element " + std::to_string(h) + " does not fix the representative");
    CoeffMatrix residual = exact_product(a, basis);  // (A_h − D_h)·basis
    for (int i = 0; i < len; ++i) residual.row(i) -= (*d)[block(i)] * basis.row(i);
    bool zero = true;
    for (Eigen::Index k = 0; k < residual.size() && zero; ++k) zero = residual.data()[k].is_zero();
    if (!zero) basis = exact_product(basis, stab::exact_nullspace(residual));
  }
  return basis;
}

// θ with basis·θ = x: each basis column is 1 at its free coordinate, the last non-zero one.
CoeffMatrix seed_of(const CoeffMatrix& basis, const CoeffMatrix& x) {
  CoeffMatrix theta(basis.cols(), 1);
  for (Eigen::Index c = 0; c < basis.cols(); ++c) {
    Eigen::Index last = basis.rows() - 1;
    while (basis(last, c).is_zero()) --last;
    theta(c, 0) = x(last, 0);
  }
  if (exact_product(basis, theta) != x) throw ContractError("scheme_ansatz: the representative is not in its seed space");
  return theta;
}

std::string default_name(const Scheme& s) {
  const std::string file = catalogue_file_name(s);
  return "stabiliser of " + file.substr(0, file.rfind(".json"));
}

std::string default_source(const Scheme& s) {
  std::string what = "sha256:" + scheme_sha256(s);
  if (auto it = s.provenance.extra.find("name"); it != s.provenance.extra.end()) what += " (" + it->second + ")";
  return "the stabiliser of the scheme " + what + ", computed exactly by tdisc symmetry";
}

}  // namespace

SchemeAnsatz scheme_ansatz(const Scheme& s, const IsotropyGroup& g, std::string name, std::string source) {
  TDISC_REQUIRE(s.format == g.format, "the group is for another format");
  if (name.empty()) name = default_name(s);
  if (source.empty()) source = default_source(s);
  const std::vector<Perm> perms = element_perms(g, generator_perms(s, g), s.rank());
  std::vector<int> by_length(static_cast<size_t>(g.order()));  // elements, shortest words first
  for (int e = 0; e < g.order(); ++e) by_length[static_cast<size_t>(e)] = e;
  std::stable_sort(by_length.begin(), by_length.end(),
                   [&](int a, int b) { return g.words[static_cast<size_t>(a)].size() < g.words[static_cast<size_t>(b)].size(); });
  SchemeAnsatz out{Ansatz{s.format, std::move(name), std::move(source), g, {}}, {}, {}};
  std::vector<bool> seen(static_cast<size_t>(s.rank()), false);
  for (int rep = 0; rep < s.rank(); ++rep) {
    if (seen[static_cast<size_t>(rep)]) continue;
    std::map<int, int> reached;  // term → the first (shortest) element reaching it
    AnsatzOrbit orbit;
    for (int e : by_length) {
      const int t = perms[static_cast<size_t>(e)][static_cast<size_t>(rep)];
      reached.emplace(t, e);
      if (t == rep) orbit.stabiliser_elements.push_back(e);
    }
    std::sort(orbit.stabiliser_elements.begin(), orbit.stabiliser_elements.end());
    const CoeffMatrix x = term_column(s, rep);
    std::vector<int> terms;
    for (auto [t, e] : reached) {
      if (!same_tensor(exact_product(g.elements[static_cast<size_t>(e)], x), term_column(s, t), s.format))
        throw ContractError("scheme_ansatz: element " + std::to_string(e) + " does not map term " + std::to_string(rep + 1) +
                            " onto term " + std::to_string(t + 1));
      seen[static_cast<size_t>(t)] = true;
      terms.push_back(t);
      orbit.map_elements.push_back(e);
    }
    orbit.basis = seed_basis(g, orbit.stabiliser_elements, x);
    out.seeds.push_back(seed_of(orbit.basis, x));
    out.terms.push_back(std::move(terms));
    out.ansatz.orbits.push_back(std::move(orbit));
  }
  return out;
}

Ansatz ansatz_of(const Scheme& s, const IsotropyGroup& g) { return scheme_ansatz(s, g).ansatz; }

bool same_tensor_set(const Scheme& a, const Scheme& b) {
  if (a.format != b.format || a.rank() != b.rank()) return false;
  std::multiset<std::string> ka, kb;
  for (int r = 0; r < a.rank(); ++r) ka.insert(stab::term_key(a, r));
  for (int r = 0; r < b.rank(); ++r) kb.insert(stab::term_key(b, r));
  return ka == kb;
}

}  // namespace tdisc
