// The search for every sandwich (P, Q, S) that carries one scheme onto another as a set of rank-one
// tensors: a backtracking matching of terms, pruned by pair invariants and by the linear conditions
// of stabiliser_detail.hpp solved modulo p, with each surviving sandwich solved and checked exactly.
#include <algorithm>
#include <map>

#include "base/error.hpp"
#include "decomposition/stabiliser_detail.hpp"

namespace tdisc::stab {

namespace {

using Spaces = std::array<modp::Matrix, 3>;  // per slot: basis of the admissible vec(M), d² × dim

Spaces full_spaces(Format f) {
  Spaces out;
  const auto d = slot_sizes(f);
  for (size_t k = 0; k < 3; ++k) out[k] = modp::Matrix::identity(d[k] * d[k]);
  return out;
}

// The part of basis N (d² × dim) whose matrices meet every row of `rows` (each of length d²).
modp::Matrix restrict_space(const modp::Matrix& n, const std::vector<std::vector<modp::Fp>>& rows) {
  if (rows.empty() || n.cols == 0) return n;
  modp::Matrix c(static_cast<int>(rows.size()), n.cols);  // rows × dim: the conditions in N's coordinates
  for (int r = 0; r < c.rows; ++r) {
    const std::vector<modp::Fp>& row = rows[static_cast<size_t>(r)];
    for (int e = 0; e < n.rows; ++e) {
      const modp::Fp a = row[static_cast<size_t>(e)];
      if (a == 0) continue;
      for (int j = 0; j < n.cols; ++j) c(r, j) = modp::add(c(r, j), modp::mul(a, n(e, j)));
    }
  }
  return modp::product(n, modp::nullspace(c));
}

Spaces restrict_all(const Spaces& s, const TermSpaces& from, const TermSpaces& to) {
  Spaces out;
  for (int k = 0; k < 3; ++k)
    out[static_cast<size_t>(k)] = restrict_space(s[static_cast<size_t>(k)], condition_rows_p(from, to, k));
  return out;
}

int total_dim(const Spaces& s) { return s[0].cols + s[1].cols + s[2].cols; }
bool all_lines(const Spaces& s) { return s[0].cols == 1 && s[1].cols == 1 && s[2].cols == 1; }
bool any_empty(const Spaces& s) { return s[0].cols == 0 || s[1].cols == 0 || s[2].cols == 0; }

// The projective class of a rank-one tensor modulo p (each factor scaled to a leading 1); empty when
// a factor vanishes modulo p, where the check modulo p says nothing.
std::vector<modp::Fp> projective_key(const std::array<modp::Matrix, 3>& factors) {
  std::vector<modp::Fp> key;
  for (const modp::Matrix& m : factors) {
    std::vector<modp::Fp> v = m.a;
    if (!modp::normalise(v)) return {};
    key.insert(key.end(), v.begin(), v.end());
  }
  return key;
}

struct Enough {};  // thrown to stop the search once more than max_found sandwiches are known

class Search {
public:
  Search(const Scheme& source, const Scheme& target, PairDims& pairs, int max_found, long node_budget)
      : source_(source), target_(target), max_found_(max_found), node_budget_(node_budget) {
    src_ = term_spaces(source);
    tgt_ = term_spaces(target);
    src_pairs_ = pair_table(src_, pairs);
    tgt_pairs_ = pair_table(tgt_, pairs);
    classify();
  }

  std::vector<Found> run() {
    if (!same_classes()) return {};
    order_terms();
    target_keys_p_ = target_keys_p();
    used_.assign(static_cast<size_t>(target_.rank()), false);
    try {
      descend(0, full_spaces(source_.format));
    } catch (const Enough&) {
    }
    return std::move(found_);
  }

private:
  const Scheme& source_;
  const Scheme& target_;
  int max_found_;
  long node_budget_;
  long nodes_ = 0;
  std::vector<TermSpaces> src_, tgt_;
  std::vector<std::vector<PairInvariant>> src_pairs_, tgt_pairs_;  // R × R
  std::vector<int> src_class_, tgt_class_;                          // term → signature class
  std::vector<int> order_;                                          // source terms, assignment order
  std::vector<int> assigned_;                                       // assigned_[depth]: target term
  std::vector<bool> used_;
  std::map<std::vector<modp::Fp>, int> target_keys_p_;  // projective class mod p → term, −1: shared
  std::vector<Found> found_;

  static std::vector<std::vector<PairInvariant>> pair_table(const std::vector<TermSpaces>& t, PairDims& pairs) {
    const size_t r = t.size();
    std::vector<std::vector<PairInvariant>> out(r, std::vector<PairInvariant>(r));
    for (size_t a = 0; a < r; ++a)
      for (size_t b = a; b < r; ++b) out[a][b] = out[b][a] = pairs.of(t[a], t[b]);
    return out;
  }

  // A term's signature: its rank type and the sorted pair invariants with every other term. Equal
  // for a term and its image under any sandwich.
  static std::vector<int> signature(const std::vector<TermSpaces>& t, const std::vector<std::vector<PairInvariant>>& p,
                                    size_t r) {
    std::vector<PairInvariant> others = p[r];
    std::sort(others.begin(), others.end());
    std::vector<int> sig = {t[r].f[0].rank, t[r].f[1].rank, t[r].f[2].rank};
    for (const PairInvariant& x : others) sig.insert(sig.end(), x.begin(), x.end());
    return sig;
  }

  void classify() {
    std::map<std::vector<int>, int> ids;
    auto id_of = [&](std::vector<int> sig) { return ids.emplace(std::move(sig), static_cast<int>(ids.size())).first->second; };
    for (size_t r = 0; r < src_.size(); ++r) src_class_.push_back(id_of(signature(src_, src_pairs_, r)));
    for (size_t r = 0; r < tgt_.size(); ++r) tgt_class_.push_back(id_of(signature(tgt_, tgt_pairs_, r)));
  }

  bool same_classes() const {
    std::vector<int> a = src_class_, b = tgt_class_;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    return a == b;
  }

  int class_size(int r) const {
    return static_cast<int>(std::count(tgt_class_.begin(), tgt_class_.end(), src_class_[static_cast<size_t>(r)]));
  }

  // Greedy: next the term whose conditions (against itself, as a stand-in for its image) shrink the
  // sandwich spaces most, ties to the smaller class. Terms that add nothing come last.
  void order_terms() {
    const int rank = source_.rank();
    std::vector<bool> taken(static_cast<size_t>(rank), false);
    Spaces s = full_spaces(source_.format);
    while (!all_lines(s) && static_cast<int>(order_.size()) < rank) {
      int best = -1, best_gain = 0, best_size = 0;
      for (int r = 0; r < rank; ++r) {
        if (taken[static_cast<size_t>(r)]) continue;
        const int gain = total_dim(s) - total_dim(restrict_all(s, src_[static_cast<size_t>(r)], src_[static_cast<size_t>(r)]));
        if (gain > best_gain || (gain == best_gain && gain > 0 && class_size(r) < best_size)) {
          best = r;
          best_gain = gain;
          best_size = class_size(r);
        }
      }
      if (best < 0) break;
      taken[static_cast<size_t>(best)] = true;
      order_.push_back(best);
      s = restrict_all(s, src_[static_cast<size_t>(best)], src_[static_cast<size_t>(best)]);
    }
    for (int r = 0; r < rank; ++r)
      if (!taken[static_cast<size_t>(r)]) order_.push_back(r);
  }

  std::map<std::vector<modp::Fp>, int> target_keys_p() const {
    std::map<std::vector<modp::Fp>, int> keys;
    for (int t = 0; t < target_.rank(); ++t) {
      const TermSpaces& x = tgt_[static_cast<size_t>(t)];
      auto [it, fresh] = keys.emplace(projective_key({x.f[0].matrix_p, x.f[1].matrix_p, x.f[2].matrix_p}), t);
      if (!fresh) it->second = -1;
    }
    return keys;
  }

  bool compatible(size_t depth, int t) const {
    const int r = order_[depth];
    if (used_[static_cast<size_t>(t)] || tgt_class_[static_cast<size_t>(t)] != src_class_[static_cast<size_t>(r)]) return false;
    for (size_t i = 0; i < depth; ++i)
      if (tgt_pairs_[static_cast<size_t>(assigned_[i])][static_cast<size_t>(t)] !=
          src_pairs_[static_cast<size_t>(order_[i])][static_cast<size_t>(r)])
        return false;
    return true;
  }

  void descend(size_t depth, const Spaces& spaces) {
    if (++nodes_ > node_budget_)
      throw InputError("the stabiliser search passed " + std::to_string(node_budget_) +
                       " nodes; this scheme's factor spaces prune too little (not supported)");
    if (all_lines(spaces) || depth == order_.size()) return settle(spaces);
    const int r = order_[depth];
    for (int t = 0; t < target_.rank(); ++t) {
      if (!compatible(depth, t)) continue;
      Spaces next = restrict_all(spaces, src_[static_cast<size_t>(r)], tgt_[static_cast<size_t>(t)]);
      if (any_empty(next)) continue;
      used_[static_cast<size_t>(t)] = true;
      assigned_.push_back(t);
      descend(depth + 1, next);
      assigned_.pop_back();
      used_[static_cast<size_t>(t)] = false;
    }
  }

  // What the sandwich of a line of solutions modulo p does to the source terms: nullopt when some
  // term lands outside the target (projectively), else the target term of each source term, or an
  // empty vector when modulo p cannot tell (a singular matrix, a vanishing factor, a shared class).
  std::optional<std::vector<int>> image_modp(const Spaces& spaces) const {
    const auto d = slot_sizes(source_.format);
    std::array<modp::Matrix, 3> m, inv;
    for (size_t k = 0; k < 3; ++k) {
      m[k] = modp::Matrix(d[k], d[k]);
      m[k].a.assign(spaces[k].a.begin(), spaces[k].a.end());  // d² × 1, row-major vec(M)
      auto i = modp::inverse(m[k]);
      if (!i) return std::vector<int>{};
      inv[k] = *i;
    }
    std::vector<int> image;
    for (const TermSpaces& t : src_) {
      std::array<modp::Matrix, 3> img;
      for (size_t k = 0; k < 3; ++k) img[k] = modp::product(modp::product(m[k], t.f[k].matrix_p), inv[(k + 1) % 3]);
      std::vector<modp::Fp> key = projective_key(img);
      if (key.empty()) return std::vector<int>{};
      auto it = target_keys_p_.find(key);
      if (it == target_keys_p_.end()) return std::nullopt;
      if (it->second < 0) return std::vector<int>{};
      image.push_back(it->second);
    }
    return image;
  }

  void settle(const Spaces& spaces) {
    std::vector<int> image;
    if (all_lines(spaces)) {
      auto mod = image_modp(spaces);
      if (!mod) return;
      image = std::move(*mod);
    }
    std::optional<Found> f = exact_sandwich(spaces, image);
    if (!f) return;
    found_.push_back(std::move(*f));
    if (static_cast<int>(found_.size()) > max_found_) throw Enough{};
  }

  // P, Q, S solved exactly from the matched terms (fast where each is a line modulo p), then every
  // term's image checked exactly.
  std::optional<Found> exact_sandwich(const Spaces& spaces, const std::vector<int>& image) const {
    Matching matched;
    for (size_t i = 0; i < assigned_.size(); ++i) matched.push_back({order_[i], assigned_[i]});
    Found out;
    for (int k = 0; k < 3; ++k) {
      const modp::Matrix& line = spaces[static_cast<size_t>(k)];
      std::optional<CoeffMatrix> m = exact_slot(src_, tgt_, matched, k, line.cols == 1 ? &line : nullptr);
      if (!m) return std::nullopt;
      out.pqs[static_cast<size_t>(k)] = std::move(*m);
    }
    std::optional<std::vector<int>> images = exact_images(source_, target_, out.pqs, image);
    if (!images) return std::nullopt;
    out.image = std::move(*images);
    return out;
  }
};

}  // namespace

std::array<int, 3> self_dims(const Scheme& s, const std::vector<TermSpaces>& spaces) {
  Spaces p = full_spaces(s.format);
  for (const TermSpaces& t : spaces) p = restrict_all(p, t, t);
  if (all_lines(p)) return {1, 1, 1};
  std::array<int, 3> dims{};
  const auto d = slot_sizes(s.format);
  for (int k = 0; k < 3; ++k) {
    std::vector<std::vector<Coeff>> rows;
    for (const TermSpaces& t : spaces) {
      auto more = exact_condition_rows(t, t, k);
      rows.insert(rows.end(), more.begin(), more.end());
    }
    const int dd = d[static_cast<size_t>(k)] * d[static_cast<size_t>(k)];
    dims[static_cast<size_t>(k)] = dd - exact_rank(stack_rows(rows, dd));
  }
  return dims;
}

std::vector<Found> sandwiches_onto(const Scheme& source, const Scheme& target, PairDims& pairs, int max_found,
                                   long node_budget) {
  TDISC_REQUIRE(source.format == target.format && source.rank() == target.rank(), "same format and rank");
  return Search(source, target, pairs, max_found, node_budget).run();
}

}  // namespace tdisc::stab
