// Best known integer (Z) ranks, dimensions sorted. Facts as collected by the FMM catalogue
// (fmm.univ-lille.fr) and dronperminov/FastMatrixMultiplication's table of Z ranks (2025);
// 4x4x4 is 49 over Z (48 needs rationals or complex numbers: AlphaEvolve 2025, the FMM catalogue).
#include "src/search/known_ranks.hpp"

#include <algorithm>
#include <array>

namespace tdisc::search {

std::optional<int> best_integer_rank(const Format& f) {
  struct Entry { int a, b, c, rank; };
  static constexpr Entry kTable[] = {
      {1, 1, 1, 1},   {1, 1, 2, 2},   {1, 2, 2, 4},   {2, 2, 2, 7},   {2, 2, 3, 11},  {2, 2, 4, 14},
      {2, 2, 5, 18},  {2, 3, 3, 15},  {2, 3, 4, 20},  {2, 3, 5, 25},  {2, 4, 4, 26},  {2, 4, 5, 33},
      {2, 5, 5, 40},  {3, 3, 3, 23},  {3, 3, 4, 29},  {3, 3, 5, 36},  {3, 4, 4, 38},  {3, 4, 5, 47},
      {3, 5, 5, 58},  {4, 4, 4, 49},  {4, 4, 5, 61},  {4, 5, 5, 76},  {5, 5, 5, 93}};
  std::array<int, 3> d{f.n, f.m, f.p};
  std::sort(d.begin(), d.end());
  if (d[0] == 1) return d[1] * d[2];  // ⟨1,m,p⟩ is a matrix–vector product: rank m·p
  for (const Entry& e : kTable)
    if (e.a == d[0] && e.b == d[1] && e.c == d[2]) return e.rank;
  return std::nullopt;
}

}  // namespace tdisc::search
