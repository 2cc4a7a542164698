// The 6-fold symmetric flip walk (--symmetry s3, Moosbauer–Poole 2025's SYMMETRY 6): the cyclic shift
// together with the index reversal J. Starts and walks stay valid and invariant under both; searches
// reach 2x2:7 and 4x4:49; requests that cannot work are refused with a reason.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

#include "base/error.hpp"
#include "decomposition/native.hpp"
#include "src/search/flip/convert.hpp"
#include "src/search/flip/reversal.hpp"
#include "src/search/flip/symmetric_walker.hpp"
#include "tests/flip/require_valid.hpp"
#include "tests/support.hpp"
#include "verifier/verify.hpp"

using namespace tdisc;
using namespace tdisc::search::flip;
using tdisc::test::run_tdisc;
using tdisc::test::temp_dir;

namespace {

using Factor = std::vector<int>;  // n² entries, row-major

// A term as text, each factor scaled so that its first non-zero entry is +1 (the signs collected).
std::string term_key(std::array<Factor, 3> f, int sign) {
  std::string k;
  for (auto& x : f) {
    auto first = std::find_if(x.begin(), x.end(), [](int e) { return e != 0; });
    if (first != x.end() && *first < 0) {
      for (int& y : x) y = -y;
      sign = -sign;
    }
    for (int e : x) k += static_cast<char>('1' + e);
    k += '|';
  }
  return k + std::to_string(sign);
}

// Independent of split_orbits and pair_reversed: the multiset of terms equals that of their images
// under the cyclic shift (u,v,w) → (v,w,u) and under the reversal of every factor's entries.
template <class F>
bool six_fold_invariant(const Terms<F>& t, int n) {
  std::map<std::string, int> shifted, reversed_;
  for (int r = 0; r < t.rank(); ++r) {
    std::array<Factor, 3> f, rot, rev;
    for (int k = 0; k < 3; ++k)
      for (int e = 0; e < n * n; ++e) f[k].push_back(F::entry(t.f[k][r], e));
    for (int k = 0; k < 3; ++k) rot[k] = f[(k + 1) % 3], rev[k] = Factor(f[k].rbegin(), f[k].rend());
    const std::string own = term_key(f, t.sign[r]);
    ++shifted[own], --shifted[term_key(rot, t.sign[r])];
    ++reversed_[own], --reversed_[term_key(rev, t.sign[r])];
  }
  for (const auto* m : {&shifted, &reversed_})
    for (const auto& [k, c] : *m)
      if (c != 0) return false;
  return true;
}

template <class F>
void s3_walk(int n, const Diagonal& d, long moves, std::uint64_t seed) {
  const Format f{n, n, n};
  WalkParams p;
  p.plus_min = 300, p.plus_max = 2000;
  SymmetricWalker<F, 2> w(f, p, seed);
  Terms<F> start = diagonal_start<F>(n, d);
  require_valid<F>(f, start, 0);
  REQUIRE(six_fold_invariant<F>(start, n));
  w.load(start);
  for (long k = 1; k <= moves; ++k) {
    w.step();
    if (k % 1000 == 0) {
      Terms<F> t = w.terms();
      require_valid<F>(f, t, k);
      INFO(F::name << " " << f.str() << " after " << k << " moves");
      REQUIRE(six_fold_invariant<F>(t, n));
      REQUIRE(t.rank() == w.rank());
      if (std::is_same_v<F, ZT>) REQUIRE((w.rank() - static_cast<int>(d.size())) % 6 == 0);  // whole classes of 6
    }
  }
  require_valid<F>(f, w.best(), moves);
  CHECK(six_fold_invariant<F>(w.best(), n));
  CHECK(w.flips() > moves / 2);
  CHECK(w.plus_count() > 0);
  CHECK(w.reductions() > 0);
}

}  // namespace

TEST_CASE("reversing a factor word reverses its n² entries", "[fast]") {
  for (int n = 1; n <= 8; ++n) {
    const int shift = 64 - n * n;
    for (int e = 0; e < n * n; ++e) CHECK(reverse_bits(std::uint64_t(1) << e, shift) == std::uint64_t(1) << (n * n - 1 - e));
  }
  Planes v;  // normalised (lowest entry +1), highest entry −1: J(v) normalises with sign −1
  ZT::set_entry(v, 0, 1), ZT::set_entry(v, 5, -1);
  CHECK(top_sign(v) == -1);
  Planes j = reversed(v, 64 - 9);
  CHECK(ZT::entry(j, 8) == 1);
  CHECK(ZT::entry(j, 3) == -1);
  CHECK(ZT::normalize(j) == -1);
}

TEST_CASE("reversing a factor of 2 or 4 words reverses its n² entries across the word boundaries", "[fast]") {
  for (int n = 8; n <= 16; ++n) {
    const int words = n * n <= 128 ? 2 : 4;
    INFO(n << "x" << n << ", " << words << " words");
    for (int e = 0; e < n * n; ++e) {
      if (words == 2) {
        Bits<2> b, want;
        set_bit(b, e), set_bit(want, n * n - 1 - e);
        REQUIRE(reversed(b, 128 - n * n) == want);
      } else {
        Bits<4> b, want;
        set_bit(b, e), set_bit(want, n * n - 1 - e);
        REQUIRE(reversed(b, 256 - n * n) == want);
      }
    }
  }
  using Z4 = ZTW<4>;
  Z4::Vec v;  // lowest entry +1 in word 0, highest entry −1 in word 3: J(v) normalises with sign −1
  Z4::set_entry(v, 3, 1), Z4::set_entry(v, 200, -1);
  CHECK(top_sign(v) == -1);
  Z4::Vec j = reversed(v, 256 - 225);  // 15x15
  CHECK(Z4::entry(j, 221) == 1);
  CHECK(Z4::entry(j, 24) == -1);
  CHECK(Z4::normalize(j) == -1);
}

TEST_CASE("s3 diagonal starts are J-invariant, as the anchor's case files choose them", "[fast]") {
  CHECK(diagonal_text(*auto_reversed_diagonal(5, 93)) == "0,4|1,3|2");      // r5-93-1.txt's 10001 01010 00100
  CHECK(diagonal_text(*auto_reversed_diagonal(6, 153)) == "0,1|2,3|4,5");   // r6-153-1.txt's 110000 001100 000011
  CHECK(diagonal_text(*auto_reversed_diagonal(4, 49)) == "0,1,2,3");
  CHECK(diagonal_text(*auto_reversed_diagonal(2, 7)) == "0,1");
  CHECK(!auto_reversed_diagonal(3, 23));  // 23 ≡ 5 (mod 6): more fixed terms than 3x3 has diagonal entries
  CHECK_THROWS_WITH(parse_reversed_diagonal("0|1,2,3", 4, 50), Catch::Contains("not invariant under the reversal"));
  CHECK(diagonal_text(parse_reversed_diagonal("0,3|1,2", 4, 50)) == "0,3|1,2");
  for (int n = 1; n <= 6; ++n)
    for (int k = 1; k <= n; ++k) {
      auto d = auto_reversed_diagonal(n, k);
      REQUIRE(d);
      INFO(n << "x" << n << " diagonal " << diagonal_text(*d));
      CHECK(static_cast<int>(d->size()) == k);
      Terms<ZT> t = diagonal_start<ZT>(n, *d);
      CHECK(six_fold_invariant<ZT>(t, n));
      auto o = split_orbits<ZT>(t);
      REQUIRE(o);
      auto paired = pair_reversed<ZT>(*o, n);
      REQUIRE(paired);
      CHECK(paired->images == 2);
      CHECK(paired->orbits() % 2 == 0);
      CHECK(six_fold_invariant<ZT>(expand_orbits<ZT>(*paired), n));
    }
}

TEST_CASE("a scheme that is Z3- but not J-invariant has no s3 classes", "[fast]") {
  const Terms<ZT> z3 = diagonal_start<ZT>(3, {{0, 1}, {2}});  // (e00+e11)^⊗3: J gives (e11+e22)^⊗3
  CHECK(!six_fold_invariant<ZT>(z3, 3));                        // the test's own check sees it too
  auto o = split_orbits<ZT>(z3);
  REQUIRE(o);
  std::string why;
  CHECK(!pair_reversed<ZT>(*o, 3, &why));
  CHECK(why.find("fixed terms") != std::string::npos);
}

TEST_CASE("a long s3 walk stays valid and invariant under the shift and the reversal", "[fast]") {
  s3_walk<ZT>(4, {{0, 1, 2, 3}}, 20000, 1);
  s3_walk<GF2>(4, {{0, 1, 2, 3}}, 20000, 2);
  s3_walk<GF3>(3, {{0, 1, 2}}, 20000, 3);
  s3_walk<ZT>(5, {{0, 4}, {1, 3}, {2}}, 10000, 4);
  s3_walk<GF2>(6, {{0, 1}, {2, 3}, {4, 5}}, 10000, 5);
  // the same walks with factors of 2 and 4 words (the reversal crosses word boundaries)
  s3_walk<ZTW<2>>(5, {{0, 4}, {1, 3}, {2}}, 10000, 6);
  s3_walk<GF2W<4>>(6, {{0, 1}, {2, 3}, {4, 5}}, 10000, 7);
  s3_walk<GF3W<2>>(3, {{0, 1, 2}}, 10000, 8);
}

TEST_CASE("a very long s3 walk stays valid and invariant", "[slow]") {
  s3_walk<ZT>(4, {{0, 1, 2, 3}}, 300000, 11);
  s3_walk<GF2>(5, {{0, 4}, {1, 3}, {2}}, 200000, 12);
  s3_walk<GF3>(4, {{0, 3}, {1, 2}}, 200000, 13);
}

TEST_CASE("search --symmetry s3 reaches 2x2:7 and 4x4:49 with verified, 6-fold symmetric results", "[fast]") {
  struct Case {
    const char* args;
    int n;
    Ring ring;
  } cases[] = {{"--size 2x2 --rank 7 --ring ZT", 2, Ring::ZT},
               {"--size 4x4 --rank 49 --ring GF2", 4, Ring::GF2},
               {"--size 4x4 --rank 49 --ring ZT", 4, Ring::ZT}};
  for (const auto& c : cases) {
    std::string dir = temp_dir("s3search") + "/run";
    auto r = run_tdisc(std::string("search ") + c.args + " --symmetry s3 --threads 2 --seed 5 --time 60s -q --out " + dir);
    INFO(c.args << "\n" << r.out << r.err);
    REQUIRE(r.code == 0);
    const int rank = c.n == 2 ? 7 : 49;
    Scheme s = read_native(dir + "/best-r" + std::to_string(rank) + ".json");
    CHECK(verify(s, c.ring).valid);
    CHECK(s.provenance.extra.at("symmetry") == "s3");
    if (c.ring == Ring::GF2) CHECK(six_fold_invariant<GF2>(terms_from_scheme<GF2>(s), c.n));
    else CHECK(six_fold_invariant<ZT>(terms_from_scheme<ZT>(s), c.n));
  }
}

TEST_CASE("--symmetry s3 is refused with a clear message where it cannot work", "[fast]") {
  struct Case {
    const char* args;
    const char* says;
  } cases[] = {{"--size 2x3x4 --rank 20 --symmetry s3", "needs a square format"},
               {"--size 3x4 --rank 29 --params '{\"symmetry\":\"s3\"}'", "needs a square format"},
               {"--size 3x3 --rank 23 --symmetry s3", "reaches only ranks ≡ k (mod 6)"},
               {"--size 4x4 --rank 50 --symmetry s3 --params '{\"diagonal\":\"0|1,2,3\"}'", "not invariant under the reversal"},
               {"--size 4x4 --rank 49 --symmetry s3 --params '{\"diagonal\":\"0,3|1,2\"}'", "(mod 6)"},
               {"--size 3x3 --rank 25 --engine numeric --symmetry s3", "only the flip engine"}};
  for (const auto& c : cases) {
    auto r = run_tdisc(std::string("search ") + c.args + " --time 1s --out " + temp_dir("s3bad") + "/run");
    INFO(c.args << "\n" << r.out << r.err);
    CHECK(r.code == 1);
    CHECK(r.err.find(c.says) != std::string::npos);
  }
  // --from: Z3-invariant but not J-invariant (the z3 diagonal start 0,1|2 of 3x3)
  std::string dir = temp_dir("s3from");
  Scheme z3 = scheme_from_terms<ZT>({3, 3, 3}, diagonal_start<ZT>(3, {{0, 1}, {2}}));
  z3.provenance.source = "z3start";
  write_native(dir + "/z3.json", z3);
  auto bad = run_tdisc("search --size 3x3 --rank 23 --symmetry s3 --from " + dir + "/z3.json --time 1s --out " + dir + "/bad");
  INFO(bad.out << bad.err);
  CHECK(bad.code == 1);
  CHECK(bad.err.find("is not 6-fold-symmetric") != std::string::npos);
}

TEST_CASE("an s3 run checkpoints and resumes from its classes", "[fast]") {
  std::string dir = temp_dir("s3resume") + "/run";
  auto first = run_tdisc("search --size 4x4 --rank 37 --ring GF2 --symmetry s3 --threads 2 --seed 3 --time 2s --checkpoint-every 1s -q --out " + dir);
  INFO(first.out << first.err);
  REQUIRE(first.code == 3);
  auto again = run_tdisc("search --resume " + dir + " --time 2s --checkpoint-every 1s -q");
  INFO(again.out << again.err);
  CHECK(again.code == 3);
  auto after = nlohmann::json::parse(tdisc::test::slurp(dir + "/checkpoint.json"));
  const auto& lane = after["state"]["lanes"][0];
  CHECK(lane["symmetry"] == "s3");
  REQUIRE(lane["state"]["walkers"].size() == 2);
  for (auto& w : lane["state"]["walkers"]) CHECK(six_fold_invariant<GF2>(terms_from_json<GF2>({4, 4, 4}, w["terms"]), 4));
  Scheme best = read_native(after.value("best_file", std::string()));
  CHECK(verify(best, Ring::GF2).valid);
  CHECK(best.provenance.extra.at("symmetry") == "s3");
}
