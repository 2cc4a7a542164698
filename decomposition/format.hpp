// A matrix-multiplication format ⟨n,m,p⟩: A is n×m, B is m×p, C = AB is n×p.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace tdisc {

struct Format {
  int n = 0, m = 0, p = 0;

  int a_size() const { return n * m; }  // entries of A (and of each U_r)
  int b_size() const { return m * p; }  // entries of B (and of each V_r)
  int c_size() const { return p * n; }  // entries of C (and of each W_r, stored p×n)
  long classical_rank() const { return static_cast<long>(n) * m * p; }
  // Row-major flattening (DESIGN §1): A[i][j] → i·m+j, B[j][k] → j·p+k, W[k][i] → k·n+i.
  int a_index(int i, int j) const { return i * m + j; }
  int b_index(int j, int k) const { return j * p + k; }
  int c_index(int k, int i) const { return k * n + i; }

  std::string str() const;  // "4x4x4"
  std::string digits() const { return std::to_string(n) + std::to_string(m) + std::to_string(p); }
  friend bool operator==(const Format&, const Format&) = default;
  friend auto operator<=>(const Format&, const Format&) = default;
};

// "4x4" (square: ⟨4,4,4⟩), "2x3x4", "2,3,4", "234" (single digits). nullopt when malformed or ≤ 0.
std::optional<Format> parse_format(std::string_view s);

}  // namespace tdisc
