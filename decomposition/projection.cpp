// best_projection: term supports as index pairs, and the greedy choice of deleted indices.
#include "decomposition/projection.hpp"

#include <array>
#include <utility>

#include "base/error.hpp"

namespace tdisc {

namespace {

// Axes of the three matrices: U is (i,j), V is (j,k), W is stored (k,i).
constexpr std::array<std::array<int, 2>, 3> kAxes{{{0, 1}, {1, 2}, {2, 0}}};

using Pairs = std::vector<std::pair<int, int>>;

struct Supports {
  std::vector<std::array<Pairs, 3>> terms;  // per term, the non-zero (row, column) of U, V, W
};

Pairs support(const CoeffMatrix& m, int r, int cols) {
  Pairs out;
  for (Eigen::Index c = 0; c < m.cols(); ++c)
    if (!m(r, c).is_zero()) out.emplace_back(static_cast<int>(c / cols), static_cast<int>(c % cols));
  return out;
}

Supports supports_of(const Scheme& s) {
  const Format& f = s.format;
  Supports out;
  out.terms.resize(static_cast<size_t>(s.rank()));
  for (int r = 0; r < s.rank(); ++r)
    out.terms[static_cast<size_t>(r)] = {support(s.u, r, f.m), support(s.v, r, f.p), support(s.w, r, f.n)};
  return out;
}

// Terms left when the indices marked in `gone` (per axis i, j, k) are deleted.
int rank_after(const Supports& sup, const std::array<std::vector<char>, 3>& gone) {
  int left = 0;
  for (const auto& t : sup.terms) {
    bool alive = true;
    for (int x = 0; x < 3 && alive; ++x) {
      const auto [ra, ca] = kAxes[static_cast<size_t>(x)];
      bool any = false;
      for (const auto& [a, b] : t[static_cast<size_t>(x)])
        if (!gone[static_cast<size_t>(ra)][static_cast<size_t>(a)] && !gone[static_cast<size_t>(ca)][static_cast<size_t>(b)]) {
          any = true;
          break;
        }
      alive = any;
    }
    left += alive;
  }
  return left;
}

std::vector<int> kept(const std::vector<char>& gone) {
  std::vector<int> out;
  for (size_t x = 0; x < gone.size(); ++x)
    if (!gone[x]) out.push_back(static_cast<int>(x));
  return out;
}

}  // namespace

ProjectionChoice best_projection(const Scheme& s, Format to) {
  const Format& f = s.format;
  TDISC_REQUIRE(to.n >= 1 && to.m >= 1 && to.p >= 1 && to.n <= f.n && to.m <= f.m && to.p <= f.p,
                to.str() + " is not inside " + f.str());
  const Supports sup = supports_of(s);
  const std::array<int, 3> dims{f.n, f.m, f.p}, target{to.n, to.m, to.p};
  std::array<std::vector<char>, 3> gone{std::vector<char>(static_cast<size_t>(f.n), 0),
                                        std::vector<char>(static_cast<size_t>(f.m), 0),
                                        std::vector<char>(static_cast<size_t>(f.p), 0)};
  std::array<int, 3> left = dims;
  int rank = s.rank();
  while (left != target) {
    int best_axis = -1, best_index = -1, best_rank = rank + 1;
    for (int a = 0; a < 3; ++a) {
      if (left[static_cast<size_t>(a)] == target[static_cast<size_t>(a)]) continue;
      for (int x = 0; x < dims[static_cast<size_t>(a)]; ++x) {
        auto& g = gone[static_cast<size_t>(a)][static_cast<size_t>(x)];
        if (g) continue;
        g = 1;
        const int r = rank_after(sup, gone);
        g = 0;
        if (r < best_rank) best_axis = a, best_index = x, best_rank = r;
      }
    }
    gone[static_cast<size_t>(best_axis)][static_cast<size_t>(best_index)] = 1;
    --left[static_cast<size_t>(best_axis)];
    rank = best_rank;
  }
  return {kept(gone[0]), kept(gone[1]), kept(gone[2]), rank};
}

}  // namespace tdisc
