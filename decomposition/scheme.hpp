// A rank-R scheme for ⟨n,m,p⟩ in trace form: R terms (U_r n×m, V_r m×p, W_r p×n), so that
// C[i][k] = Σ_r W_r[k][i]·⟨U_r,A⟩·⟨V_r,B⟩ (DESIGN §1).
#pragma once
#include <Eigen/Core>
#include <map>
#include <optional>
#include <string>

#include "decomposition/coeff.hpp"
#include "decomposition/format.hpp"
#include "decomposition/ring.hpp"

namespace tdisc {

using CoeffMatrix = Eigen::Matrix<Coeff, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Where a scheme came from; stored in every file written (DESIGN §3).
struct Provenance {
  std::string tool;     // "tdisc 0.1.0 (git abc1234)"
  std::string method;   // "flip+lift", "import", "kronecker", …
  std::optional<unsigned long long> seed;
  std::string created;  // ISO 8601 UTC
  std::string parent;   // "sha256:…" of the scheme this one was derived from, if any
  std::string source;   // file, paper or repository, with licence where known
  std::map<std::string, std::string> extra;  // anything else worth keeping (string values)
};

struct Scheme {
  Format format;
  Ring ring = Ring::Q;  // the ring the scheme is declared (and, once verified, known) valid over
  CoeffMatrix u;        // R × (n·m), term-major: u(r, i·m+j) = U_r[i][j]
  CoeffMatrix v;        // R × (m·p), term-major: v(r, j·p+k) = V_r[j][k]
  CoeffMatrix w;        // R × (p·n), term-major: w(r, k·n+i) = W_r[k][i]
  Provenance provenance;

  int rank() const { return static_cast<int>(u.rows()); }
  // Empty scheme of the given shape with all coefficients zero.
  static Scheme zeros(Format f, int rank, Ring ring = Ring::Q);
  // Throws ContractError when the matrix shapes disagree with the format.
  void check_shape() const;
};

// The smallest characteristic-0 ring that holds every coefficient (ZT, Z, Q or QI).
Ring coefficient_ring(const Scheme& s);
// Whether every coefficient can be represented in ring r (modular rings: denominators prime to p,
// no imaginary parts).
bool ring_holds(Ring r, const Scheme& s);
// Drops terms whose U, V or W is zero (they contribute nothing). Returns how many were dropped.
int drop_zero_terms(Scheme& s);
// Canonical text of the coefficients with terms sorted, the input of the catalogue hash.
std::string canonical_text(const Scheme& s);
// sha256 of canonical_text, hex; hash8 is its first 8 characters (file names, catalogue keys).
std::string scheme_sha256(const Scheme& s);
std::string scheme_hash8(const Scheme& s);
// "r23-ZT-1a2b3c4d.json", the catalogue file name (DESIGN §2).
std::string catalogue_file_name(const Scheme& s);
// The current time as ISO 8601 UTC, for provenance.
std::string utc_now();

}  // namespace tdisc
