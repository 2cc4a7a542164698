// M4 thinning (see downsample.hpp): buckets of equal x width, four samples kept per bucket.
#include "src/report/downsample.hpp"

#include <algorithm>
#include <cmath>

namespace tdisc::report {

Series downsample(const Series& s, std::size_t columns) {
  const std::size_t n = std::min(s.x.size(), s.y.size());
  if (columns == 0 || n <= 4 * columns) return s;
  Series out = s;
  out.x.clear();
  out.y.clear();
  const double x0 = s.x.front(), span = std::max(s.x.back() - x0, 1e-300);
  std::size_t i = 0;
  while (i < n) {
    std::size_t bucket = std::min(columns - 1, static_cast<std::size_t>((s.x[i] - x0) / span * static_cast<double>(columns)));
    std::size_t first = i, lo = i, hi = i, last = i;
    for (; i < n; ++i) {
      std::size_t b = std::min(columns - 1, static_cast<std::size_t>((s.x[i] - x0) / span * static_cast<double>(columns)));
      if (b != bucket) break;
      if (s.y[i] < s.y[lo]) lo = i;
      if (s.y[i] > s.y[hi]) hi = i;
      last = i;
    }
    std::size_t keep[4] = {first, lo, hi, last};
    std::sort(keep, keep + 4);
    for (int k = 0; k < 4; ++k)
      if (k == 0 || keep[k] != keep[k - 1]) {
        out.x.push_back(s.x[keep[k]]);
        out.y.push_back(s.y[keep[k]]);
      }
  }
  return out;
}

}  // namespace tdisc::report
