// The stabiliser of a scheme: for each outer symmetry σ (transpose, shifts) every sandwich carrying
// σ·S onto S (stabiliser_search.cpp), then a small generating set and its closure, checked exactly.
#include "decomposition/stabiliser.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "base/error.hpp"
#include "decomposition/constructions.hpp"
#include "decomposition/stabiliser_detail.hpp"

namespace tdisc {

namespace {

constexpr long kNodeBudget = 5'000'000;  // search nodes; the catalogue's schemes need far fewer

bool zero_row(const CoeffMatrix& m, int r) {
  for (Eigen::Index c = 0; c < m.cols(); ++c)
    if (!m(r, c).is_zero()) return false;
  return true;
}

struct Outer {
  bool transposed;
  int shift;
};

std::vector<Outer> outer_symmetries(Format f) {
  std::vector<Outer> out = {{false, 0}};
  const bool square = f.n == f.m && f.m == f.p;
  if (square) out.insert(out.end(), {{false, 1}, {false, 2}});
  if (f.n == f.p) out.push_back({true, 0});
  if (square) out.insert(out.end(), {{true, 1}, {true, 2}});
  return out;
}

// Where the factor in slot i (U, V, W) of a term lands: the transpose swaps U and V, each shift
// (U,V,W) → (V,W,U) moves slot i to i − 1.
std::array<int, 3> slot_map(const Outer& o) {
  std::array<int, 3> m = o.transposed ? std::array<int, 3>{1, 0, 2} : std::array<int, 3>{0, 1, 2};
  for (int& x : m) x = (x + 3 - o.shift) % 3;
  return m;
}

struct Element {
  Isotropy g;
  std::vector<int> action;  // on (term r, slot i) as r·3 + i: faithful, unlike the terms alone
};

std::vector<Element> all_elements(const Scheme& s, int max_order) {
  stab::PairDims pairs;
  std::vector<Element> out;
  for (const Outer& o : outer_symmetries(s.format)) {
    const Isotropy outer{o.transposed, o.shift, {}, {}, {}};
    const Scheme source = apply_isotropy(term_action(outer, s.format), s);
    const std::array<int, 3> slots = slot_map(o);
    const int room = max_order - static_cast<int>(out.size());
    for (stab::Found& f : stab::sandwiches_onto(source, s, pairs, room, kNodeBudget)) {
      Element e{{o.transposed, o.shift, std::move(f.pqs[0]), std::move(f.pqs[1]), std::move(f.pqs[2])}, {}};
      for (int r = 0; r < s.rank(); ++r)
        for (int i = 0; i < 3; ++i) e.action.push_back(f.image[static_cast<size_t>(r)] * 3 + slots[static_cast<size_t>(i)]);
      out.push_back(std::move(e));
    }
    if (static_cast<int>(out.size()) > max_order)
      throw InputError("the stabiliser has more than " + std::to_string(max_order) + " elements (the limit)");
  }
  return out;
}

using Perm = std::vector<int>;

Perm compose(const Perm& a, const Perm& b) {  // a after b
  Perm c(b.size());
  for (size_t x = 0; x < b.size(); ++x) c[x] = a[static_cast<size_t>(b[x])];
  return c;
}

std::set<Perm> closure(const std::vector<Perm>& gens, size_t points) {
  Perm id(points);
  std::iota(id.begin(), id.end(), 0);
  std::set<Perm> seen{id};
  std::vector<Perm> queue{id};
  for (size_t q = 0; q < queue.size(); ++q)
    for (const Perm& g : gens) {
      Perm next = compose(g, queue[q]);
      if (seen.insert(next).second) queue.push_back(std::move(next));
    }
  return seen;
}

int perm_order(const Perm& p) {
  Perm id(p.size()), x = p;
  std::iota(id.begin(), id.end(), 0);
  int k = 1;
  for (; x != id; ++k) x = compose(p, x);
  return k;
}

// Greedy: elements of large order first, each added when the ones before do not generate it.
std::vector<Isotropy> pick_generators(const std::vector<Element>& els) {
  std::vector<size_t> order(els.size());
  std::iota(order.begin(), order.end(), 0);
  std::vector<int> orders;
  for (const Element& e : els) orders.push_back(perm_order(e.action));
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return orders[a] > orders[b]; });
  std::vector<Perm> perms;
  std::vector<Isotropy> gens;
  std::set<Perm> have = closure(perms, els.front().action.size());
  for (size_t i : order) {
    if (have.count(els[i].action)) continue;
    perms.push_back(els[i].action);
    gens.push_back(els[i].g);
    have = closure(perms, els[i].action.size());
  }
  return gens;
}

std::multiset<std::string> tensor_keys(const Scheme& s) {
  std::multiset<std::string> keys;
  for (int r = 0; r < s.rank(); ++r) keys.insert(stab::term_key(s, r));
  return keys;
}

// Every element found was checked exactly by the search; here the group's own action matrices are
// checked for the generators (so every product of them fixes s too), and the closure must hold
// exactly as many elements as were found.
void check_group(const IsotropyGroup& g, const Scheme& s, size_t found) {
  if (static_cast<size_t>(g.order()) != found)
    throw ContractError("stabiliser: the generators close to " + std::to_string(g.order()) + " elements, not the " +
                        std::to_string(found) + " found");
  const std::multiset<std::string> keys = tensor_keys(s);
  for (const Isotropy& x : g.generators)
    if (tensor_keys(apply_isotropy(term_action(x, g.format), s)) != keys)
      throw ContractError("stabiliser: a generator does not fix the scheme");
}

}  // namespace

namespace stab {

void require_supported(const Scheme& s) {
  s.check_shape();
  if (s.rank() == 0) throw InputError("the scheme has no terms");
  if (ring_is_modular(s.ring))
    throw InputError("a " + std::string(ring_name(s.ring)) + " scheme: the stabiliser is computed over Q(i), where its "
                     "coefficients do not make a scheme (not supported)");
  for (int r = 0; r < s.rank(); ++r)
    if (zero_row(s.u, r) || zero_row(s.v, r) || zero_row(s.w, r))
      throw InputError("term " + std::to_string(r + 1) + " has a zero factor (drop zero terms first)");
  for (const CoeffMatrix* m : {&s.u, &s.v, &s.w})
    for (Eigen::Index i = 0; i < m->size(); ++i)
      if (!modp::reduce(m->data()[i]))
        throw InputError("a coefficient's denominator is divisible by 998244353 (not supported)");
}

void require_determined(const Scheme& s, const std::vector<TermSpaces>& spaces) {
  const std::array<int, 3> dims = self_dims(s, spaces);
  if (dims == std::array<int, 3>{1, 1, 1}) return;
  const int t = tangent_dimension(s);
  if (t > 3)
    throw InputError("the stabiliser is infinite: a " + std::to_string(t - 3) +
                     "-dimensional family of sandwiches fixes every term (as the diagonal ones fix the classical "
                     "algorithm); only finite groups are computed");
  throw InputError("not supported: the column and row spaces of the factors leave P, Q and S in spaces of "
                   "dimension " + std::to_string(dims[0]) + ", " + std::to_string(dims[1]) + " and " +
                   std::to_string(dims[2]) + " (the search needs rank-deficient factors that pin them to lines)");
}

}  // namespace stab

IsotropyGroup stabiliser(const Scheme& s, int max_order) {
  stab::require_supported(s);
  stab::require_determined(s, stab::term_spaces(s));
  const std::vector<Element> els = all_elements(s, max_order);
  IsotropyGroup g = generate_group(s.format, pick_generators(els), max_order);
  check_group(g, s, els.size());
  return g;
}

std::optional<Isotropy> isotropy_between(const Scheme& a, const Scheme& b) {
  if (a.format != b.format || a.rank() != b.rank()) return std::nullopt;
  stab::require_supported(a);
  stab::require_supported(b);
  stab::require_determined(b, stab::term_spaces(b));
  stab::PairDims pairs;
  const std::multiset<std::string> keys = tensor_keys(b);
  for (const Outer& o : outer_symmetries(a.format)) {
    const Isotropy outer{o.transposed, o.shift, {}, {}, {}};
    const Scheme source = apply_isotropy(term_action(outer, a.format), a);
    for (stab::Found& f : stab::sandwiches_onto(source, b, pairs, 0, kNodeBudget)) {
      Isotropy g{o.transposed, o.shift, std::move(f.pqs[0]), std::move(f.pqs[1]), std::move(f.pqs[2])};
      if (tensor_keys(apply_isotropy(term_action(g, a.format), a)) != keys)
        throw ContractError("isotropy_between: a found isotropy does not map the scheme");
      return g;
    }
  }
  return std::nullopt;
}

std::array<int, 3> rank_type(const Scheme& s, int r) {
  const Format f = s.format;
  return {stab::exact_rank(term_matrix(s.u, r, f.n, f.m)), stab::exact_rank(term_matrix(s.v, r, f.m, f.p)),
          stab::exact_rank(term_matrix(s.w, r, f.p, f.n))};
}

std::string rank_types(const Scheme& s) {
  std::map<std::array<int, 3>, int> counts;
  for (int r = 0; r < s.rank(); ++r) ++counts[rank_type(s, r)];
  std::vector<std::pair<int, std::array<int, 3>>> sorted;
  for (auto& [type, count] : counts) sorted.push_back({-count, type});
  std::sort(sorted.begin(), sorted.end());
  std::string out;
  for (auto& [count, t] : sorted)
    out += (out.empty() ? "" : " + ") + std::to_string(-count) + "×(" + std::to_string(t[0]) + "," +
           std::to_string(t[1]) + "," + std::to_string(t[2]) + ")";
  return out;
}

}  // namespace tdisc
