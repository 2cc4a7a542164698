// bench_ozaki_error: the error of the Ozaki-II emulation on the host, with the library's own integer
// maths (codegen/gemm/src/ozaki_math.hpp: scaling exponents, limb residues, INT32 products mod p,
// Garner), for the scaling rule of the library (rounded, one real limit) and the rule it replaced
// (truncated, integer bits), at each moduli count. The
// inputs and the measure are those of `tdisc tune --emulated`: uniform in [-1, 1), or times 2^e with e
// uniform in [-16, 16] ("wide"); relative Frobenius error of a rows × cols block against a double-double
// reference. The baseline is a plain FMA dot product in the working precision (a proxy for the
// cuBLAS error that the device measurements use, not that error itself).
// Usage: bench_ozaki_error [K] [ROWS] [SEED]   (defaults 16384 16 1); prints one JSON object.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "codegen/gemm/src/ozaki_math.hpp"

using namespace tdisc_gemm::ozaki;

namespace {

// The rule of 2026-11-26 (commit a63c0db): the bits a + b = ⌊log2 P − 1⌋, split with the odd bit to A, each
// line's norm below 2^a (2^b) with the margin 2^−30, and the scaled integers truncated.
double log2_product(int n) {
  double s = 0;
  for (int l = 0; l < n; ++l) s += std::log2((double)kModuli[l]);
  return s;
}
int truncated_exponent(const std::vector<double>& x, int n, bool is_a) {
  const int s = (int)std::floor(log2_product(n) - 1 - 1e-9);
  const int t = std::min(is_a ? (s + 1) / 2 : s / 2, 62);
  double amax = 0, sum = 0;
  for (double v : x) amax = std::fmax(amax, std::fabs(v));
  if (amax == 0) return 0;
  const int sc = -std::ilogb(amax);
  for (double v : x) sum = std::fma(std::ldexp(v, sc), std::ldexp(v, sc), sum);
  return t - (std::ilogb(std::sqrt(sum) * (1 + 0x1p-30)) + 1) + sc;
}

// The library's rule: one real limit √(P/2) for every line, the scaled integers rounded to nearest.
struct Rule {
  const char* name;
  bool rounded;
};
const Rule kRules[] = {{"truncated", false}, {"rounded", true}};

int exponent_of(const std::vector<double>& x, int n, bool is_a, const Rule& rule) {
  return rule.rounded ? line_exponent(x.data(), (long long)x.size(), 1, line_limit(n)) : truncated_exponent(x, n, is_a);
}
long long integer_of(double x, int e, const Rule& rule) {
  return rule.rounded ? scaled_integer(x, e) : (long long)std::trunc(std::ldexp(x, e));
}

// The emulated block C = A·B (rows × cols) with n moduli under the rule.
std::vector<double> emulate(const std::vector<std::vector<double>>& a, const std::vector<std::vector<double>>& b, int n,
                            const Rule& rule) {
  const size_t k = a[0].size();
  auto residues = [&](const std::vector<double>& x, int e) {
    std::vector<std::vector<int8_t>> r(n, std::vector<int8_t>(k));
    for (size_t h = 0; h < k; ++h) {
      const Limbs<5> v = limbs_of<5>(integer_of(x[h], e, rule));
      for (int l = 0; l < n; ++l) r[l][h] = (int8_t)residue_of_limbs(v, limb_mod(kModuli[l]));
    }
    return r;
  };
  std::vector<int> ea, eb;
  std::vector<std::vector<std::vector<int8_t>>> ra, rb;
  for (const auto& x : a) ea.push_back(exponent_of(x, n, true, rule)), ra.push_back(residues(x, ea.back()));
  for (const auto& x : b) eb.push_back(exponent_of(x, n, false, rule)), rb.push_back(residues(x, eb.back()));
  const GarnerTable g = garner_table(n);
  std::vector<double> c;
  for (size_t i = 0; i < a.size(); ++i)
    for (size_t j = 0; j < b.size(); ++j) {
      int r[kMaxModuli];
      for (int l = 0; l < n; ++l) {
        int32_t s = 0;
        for (size_t h = 0; h < k; ++h) s += ra[i][l][h] * rb[j][l][h];
        r[l] = residue32(s, kModuli[l]);
      }
      c.push_back(std::ldexp(reconstruct(r, g, n), -(ea[i] + eb[j])));
    }
  return c;
}

// Σ x_h·y_h in double-double (TwoProduct by FMA, TwoSum), rounded to double.
double reference_dot(const std::vector<double>& x, const std::vector<double>& y) {
  double hi = 0, lo = 0;
  for (size_t h = 0; h < x.size(); ++h) {
    const double p = x[h] * y[h], pe = std::fma(x[h], y[h], -p);
    const double s = hi + p, bb = s - hi, se = (hi - (s - bb)) + (p - bb);
    hi = s, lo += se + pe;
  }
  return hi + lo;
}

template <class T>
double plain_dot(const std::vector<double>& x, const std::vector<double>& y) {
  T s = 0;
  for (size_t h = 0; h < x.size(); ++h) s = std::fma((T)x[h], (T)y[h], s);
  return (double)s;
}

double relative_error(const std::vector<double>& c, const std::vector<double>& ref, bool to_float) {
  double num = 0, den = 0;
  for (size_t q = 0; q < c.size(); ++q) {
    const double v = to_float ? (double)(float)c[q] : c[q];
    num += (v - ref[q]) * (v - ref[q]), den += ref[q] * ref[q];
  }
  return std::sqrt(num / den);
}

}  // namespace

int main(int argc, char** argv) {
  const size_t k = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 16384;
  const size_t rows = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 16;
  const unsigned seed = argc > 3 ? (unsigned)std::strtoul(argv[3], nullptr, 10) : 1;
  std::printf("{\"k\": %zu, \"rows\": %zu, \"seed\": %u, \"runs\": [", k, rows, seed);
  bool first = true;
  for (const char* dtype : {"f64", "f32"}) {
    const bool f32 = std::string(dtype) == "f32";
    for (int wide : {0, 16}) {
      std::mt19937_64 gen(seed);
      std::uniform_real_distribution<double> u(-1, 1);
      std::uniform_int_distribution<int> ex(-wide, wide);
      auto line = [&] {
        std::vector<double> x(k);
        for (double& v : x) v = std::ldexp(u(gen), ex(gen)), v = f32 ? (double)(float)v : v;
        return x;
      };
      std::vector<std::vector<double>> a(rows), b(rows);
      for (auto& x : a) x = line();
      for (auto& x : b) x = line();
      std::vector<double> ref, plain;
      for (size_t i = 0; i < rows; ++i)
        for (size_t j = 0; j < rows; ++j)
          ref.push_back(reference_dot(a[i], b[j])),
              plain.push_back(f32 ? plain_dot<float>(a[i], b[j]) : plain_dot<double>(a[i], b[j]));
      const double base = relative_error(plain, ref, false);
      const int lo = f32 ? 5 : 12, hi = f32 ? 9 : 16;
      for (int n = lo; n <= hi; ++n)
        for (const Rule& rule : kRules) {
          const double err = relative_error(emulate(a, b, n, rule), ref, f32);
          std::printf("%s\n {\"dtype\": \"%s\", \"inputs\": \"%s\", \"moduli\": %d, \"rule\": \"%s\", "
                      "\"limit_bits\": %.3f, \"error\": %.3e, \"plain_error\": %.3e, \"ratio\": %.4g}",
                      first ? "" : ",", dtype, wide ? "wide" : "uniform", n, rule.name, limit_bits(n), err, base,
                      err / base);
          first = false;
          std::fflush(stdout);
        }
    }
  }
  std::printf("]}\n");
}
