// tdisc prove: integer relations by LLL, the seed-space Jacobian, and the whole road from a numerical
// z3xz4 4x4:48 to a scheme the verifier over Q(ζ_12)(r) accepts.
#include <catch2/catch.hpp>

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "decomposition/formats/field_scheme_file.hpp"
#include "src/search/numeric/integer_relation.hpp"
#include "src/search/numeric/prove.hpp"
#include "tests/support.hpp"
#include "verifier/field_verify.hpp"

using namespace tdisc;
using namespace tdisc::search::numeric;

namespace {

constexpr unsigned kBits = 400;

HpComplex value_of(const std::vector<mpq_class>& c, const HpEmbedding& e) {
  HpComplex x(kBits);
  for (size_t j = 0; j < c.size(); ++j) x += e.basis[j].scaled(mpf_class(c[j], kBits));
  return x;
}

Vec<cdouble> numerical_theta(const std::string& path) {
  const nlohmann::json j = nlohmann::json::parse(test::slurp(path));
  Vec<cdouble> theta(static_cast<long>(j["theta"].size()));
  for (size_t k = 0; k < j["theta"].size(); ++k) theta(static_cast<long>(k)) = {j["theta"][k][0], j["theta"][k][1]};
  return theta;
}

}  // namespace

TEST_CASE("integer relations recover an element of Q(ζ_12)(r) and refuse a random number", "[fast][prove]") {
  const NumberField k = NumberField::radical(12, 3, "1 + z^3");
  const HpEmbedding e = hp_embedding(k, kBits);
  std::vector<mpq_class> c(k.degree(), 0);
  c[0] = mpq_class(1, 2);
  c[1 * 4 + 1] = mpq_class(-3, 4);  // −3/4·z·r
  c[2 * 4 + 3] = mpq_class(5, 8);   // 5/8·z³·r²
  std::vector<HpComplex> v{value_of(c, e)};
  v.insert(v.end(), e.basis.begin(), e.basis.end());
  auto rel = integer_relation(v, kBits, mpz_class(1) << 20);
  REQUIRE(rel.has_value());
  for (int j = 0; j < k.degree(); ++j) {
    mpq_class got(-(*rel)[j + 1], (*rel)[0]);
    got.canonicalize();
    CHECK(got == c[j]);
  }
  gmp_randclass rng(gmp_randinit_default);
  rng.seed(25);
  HpComplex noise(kBits);
  noise.re = rng.get_f(kBits);
  noise.im = rng.get_f(kBits);
  v[0] = noise;
  CHECK_FALSE(integer_relation(v, kBits, mpz_class(1) << 20).has_value());
}

TEST_CASE("the seed-space Jacobian matches central differences", "[fast][prove]") {
  auto s = load_seed_space("z3xz4", Format{4, 4, 4}, 48, -1);
  std::mt19937 rng(3);
  std::normal_distribution<double> g(0, 0.3);
  Vec<cdouble> theta(s->parameters);
  for (auto& x : theta) x = {g(rng), g(rng)};
  const Mat<cdouble> j = seed_jacobian(*s, theta);
  REQUIRE(j.rows() == 4096);
  for (int col : {0, 17, 50, 100, 191}) {
    const double h = 1e-5;
    Vec<cdouble> plus = theta, minus = theta;
    plus(col) += h;
    minus(col) -= h;
    const Vec<cdouble> fd = (seed_residual(*s, plus) - seed_residual(*s, minus)) / (2 * h);
    CHECK((fd - j.col(col)).norm() < 1e-6 * (1 + fd.norm()));
  }
}

TEST_CASE("a numerical z3xz4 48 is proved over Q(ζ_12)(r), r^6 = β, found with no field given", "[slow][prove]") {
  auto s = load_seed_space("z3xz4", Format{4, 4, 4}, 48, -1);
  const Vec<cdouble> theta = numerical_theta(test::fixture("tdisc/z3xz4-48-numerical.json"));
  ProveOptions opt;
  opt.digits = 120;
  ProofOutcome out = prove_numerical(*s, theta, std::nullopt, opt);
  INFO(out.why_not);
  REQUIRE(out.scheme.has_value());
  CHECK(out.family_dimension == 9);
  CHECK(out.field->k() == 6);
  CHECK(out.field->n() == 12);
  CHECK(verify_over_field(*out.scheme).valid);  // the arbiter, again
  // Q(ζ_12) alone is too small: the cube and sixth roots are not there.
  ProofOutcome small = prove_numerical(*s, theta, NumberField::cyclotomic(12), opt);
  CHECK_FALSE(small.scheme.has_value());
  CHECK(small.why_not.find("not recognised") != std::string::npos);
}

TEST_CASE("tdisc verify proves the catalogue's number-field 48 and refuses it off by one coefficient",
          "[slow][prove]") {
  const std::string file = test::source_path("algorithms/number-fields/4x4x4-r48-z3xz4-seed1-restart422.json");
  auto ok = test::run_tdisc("verify " + file);
  CHECK(ok.code == 0);
  CHECK(ok.out.find("valid over Q(ζ_12, r) with r^6") != std::string::npos);
  std::string text = test::slurp(file);
  const size_t at = text.find("\"1/8\"");
  REQUIRE(at != std::string::npos);
  text.replace(at, 5, "\"1/4\"");
  const std::string bad = test::temp_dir("prove") + "/off-by-one.json";
  std::ofstream(bad) << text;
  auto no = test::run_tdisc("verify " + bad);
  CHECK(no.code == 2);
  CHECK(no.out.find("INVALID over Q(ζ_12, r)") != std::string::npos);
}

TEST_CASE("tdisc prove refuses bad input with the file named", "[fast][prove]") {
  const std::string dir = test::temp_dir("prove-bad");
  std::ofstream(dir + "/a.json") << R"({"ansatz": "z3xz4", "format": [4,4,4], "rank": 48, "theta": [[1, 0]]})";
  auto r = test::run_tdisc("prove " + dir + "/a.json");
  CHECK(r.code != 0);
  CHECK(r.err.find("a.json") != std::string::npos);
  CHECK(r.err.find("192 seed parameters") != std::string::npos);
  auto f = test::run_tdisc("prove " + dir + "/a.json --field 12:3:q");
  CHECK(f.code != 0);
  CHECK(f.err.find("radicand") != std::string::npos);
}
