// Hensel lifting (Kauers–Moosbauer 2022, §lifting): X ≡ X0 mod p solves the Brent equations B(X) = T
// mod p; X + p^j·D solves them mod p^(j+1) when J(X0)·D ≡ (T − B(X))/p^j (mod p). J(X0) is reduced
// once (Gauss–Jordan over GF(p), bit-packed, row operations tracked), then each step is a product.
#include "src/search/flip/lift.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

#include "base/error.hpp"
#include "src/search/flip/field.hpp"
#include "verifier/verify.hpp"

namespace tdisc::search::flip {

namespace {

using i128 = __int128;

// A dense matrix over GF(p), p ∈ {2, 3}, rows packed as +1/−1 bit planes (field.hpp's Planes).
struct PackedRows {
  int rows = 0, words = 0;
  std::vector<Planes> w;  // rows × words
  Planes* row(int r) { return &w[static_cast<size_t>(r) * words]; }
  static int get(const Planes* row, int c) {
    std::uint64_t bit = std::uint64_t(1) << (c & 63);
    const Planes& x = row[c >> 6];
    return (x.p & bit) ? 1 : (x.n & bit) ? -1 : 0;
  }
  static void set(Planes* row, int c, int v) {
    std::uint64_t bit = std::uint64_t(1) << (c & 63);
    Planes& x = row[c >> 6];
    x.p &= ~bit, x.n &= ~bit;
    if (v == 1) x.p |= bit;
    if (v == -1) x.n |= bit;
  }
};

// dst += sign·src over GF(p) (GF2: signs do not matter).
void add_row(Planes* dst, const Planes* src, int sign, int p, int from, int words) {
  for (int q = from; q < words; ++q) {
    if (p == 2) {
      dst[q].p ^= src[q].p;
    } else {
      Planes s = sign < 0 ? Planes{src[q].n, src[q].p} : src[q];
      bool ok;
      dst[q] = TernaryPolicy<true>::add(dst[q], s, ok);
    }
  }
}

// The unknowns: every coefficient of U, V, W, numbered term by term.
struct Layout {
  Format f;
  int R;
  int per_term() const { return f.a_size() + f.b_size() + f.c_size(); }
  int unknowns() const { return R * per_term(); }
  int u(int r, int a) const { return r * per_term() + a; }
  int v(int r, int b) const { return r * per_term() + f.a_size() + b; }
  int w(int r, int c) const { return r * per_term() + f.a_size() + f.b_size() + c; }
  int equations() const { return f.a_size() * f.b_size() * f.c_size(); }
};

// T[a][b][c] for a = (i,j), b = (j',k), c = (k',i'): δ(j,j')δ(k,k')δ(i,i').
int tensor_entry(const Format& f, int a, int b, int c) {
  int i = a / f.m, j = a % f.m, j2 = b / f.p, k = b % f.p, k2 = c / f.n, i2 = c % f.n;
  return (j == j2 && k == k2 && i == i2) ? 1 : 0;
}

long long mod(i128 x, long long M) {
  long long r = static_cast<long long>(x % M);
  return r < 0 ? r + M : r;
}

struct Solver {
  int p = 2, n_unknowns = 0, n_equations = 0;
  PackedRows m;                // equations × (unknowns | equations): [J | I] reduced
  std::vector<int> pivot_col;  // per row: pivot column in J, −1 for a zero row

  // Gauss–Jordan on [J | I]; afterwards row r of the right block is row r of E with E·J = RREF.
  void reduce() {
    int row = 0;
    pivot_col.assign(m.rows, -1);
    for (int c = 0; c < n_unknowns && row < m.rows; ++c) {
      int piv = -1;
      for (int r = row; r < m.rows && piv < 0; ++r)
        if (PackedRows::get(m.row(r), c) != 0) piv = r;
      if (piv < 0) continue;
      if (piv != row)
        for (int q = 0; q < m.words; ++q) std::swap(m.row(piv)[q], m.row(row)[q]);
      Planes* pr = m.row(row);
      if (PackedRows::get(pr, c) == -1)
        for (int q = 0; q < m.words; ++q) pr[q] = Planes{pr[q].n, pr[q].p};
      for (int r = 0; r < m.rows; ++r) {
        if (r == row) continue;
        int x = PackedRows::get(m.row(r), c);
        if (x != 0) add_row(m.row(r), pr, -x, p, c >> 6, m.words);
      }
      pivot_col[row++] = c;
    }
  }

  // b' = E·b: the right-hand side after the recorded row operations.
  std::vector<int> transform(const std::vector<int>& b) const {
    std::vector<Planes> bp(m.words);
    for (int e = 0; e < n_equations; ++e) PackedRows::set(bp.data(), n_unknowns + e, b[e]);
    std::vector<int> out(m.rows);
    for (int r = 0; r < m.rows; ++r) {
      const Planes* er = &m.w[static_cast<size_t>(r) * m.words];
      long s = 0;
      for (int q = n_unknowns >> 6; q < m.words; ++q) {
        // only the identity block counts: mask off unknown columns in the first shared word
        std::uint64_t keep = ~std::uint64_t(0);
        if (q == (n_unknowns >> 6)) keep = ~std::uint64_t(0) << (n_unknowns & 63);
        std::uint64_t pp = er[q].p & keep, nn = er[q].n & keep;
        s += std::popcount(pp & bp[q].p) + std::popcount(nn & bp[q].n) - std::popcount(pp & bp[q].n) -
             std::popcount(nn & bp[q].p);
      }
      out[r] = static_cast<int>(((s % p) + p) % p);
    }
    return out;
  }

  // Σ_c R[r][c]·x[c] over the unknown columns of row r (x packed like a row).
  int dot(int r, const std::vector<Planes>& x) const {
    const Planes* row = &m.w[static_cast<size_t>(r) * m.words];
    long s = 0;
    for (int q = 0; q <= (n_unknowns - 1) >> 6; ++q) {
      std::uint64_t keep = ~std::uint64_t(0);
      if (q == (n_unknowns - 1) >> 6 && (n_unknowns & 63)) keep = (std::uint64_t(1) << (n_unknowns & 63)) - 1;
      std::uint64_t pp = row[q].p & keep, nn = row[q].n & keep;
      s += std::popcount(pp & x[q].p) + std::popcount(nn & x[q].n) - std::popcount(pp & x[q].n) - std::popcount(nn & x[q].p);
    }
    return static_cast<int>(((s % p) + p) % p);
  }

  // Solves J·x ≡ b (mod p) with x[i] = fixed[i] where fixed[i] ≥ 0; the other free unknowns are 0
  // unless the constraints need them. nullopt when inconsistent.
  std::optional<std::vector<int>> solve(const std::vector<int>& b, const std::vector<int>& fixed) const {
    std::vector<int> bt = transform(b);
    std::vector<char> is_pivot(n_unknowns, 0);
    std::vector<int> pivot_row(n_unknowns, -1);
    for (int r = 0; r < m.rows; ++r) {
      if (pivot_col[r] < 0) {
        if (bt[r] != 0) return std::nullopt;
      } else {
        is_pivot[pivot_col[r]] = 1;
        pivot_row[pivot_col[r]] = r;
      }
    }
    // Free unknowns: fixed ones take their value; the open ones are solved for below.
    std::vector<int> x(n_unknowns, 0), open;
    std::vector<int> open_index(n_unknowns, -1);
    for (int c = 0; c < n_unknowns; ++c)
      if (!is_pivot[c]) {
        if (fixed[c] >= 0) x[c] = fixed[c];
        else open_index[c] = static_cast<int>(open.size()), open.push_back(c);
      }
    auto pack = [&](const std::vector<int>& vals, bool free_only) {
      std::vector<Planes> out(m.words);
      for (int c = 0; c < n_unknowns; ++c)
        if (vals[c] != 0 && (!free_only || !is_pivot[c])) PackedRows::set(out.data(), c, vals[c] == 2 ? -1 : vals[c]);
      return out;
    };
    // Fixed pivots: R[r][open]·x_open = b'_r − c − R[r][fixed free]·x_fixed, a small system.
    std::vector<int> rows;
    for (int c = 0; c < n_unknowns; ++c)
      if (is_pivot[c] && fixed[c] >= 0) rows.push_back(pivot_row[c]);
    if (!rows.empty() && !open.empty()) {
      std::vector<Planes> xf = pack(x, true);
      Solver small;
      small.p = p;
      small.n_unknowns = static_cast<int>(open.size());
      small.n_equations = static_cast<int>(rows.size());
      small.m.rows = small.n_equations;
      small.m.words = (small.n_unknowns + small.n_equations + 63) / 64;
      small.m.w.assign(static_cast<size_t>(small.m.rows) * small.m.words, Planes{});
      std::vector<int> rhs(rows.size());
      for (size_t q = 0; q < rows.size(); ++q) {
        const int r = rows[q];
        Planes* row = small.m.row(static_cast<int>(q));
        const Planes* full = &m.w[static_cast<size_t>(r) * m.words];
        for (size_t k = 0; k < open.size(); ++k) {
          int v = PackedRows::get(full, open[k]);
          if (v) PackedRows::set(row, static_cast<int>(k), v);
        }
        PackedRows::set(row, small.n_unknowns + static_cast<int>(q), 1);
        int v = ((bt[r] - fixed[pivot_col[r]] - dot(r, xf)) % p + 2 * p) % p;
        rhs[q] = v == 2 ? -1 : v;
      }
      small.reduce();
      auto y = small.solve(rhs, std::vector<int>(open.size(), -1));
      if (!y) return std::nullopt;
      for (size_t k = 0; k < open.size(); ++k) x[open[k]] = (*y)[k];
    } else if (!rows.empty()) {
      std::vector<Planes> xf = pack(x, true);
      for (int r : rows)
        if (((bt[r] - fixed[pivot_col[r]] - dot(r, xf)) % p + p) % p != 0) return std::nullopt;
    }
    // Pivot unknowns from the free ones.
    std::vector<Planes> xf = pack(x, true);
    for (int r = 0; r < m.rows; ++r)
      if (pivot_col[r] >= 0) x[pivot_col[r]] = ((bt[r] - dot(r, xf)) % p + p) % p;
    return x;
  }
};

Solver jacobian_mod_p(const Layout& L, const std::vector<long long>& x0, int p) {
  Solver s;
  s.p = p;
  s.n_unknowns = L.unknowns();
  s.n_equations = L.equations();
  s.m.rows = s.n_equations;
  s.m.words = (s.n_unknowns + s.n_equations + 63) / 64;
  s.m.w.assign(static_cast<size_t>(s.m.rows) * s.m.words, Planes{});
  const Format& f = L.f;
  auto sym = [p](long long v) { int r = static_cast<int>(((v % p) + p) % p); return r == 2 ? -1 : r; };
  int e = 0;
  for (int a = 0; a < f.a_size(); ++a)
    for (int b = 0; b < f.b_size(); ++b)
      for (int c = 0; c < f.c_size(); ++c, ++e) {
        Planes* row = s.m.row(e);
        for (int r = 0; r < L.R; ++r) {
          long long u = x0[L.u(r, a)], v = x0[L.v(r, b)], w = x0[L.w(r, c)];
          if (v * w % p) PackedRows::set(row, L.u(r, a), sym(v * w));
          if (u * w % p) PackedRows::set(row, L.v(r, b), sym(u * w));
          if (u * v % p) PackedRows::set(row, L.w(r, c), sym(u * v));
        }
        PackedRows::set(row, s.n_unknowns + e, 1);
      }
  s.reduce();
  return s;
}

// Residuals (T − B(x)) mod M, per equation.
std::vector<long long> residual(const Layout& L, const std::vector<long long>& x, long long M) {
  const Format& f = L.f;
  std::vector<long long> out;
  out.reserve(L.equations());
  for (int a = 0; a < f.a_size(); ++a)
    for (int b = 0; b < f.b_size(); ++b)
      for (int c = 0; c < f.c_size(); ++c) {
        i128 sum = 0;
        for (int r = 0; r < L.R; ++r) {
          long long u = x[L.u(r, a)];
          if (u == 0) continue;
          long long uv = mod(static_cast<i128>(u) * x[L.v(r, b)], M);
          sum += static_cast<i128>(uv) * x[L.w(r, c)] % M;
        }
        out.push_back(mod(tensor_entry(f, a, b, c) - sum, M));
      }
  return out;
}

// a/b with |a|, b ≤ sqrt(M/2) and a ≡ b·x (mod M) (Wang's rational reconstruction).
std::optional<mpq_class> reconstruct(long long x, long long M) {
  long long bound = 1;
  while (static_cast<i128>(bound + 1) * (bound + 1) * 2 <= M) ++bound;
  long long r0 = M, r1 = x, t0 = 0, t1 = 1;
  while (r1 > bound) {
    long long q = r0 / r1;
    long long r2 = r0 - q * r1, t2 = t0 - q * t1;
    r0 = r1, r1 = r2, t0 = t1, t1 = t2;
  }
  if (t1 == 0 || (t1 < 0 ? -t1 : t1) > bound) return std::nullopt;
  mpq_class q{mpz_class(static_cast<long>(r1)), mpz_class(static_cast<long>(t1))};
  q.canonicalize();
  return q;
}

std::optional<Scheme> rational_scheme(const Scheme& shape, const Layout& L, const std::vector<long long>& x, long long M) {
  Scheme s = shape;
  for (int r = 0; r < L.R; ++r) {
    for (int a = 0; a < L.f.a_size(); ++a) {
      auto q = reconstruct(x[L.u(r, a)], M);
      if (!q) return std::nullopt;
      s.u(r, a) = Coeff(*q);
    }
    for (int b = 0; b < L.f.b_size(); ++b) {
      auto q = reconstruct(x[L.v(r, b)], M);
      if (!q) return std::nullopt;
      s.v(r, b) = Coeff(*q);
    }
    for (int c = 0; c < L.f.c_size(); ++c) {
      auto q = reconstruct(x[L.w(r, c)], M);
      if (!q) return std::nullopt;
      s.w(r, c) = Coeff(*q);
    }
  }
  s.ring = coefficient_ring(s);
  return s;
}

}  // namespace

int max_hensel_steps(int p) { return p == 2 ? 39 : 24; }

double lift_bytes(const Format& f, int rank) {
  const double equations = static_cast<double>(f.a_size()) * f.b_size() * f.c_size();
  const double unknowns = static_cast<double>(rank) * (f.a_size() + f.b_size() + f.c_size());
  return equations * std::ceil((unknowns + equations) / 64) * sizeof(Planes);
}

bool lift_fits(const Format& f, int rank) { return lift_bytes(f, rank) <= kLiftBudget; }

LiftResult hensel_lift(const Scheme& modp, int p, int max_steps) {
  LiftResult out;
  if (p != 2 && p != 3) {
    out.why_not = "lifting needs p = 2 or p = 3";
    return out;
  }
  if (!lift_fits(modp.format, modp.rank())) {
    out.why_not = "the dense Hensel system of " + modp.format.str() + " at rank " + std::to_string(modp.rank()) + " needs " +
                  std::to_string(static_cast<long long>(lift_bytes(modp.format, modp.rank()) / (1 << 20))) +
                  " MiB, above the lift's budget of " + std::to_string(static_cast<long long>(kLiftBudget / (1 << 20))) + " MiB";
    return out;
  }
  Layout L{modp.format, modp.rank()};
  std::vector<long long> x(L.unknowns());
  for (int r = 0; r < L.R; ++r) {
    for (int a = 0; a < L.f.a_size(); ++a) x[L.u(r, a)] = modp.u(r, a).re().get_num().get_si();
    for (int b = 0; b < L.f.b_size(); ++b) x[L.v(r, b)] = modp.v(r, b).re().get_num().get_si();
    for (int c = 0; c < L.f.c_size(); ++c) x[L.w(r, c)] = modp.w(r, c).re().get_num().get_si();
  }
  TDISC_REQUIRE(max_steps >= 0 && max_steps <= max_hensel_steps(p),
                "max_steps " + std::to_string(max_steps) + " above " + std::to_string(max_hensel_steps(p)) + " for p = " + std::to_string(p));
  Solver solver = jacobian_mod_p(L, x, p);
  long long pj = 1;  // p^j
  for (int j = 0; j <= max_steps; ++j) {
    long long M = pj * p;  // p^(j+1)
    for (auto& v : x) v = mod(v, M);
    std::vector<long long> res = residual(L, x, M);
    bool solved = true;
    for (long long v : res) solved = solved && v == 0;
    if (j > 0 || solved) {
      if (auto s = rational_scheme(modp, L, x, M)) {
        Ring over = ring_contains(Ring::Z, s->ring) ? Ring::Z : Ring::Q;
        if (verify(*s, over).valid) {
          s->ring = coefficient_ring(*s);
          out.scheme = std::move(s);
          out.steps = j;
          return out;
        }
      }
    }
    if (j == max_steps) break;
    // x is a solution mod p^(j+1); correct it mod p^(j+2).
    long long M2 = M * p;
    for (auto& v : x) v = mod(v, M2);
    res = residual(L, x, M2);
    std::vector<int> rhs(res.size());
    for (size_t e = 0; e < res.size(); ++e) {
      if (res[e] % M != 0) {
        out.why_not = "internal: residual not divisible by p^" + std::to_string(j + 1);
        return out;
      }
      int v = static_cast<int>((res[e] / M) % p);
      rhs[e] = v == 2 ? -1 : v;
    }
    // Prefer the correction that keeps every coefficient reconstructible as a small rational
    // (the next digit is forced where only one choice reconstructs); fall back to none. Where no
    // digit reconstructs yet the coefficient stays free: the bound √(p^k/2) is still below values
    // such as 3 or 5 (Kauers–Moosbauer's lifted 3x4x4:38 holds a 5), which later steps reach.
    std::vector<int> fixed(x.size(), -1);
    for (size_t q = 0; q < x.size(); ++q) {
      int only = -1, count = 0;
      for (int dgt = 0; dgt < p; ++dgt)
        if (reconstruct(mod(x[q] + static_cast<i128>(M) * dgt, M2), M2)) only = dgt, ++count;
      if (count == 1) fixed[q] = only;
    }
    auto d = solver.solve(rhs, fixed);
    if (!d) d = solver.solve(rhs, std::vector<int>(x.size(), -1));
    if (!d) {
      out.steps = j;
      out.why_not = "the linear system mod " + std::to_string(p) + " has no solution at step " + std::to_string(j + 1) +
                    " (no lift to Z/" + std::to_string(p) + "^" + std::to_string(j + 2) + ")";
      return out;
    }
    for (size_t q = 0; q < x.size(); ++q) x[q] = mod(x[q] + static_cast<i128>(M) * ((*d)[q] + p) , M2);
    pj = M;
  }
  out.steps = max_steps;
  out.why_not = "lifted to Z/" + std::to_string(p) + "^" + std::to_string(max_steps + 1) +
                " but no rational reconstruction verified exactly";
  return out;
}

}  // namespace tdisc::search::flip
