// The emulated plans' integer maths on the host (codegen/gemm/src/ozaki_math.hpp and ozaki_schemes.hpp,
// the very functions the kernels call): residues against exact 128-bit arithmetic, Garner's
// reconstruction against exact integers, the whole pipeline (scaling, residues, products mod p with and
// without a scheme level, reconstruction) on small matrices against the exact product of the scaled
// integers, every scheme level's Brent equations mod every modulus, and the generated straight-line level
// code (ozaki_level_code.inc, what the level kernels run) against the tables mod p.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

#include "codegen/gemm/src/ozaki_levels.hpp"
#include "codegen/gemm/src/ozaki_schemes.hpp"

using namespace tdisc_gemm::ozaki;
using i128 = __int128;

namespace {

int exact_residue(i128 x, int p) {  // symmetric
  int r = (int)(((x % p) + p) % p);
  return r > (p - 1) / 2 ? r - p : r;
}

int residue_of(double x, int l) { return residue_of_limbs(limbs_of<5>((long long)x), limb_mod(kModuli[l])); }

i128 product_of_moduli(int n) {
  i128 P = 1;
  for (int l = 0; l < n; ++l) P *= kModuli[l];
  return P;
}

double to_double(i128 x) { return x < 0 ? -(double)(unsigned __int128)(-x) : (double)(unsigned __int128)x; }

// Host mirror of the device pipeline. A m×k, B k×n column-major; returns the reconstructed scaled
// integer product (before unscaling) and the scaled integer operands.
struct Pipeline {
  int m, n, k, moduli;
  std::vector<double> Ai, Bi;          // A' (m×k), B' (k×n): the scaled integers
  std::vector<int> e, f;               // row and column exponents
  std::vector<std::vector<int>> res;   // per modulus: A'·B' mod p (m×n, symmetric)
};

void scale(Pipeline& P, const std::vector<double>& A, const std::vector<double>& B) {
  const double limit = line_limit(P.moduli);
  P.e.assign(P.m, 0), P.f.assign(P.n, 0);
  P.Ai.assign(A.size(), 0), P.Bi.assign(B.size(), 0);
  for (int i = 0; i < P.m; ++i) {
    P.e[i] = line_exponent(&A[i], P.k, P.m, limit);
    for (int h = 0; h < P.k; ++h) P.Ai[i + h * P.m] = (double)scaled_integer(A[i + h * P.m], P.e[i]);
  }
  for (int j = 0; j < P.n; ++j) {
    P.f[j] = line_exponent(&B[(size_t)j * P.k], P.k, 1, limit);
    for (int h = 0; h < P.k; ++h) P.Bi[h + j * P.k] = (double)scaled_integer(B[h + j * P.k], P.f[j]);
  }
}

// C = A·B over Z/p on residue matrices (m×k, k×n, column-major), plain.
std::vector<int> product_mod(const std::vector<int>& a, const std::vector<int>& b, int m, int n, int k, int p) {
  std::vector<int> c((size_t)m * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      int32_t s = 0;  // INT32 as on the device: k·127² fits
      for (int h = 0; h < k; ++h) s += a[i + h * m] * b[h + j * k];
      c[i + j * m] = residue32(s, p);
    }
  return c;
}

// The same through one level (m, n, k divisible by b): operand sums mod p, R products, combination.
std::vector<int> product_mod_level(const Level& L, const std::vector<int>& a, const std::vector<int>& b, int m, int n,
                                   int k, int p) {
  const ModTable t = mod_table(L, p);
  const int bb = L.b, Q = L.blocks(), mb = m / bb, nb = n / bb, kb = k / bb;
  std::vector<int> c((size_t)m * n, 0);
  std::vector<std::vector<int>> M(L.rank);
  for (int r = 0; r < L.rank; ++r) {
    std::vector<int> S((size_t)mb * kb), T((size_t)kb * nb);
    for (int i = 0; i < mb; ++i)
      for (int h = 0; h < kb; ++h) {
        int s = 0;
        for (int x = 0; x < bb; ++x)
          for (int y = 0; y < bb; ++y) s += t.u[r * Q + x * bb + y] * a[(i + x * mb) + (h + y * kb) * m];
        S[i + h * mb] = residue32(s, p);
      }
    for (int h = 0; h < kb; ++h)
      for (int j = 0; j < nb; ++j) {
        int s = 0;
        for (int x = 0; x < bb; ++x)
          for (int y = 0; y < bb; ++y) s += t.v[r * Q + x * bb + y] * b[(h + x * kb) + (j + y * nb) * k];
        T[h + j * kb] = residue32(s, p);
      }
    M[r] = product_mod(S, T, mb, nb, kb, p);
  }
  for (int x = 0; x < bb; ++x)
    for (int y = 0; y < bb; ++y)
      for (int i = 0; i < mb; ++i)
        for (int j = 0; j < nb; ++j) {
          int s = 0;
          for (int r = 0; r < L.rank; ++r) s += t.w[(x * bb + y) * L.rank + r] * M[r][i + j * mb];
          c[(i + x * mb) + (j + y * nb) * m] = residue32(s, p);
        }
  return c;
}

void residues_and_products(Pipeline& P, const Level* L) {
  P.res.clear();
  for (int l = 0; l < P.moduli; ++l) {
    std::vector<int> a(P.Ai.size()), b(P.Bi.size());
    for (size_t x = 0; x < a.size(); ++x) a[x] = residue_of(P.Ai[x], l);
    for (size_t x = 0; x < b.size(); ++x) b[x] = residue_of(P.Bi[x], l);
    P.res.push_back(L ? product_mod_level(*L, a, b, P.m, P.n, P.k, kModuli[l])
                      : product_mod(a, b, P.m, P.n, P.k, kModuli[l]));
  }
}

double reconstructed(const Pipeline& P, int i, int j) {
  float r[kMaxModuli];
  for (int l = 0; l < P.moduli; ++l) r[l] = (float)P.res[l][i + j * P.m];
  return reconstruct(r, garner_table(P.moduli), P.moduli);
}

// Random doubles uniform in [-1, 1) times 2^e, e uniform in [-wide, wide].
std::vector<double> random_matrix(std::mt19937_64& g, size_t count, int wide) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::uniform_int_distribution<int> ex(-wide, wide);
  std::vector<double> x(count);
  for (double& v : x) v = std::ldexp(u(g), ex(g));
  return x;
}

}  // namespace

TEST_CASE("ozaki: the moduli are odd and pairwise coprime, the inverses are inverses", "[fast][gemm]") {
  for (int a = 0; a < kMaxModuli; ++a) {
    CHECK(kModuli[a] % 2 == 1);
    CHECK(kModuli[a] <= 255);
    for (int b = a + 1; b < kMaxModuli; ++b) {
      int x = kModuli[a], y = kModuli[b];
      while (y) x %= y, std::swap(x, y);
      CHECK(x == 1);
      CHECK((long long)inverse_mod(kModuli[a], kModuli[b]) * kModuli[a] % kModuli[b] == 1);
    }
  }
  // The moduli count for working precision: enough bits per scaled line, and no more moduli than that.
  for (int bits : {24, 53})
    for (long long k : {1LL, 16LL, 1000LL, 16384LL}) {
      const int n = moduli_for(bits, k), t = bits_for(bits, k);
      CHECK(limit_bits(n) >= t);
      CHECK(limit_bits(n - 1) < t);
    }
  // The line limit uses the whole of P: L² < P/2 (so |A'·B'| ≤ (P−1)/2), and no more than 2^−38 below
  // (in long double, 64-bit significand; P exact in 128 bits up to 15 moduli), capped at 2^62.
  for (int n = 2; n <= 15; ++n) {
    const long double L = line_limit(n), half = (long double)product_of_moduli(n) / 2;
    INFO("n = " << n << ", log2 L = " << limit_bits(n));
    CHECK(L * L < half);
    if (L < 0x1p62L) CHECK(L * L > half * (1 - 0x1p-38L));
  }
  CHECK(line_limit(17) == 0x1p62);
  CHECK(bits_for(53, 16384) == 53 + 7);
  CHECK(bits_for(53, 16385) == 53 + 8);
  CHECK(bits_for(53, 1LL << 40) == 62);
  CHECK(moduli_for(53, 16384) == 16);  // 15 moduli give 58.2 bits of the 60 asked for
  CHECK(moduli_for(24, 16384) == 8);
}

TEST_CASE("ozaki: line exponents are the largest that keep the rounded line below the limit", "[fast][gemm]") {
  std::mt19937_64 g(3);
  for (int n : {3, 7, 15, 17})
    for (int wide : {0, 30})
      for (int k : {1, 5, 64, 1000}) {
        const double limit = line_limit(n), hk = 0.5 * std::sqrt((double)k);
        if (hk >= limit / 4) continue;  // refused by unsupported()
        const std::vector<double> x = random_matrix(g, (size_t)k, wide);
        const int e = line_exponent(x.data(), k, 1, limit);
        auto rounded_norm = [&](int s) {
          long double sum = 0;
          for (double v : x) sum += (long double)scaled_integer(v, s) * (long double)scaled_integer(v, s);
          return std::sqrt(sum);
        };
        INFO("n " << n << ", wide " << wide << ", k " << k << ", e " << e);
        CHECK(rounded_norm(e) < limit);
        // one more bit would break the guarantee: the unrounded line with the margins reaches the limit
        long double exact = 0;
        for (double v : x) exact += (long double)std::ldexp(v, e + 1) * std::ldexp(v, e + 1);
        CHECK(std::sqrt(exact) * (1 + 0x1p-30L) + hk >= limit);
      }
  const std::vector<double> zero(10, 0.0);
  CHECK(line_exponent(zero.data(), 10, 1, line_limit(5)) == 0);
  CHECK(scaled_integer(2.5, 0) == 2);  // ties to even
  CHECK(scaled_integer(-0.75, 1) == -2);
  CHECK(scaled_integer(0.3, 2) == 1);
}

TEST_CASE("ozaki: residues of scaled integers match exact 128-bit arithmetic", "[fast][gemm]") {
  std::mt19937_64 g(20261126);
  for (int trial = 0; trial < 20000; ++trial) {
    // An integer-valued double below 2^62 with 53 significant bits, or a small one.
    const int bits = (int)(g() % 62) + 1;
    const long long mant = (long long)(g() >> 11) >> std::max(0, 53 - bits);
    const double x = std::ldexp((double)mant, std::max(0, bits - 53)) * ((g() & 1) ? -1 : 1);
    const i128 exact = (i128)x;
    const int l = (int)(g() % kMaxModuli);
    INFO("x = " << x << ", p = " << kModuli[l]);
    REQUIRE(residue_of(x, l) == exact_residue(exact, kModuli[l]));
  }
  // The limbs' edges: each 14-bit field at its ends (before and after the offset), and the extremes of
  // the scaled integers (|v| ≤ 2^62).
  std::vector<long long> edges{0LL, 1LL, -1LL, (1LL << 62) - 1, -(1LL << 62), (1LL << 62), -(1LL << 62) + 1};
  for (int b : {13, 14, 27, 28, 41, 42, 55, 56})
    for (long long d : {-1LL, 0LL, 1LL}) edges.push_back((1LL << b) + d), edges.push_back(-(1LL << b) + d);
  for (long long v : edges)
    for (int l = 0; l < kMaxModuli; ++l) {
      INFO("v = " << v << ", p = " << kModuli[l]);
      REQUIRE(residue_of_limbs(limbs_of<5>(v), limb_mod(kModuli[l])) == exact_residue(v, kModuli[l]));
    }
  // Two, three and four limbs for the integers they hold (limbs_for), at the edges of their range too:
  // |v| up to (limb_top − 2)·2^(14(NL−1)), where every residue sum stays below 2^22.
  CHECK(limbs_for(line_limit(7)) == 2);   // f32 at 7 moduli: one FMA per residue
  CHECK(limbs_for(line_limit(10)) == 3);
  CHECK(limbs_for(line_limit(14)) == 4);  // f64 at 14 moduli
  CHECK(limbs_for(line_limit(16)) == 5);
  auto range = [](int nl) { return (long long)(limb_top(nl) - 2) << (14 * (nl - 1)); };
  auto check_nl = [&](long long v, int l) {
    const LimbMod lm = limb_mod(kModuli[l]);
    const int want = exact_residue(v, kModuli[l]);
    INFO("v = " << v << ", p = " << kModuli[l]);
    REQUIRE(residue_of_limbs(limbs_of<2>(v % range(2)), lm) == exact_residue(v % range(2), kModuli[l]));
    REQUIRE(residue_of_limbs(limbs_of<3>(v % range(3)), lm) == exact_residue(v % range(3), kModuli[l]));
    REQUIRE(residue_of_limbs(limbs_of<4>(v % range(4)), lm) == exact_residue(v % range(4), kModuli[l]));
    REQUIRE(residue_of_limbs(limbs_of<5>(v), lm) == want);
  };
  for (int trial = 0; trial < 20000; ++trial)
    check_nl((long long)(g() % (1ULL << 63)) - (1LL << 62), (int)(g() % kMaxModuli));
  for (int nl : {2, 3, 4})
    for (long long v : {range(nl), -range(nl), range(nl) - 1, -range(nl) + 1})
      for (int l = 0; l < kMaxModuli; ++l) {
        const LimbMod lm = limb_mod(kModuli[l]);
        const int got = nl == 2 ? residue_of_limbs(limbs_of<2>(v), lm)
                        : nl == 3 ? residue_of_limbs(limbs_of<3>(v), lm) : residue_of_limbs(limbs_of<4>(v), lm);
        INFO("NL = " << nl << ", v = " << v << ", p = " << kModuli[l]);
        REQUIRE(got == exact_residue(v, kModuli[l]));
      }
  // limbs_for's bound holds: the largest residue sum of an integer at the range's end is below 2^22.
  for (int nl : {2, 3, 4}) {
    const long long v = range(nl);
    double worst = 0;
    auto sum_bound = [&](auto limbs) {
      double s = std::fabs(limbs.l[0]);
      for (int i = 1; i < (int)(sizeof limbs.l / sizeof limbs.l[0]); ++i) s += 127 * std::fabs(limbs.l[i]);
      return s;
    };
    worst = nl == 2 ? sum_bound(limbs_of<2>(v)) : nl == 3 ? sum_bound(limbs_of<3>(v)) : sum_bound(limbs_of<4>(v));
    INFO("NL = " << nl);
    CHECK(worst < kSmallBound);
  }
  for (int32_t c : {0, 1, -1, 2147483647, -2147483647 - 1, 123456789, -987654321})
    for (int l = 0; l < kMaxModuli; ++l) CHECK(residue32(c, kModuli[l]) == exact_residue(c, kModuli[l]));
}

TEST_CASE("ozaki: Garner's reconstruction recovers integers up to (P-1)/2", "[fast][gemm]") {
  std::mt19937_64 g(7);
  for (int n : {2, 5, 8, 12, 15}) {  // P < 2^126 for n ≤ 15: exact in 128 bits
    const i128 P = product_of_moduli(n), half = (P - 1) / 2;
    const GarnerTable table = garner_table(n);
    for (int trial = 0; trial < 3000; ++trial) {
      i128 v = (((i128)g() << 64) | g()) % (half + 1);
      if (trial % 3 == 0) v = (i128)(g() >> 12) % (half + 1);  // below 2^52: exact in double
      if (trial % 5 == 0) v = half - (i128)(g() % 1000);  // the top of the range
      if (g() & 1) v = -v;
      float r[kMaxModuli];
      for (int l = 0; l < n; ++l) r[l] = (float)exact_residue(v, kModuli[l]);
      const double x = reconstruct(r, table, n), want = to_double(v);
      INFO("n = " << n << ", v = " << want);
      if (std::fabs(want) < 0x1p52) REQUIRE(x == want);
      else REQUIRE(std::fabs(x - want) <= n * std::ldexp(std::fabs(want), -53));  // one rounding per Horner step
    }
  }
}

TEST_CASE("ozaki: Strassen, 4x4:49 and 4x4:48 levels satisfy the Brent equations mod every modulus", "[fast][gemm]") {
  for (const char* name : {"oz2-s1", "oz2-s2", "oz2-r48"}) {
    Level L;
    bool has = false;
    REQUIRE(level_named(name, L, has));
    REQUIRE(has);
    for (int l = 0; l < kMaxModuli; ++l) {
      INFO(name << " mod " << kModuli[l]);
      CHECK(failing_mod(L, kModuli[l]) == 0);
    }
    Level broken = L;  // one changed coefficient breaks it mod every modulus
    broken.u[0] += broken.den;
    CHECK(failing_mod(broken, kModuli[0]) > 0);
    CHECK(failing_mod(broken, kModuli[kMaxModuli - 1]) > 0);
  }
  Level none;
  bool has = true;
  CHECK(level_named("oz2", none, has));
  CHECK(!has);
  CHECK(!level_named("oz3", none, has));
}

TEST_CASE("ozaki: the host pipeline reproduces the exact product of the scaled integers, levels bit for bit",
          "[fast][gemm]") {
  std::mt19937_64 g(11);
  const int m = 8, n = 12, k = 16;  // divisible by 4: every level applies
  for (int wide : {0, 20}) {
    for (int moduli : {moduli_for(24, k), moduli_for(53, k)}) {
      const std::vector<double> A = random_matrix(g, (size_t)m * k, wide), B = random_matrix(g, (size_t)k * n, wide);
      Pipeline P{m, n, k, moduli, {}, {}, {}, {}, {}};
      scale(P, A, B);
      residues_and_products(P, nullptr);
      const std::vector<std::vector<int>> plain = P.res;
      const double limit = line_limit(moduli);
      double max_rel = 0;
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
          i128 exact = 0;  // |A'_ih·B'_hj| < 2^124, k = 16 terms: within 128 bits
          double norm_a = 0, norm_b = 0;
          for (int h = 0; h < k; ++h) {
            exact += (i128)P.Ai[i + h * m] * (i128)P.Bi[h + j * k];
            norm_a += P.Ai[i + h * m] * P.Ai[i + h * m], norm_b += P.Bi[h + j * k] * P.Bi[h + j * k];
          }
          CHECK(std::sqrt(norm_a) < limit);  // the scaling bound
          CHECK(std::sqrt(norm_b) < limit);
          const double x = reconstructed(P, i, j), want = to_double(exact);
          CHECK(std::fabs(x - want) <= moduli * std::ldexp(std::fabs(want), -53));
          // Unscaled, against the product in long double: the rounding error (at most ½ per scaled
          // element, whose line has norm ≥ limit/2 less the margins) is small against ‖a_i‖·‖b_j‖ -- a normwise bound, not
          // Σ|a||b|: small elements of a row with a wide exponent range lose their low bits.
          long double c = 0, na = 0, nb = 0;
          for (int h = 0; h < k; ++h) {
            c += (long double)A[i + h * m] * B[h + j * k];
            na += (long double)A[i + h * m] * A[i + h * m], nb += (long double)B[h + j * k] * B[h + j * k];
          }
          const long double bound = std::sqrt(na * nb);
          const double emulated = std::ldexp(x, -(P.e[i] + P.f[j]));
          max_rel = std::max(max_rel, (double)(std::fabs(emulated - c) / bound));
        }
      const int t = (int)std::floor(limit_bits(moduli));
      INFO("wide " << wide << ", moduli " << moduli << ", t " << t << ", max error / ‖a‖‖b‖ " << max_rel);
      // The rounding bound, plus the double's own rounding of the reconstruction (one per Horner step).
      CHECK(max_rel < std::ldexp(1.0, -t + 5) + moduli * 0x1p-53);
      for (const char* name : {"oz2-s1", "oz2-s2", "oz2-r48"}) {
        Level L;
        bool has = false;
        REQUIRE(level_named(name, L, has));
        residues_and_products(P, &L);
        INFO(name);
        CHECK(P.res == plain);  // a scheme over Z/p changes no residue, so no bit of the result
      }
    }
  }
}

namespace {

// The generated code of level Gen as the kernels run it (operand_residues from the blocks' scaled integers
// as limbs, block_residues from any INT32 products), against the tables of Level `name` mod p.
template <class Gen>
void compare_generated(const char* name) {
  Level L;
  bool has = false;
  REQUIRE(level_named(name, L, has));
  REQUIRE(Gen::B == L.b);
  REQUIRE(Gen::R == L.rank);
  REQUIRE(Gen::den == L.den);
  constexpr int Q = Gen::B * Gen::B, R = Gen::R;
  std::mt19937_64 g(5);
  std::uniform_int_distribution<long long> any62(-(1LL << 62), (1LL << 62));
  std::uniform_int_distribution<int32_t> any32(INT32_MIN, INT32_MAX);
  for (int l = 0; l < kMaxModuli; ++l) {
    const int p = kModuli[l];
    const LimbMod lm = limb_mod(p);
    const LevelFactors fac = level_factors<Gen>(p);
    const ModTable t = mod_table(L, p);
    for (int trial = 0; trial < 100; ++trial) {
      long long v[Q];
      Limbs<5> limbs[Q];
      int32_t m[R];
      int sa[R], sb[R], c[Q];
      for (int q = 0; q < Q; ++q) v[q] = any62(g), limbs[q] = limbs_of<5>(v[q]);
      for (int r = 0; r < R; ++r)  // products: any INT32, with the extremes now and then
        m[r] = trial % 10 == 0 ? (r % 2 ? INT32_MIN : INT32_MAX) : any32(g);
      for (int& x : sa) x = INT32_MIN;
      for (int& x : sb) x = INT32_MIN;
      for (int& x : c) x = INT32_MIN;
      operand_residues<Gen, true>(limbs, lm, [&](int r, int s) { sa[r] = s; });
      operand_residues<Gen, false>(limbs, lm, [&](int r, int s) { sb[r] = s; });
      block_residues<Gen>([&](int r) { return m[r]; }, lm.small, fac, [&](int q, float s) { c[q] = (int)s; });
      for (int r = 0; r < R; ++r) {
        long long ea = 0, eb = 0;
        for (int q = 0; q < Q; ++q)
          ea += t.u[r * Q + q] * (long long)exact_residue(v[q], p), eb += t.v[r * Q + q] * (long long)exact_residue(v[q], p);
        INFO(name << " mod " << p << ", product " << r);
        REQUIRE(sa[r] == exact_residue(ea, p));
        REQUIRE(sb[r] == exact_residue(eb, p));
      }
      for (int q = 0; q < Q; ++q) {
        long long e = 0;
        for (int r = 0; r < R; ++r) e += (long long)t.w[q * R + r] * (m[r] % p);
        INFO(name << " mod " << p << ", C block " << q);
        REQUIRE(c[q] == exact_residue(e, p));
      }
    }
  }
}

}  // namespace

TEST_CASE("ozaki: fold17, reduce_small and residue_int8 agree with % over their whole ranges", "[fast][gemm]") {
  for (int l = 0; l < kMaxModuli; ++l) {
    const int p = kModuli[l];
    REQUIRE(p >= 149);  // reduce_small's proof
    REQUIRE(p <= 255);
    const SmallMod m = small_mod(p);
    // reduce_small: every x in (−2^22, 2^22), the expected symmetric residue stepped along without %.
    // residue_int8: the same on the integer-valued floats.
    int expect = exact_residue(-(kSmallBound - 1), p);
    long bad = 0, bad_int8 = 0;
    for (int x = -(kSmallBound - 1); x < kSmallBound; ++x) {
      bad += reduce_small(x, m) != expect;
      bad_int8 += residue_int8((float)x, m) != expect;
      if (++expect > (p - 1) / 2) expect -= p;
    }
    INFO("mod " << p);
    REQUIRE(bad == 0);
    REQUIRE(bad_int8 == 0);
    // fold17: congruent and within kFoldBound, on the extremes and a dense sample of int32.
    std::mt19937_64 g(l);
    std::uniform_int_distribution<int32_t> any32(INT32_MIN, INT32_MAX);
    const int32_t extremes[] = {INT32_MIN, INT32_MAX, INT32_MIN + 131071, -1, 0, 131071, -131072};
    long out_of_range = 0, wrong = 0;
    for (int trial = 0; trial < 1000000; ++trial) {
      const int32_t x = trial < 7 ? extremes[trial] : any32(g);
      const int t = fold17(x, m);
      out_of_range += t < -16384 * 127 || t > kFoldBound;
      wrong += ((long long)x - t) % p != 0;  // |x − t| < 2^31 + 2^22: in int64
    }
    REQUIRE(out_of_range == 0);
    REQUIRE(wrong == 0);
  }
}

TEST_CASE("ozaki: the generated level code computes the tables' sums and combinations mod p", "[fast][gemm]") {
  compare_generated<Level_s1>("oz2-s1");
  compare_generated<Level_s2>("oz2-s2");
  compare_generated<Level_r48>("oz2-r48");
}
