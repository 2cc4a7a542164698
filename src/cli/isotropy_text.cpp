#include "src/cli/isotropy_text.hpp"

namespace tdisc::cli {

std::string matrix_line(const CoeffMatrix& m) {
  if (m.size() == 0) return "I";
  std::string out = "[";
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    for (Eigen::Index c = 0; c < m.cols(); ++c) out += (c ? " " : "") + m(r, c).str();
    out += r + 1 < m.rows() ? "; " : "]";
  }
  return out;
}

std::string isotropy_line(const Isotropy& x) {
  std::string out;
  if (x.transposed) out += " transpose,";
  if (x.shift) out += " shift " + std::to_string(x.shift) + ",";
  return out + " P " + matrix_line(x.P) + ", Q " + matrix_line(x.Q) + ", S " + matrix_line(x.S);
}

}  // namespace tdisc::cli
