// The Z3-symmetric flip walk (Moosbauer–Poole 2025): diagonal starts are valid, walks stay valid and
// invariant under (u,v,w) → (v,w,u), moves change the rank by 3, searches reach 2x2:7 and 3x3:23.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "decomposition/native.hpp"
#include "src/search/flip/convert.hpp"
#include "src/search/flip/symmetric_walker.hpp"
#include "tests/flip/require_valid.hpp"
#include "tests/support.hpp"
#include "verifier/verify.hpp"

using namespace tdisc;
using namespace tdisc::search::flip;
using tdisc::test::run_tdisc;
using tdisc::test::slurp;
using tdisc::test::temp_dir;

namespace {

// Independent of split_orbits: the multiset of terms (sign, u, v, w) equals that of (sign, v, w, u).
template <class F>
bool rotation_invariant(const Terms<F>& t) {
  std::map<std::string, int> count;
  auto key = [&](int r, int rot) {
    std::string k = std::to_string(t.sign[r]);
    for (int s = 0; s < 3; ++s)
      for (int e = 0; e < 64; ++e) k += static_cast<char>('1' + F::entry(t.f[(s + rot) % 3][r], e));
    return k;
  };
  for (int r = 0; r < t.rank(); ++r) ++count[key(r, 0)], --count[key(r, 1)];
  for (auto& [k, c] : count)
    if (c != 0) return false;
  return true;
}

template <class F>
void symmetric_walk(int n, const Diagonal& d, long moves, std::uint64_t seed) {
  const Format f{n, n, n};
  WalkParams p;
  p.plus_min = 300, p.plus_max = 2000;
  SymmetricWalker<F> w(f, p, seed);
  Terms<F> start = diagonal_start<F>(n, d);
  require_valid<F>(f, start, 0);
  w.load(start);
  const int fixed = static_cast<int>(w.orbit_terms().fixed.size());
  for (long k = 1; k <= moves; ++k) {
    w.step();
    if (k % 1000 == 0) {
      Terms<F> t = w.terms();
      require_valid<F>(f, t, k);
      INFO(F::name << " " << f.str() << " after " << k << " moves");
      REQUIRE(rotation_invariant<F>(t));
      REQUIRE(t.rank() == w.rank());
      if (std::is_same_v<F, ZT>) REQUIRE(static_cast<int>(w.orbit_terms().fixed.size()) == fixed);  // fixed terms stay
    }
  }
  require_valid<F>(f, w.best(), moves);
  CHECK(rotation_invariant<F>(w.best()));
  CHECK(w.flips() > moves / 2);
  CHECK(w.plus_count() > 0);
  CHECK(w.reductions() > 0);
}

}  // namespace

TEST_CASE("diagonal starting points are valid Z3-invariant schemes of the predicted rank", "[fast]") {
  for (int n = 1; n <= 5; ++n)
    for (int k = 1; k <= n; ++k) {
      auto d = *auto_diagonal(n, k);  // k parts for a target ≡ k (mod 3)
      int sum = 0;
      for (auto& part : d) sum += static_cast<int>(part.size() * part.size() * part.size() - part.size()) / 3;
      const int rank = static_cast<int>(d.size()) + (n * n * n - n) + 3 * sum;
      Terms<ZT> t = diagonal_start<ZT>(n, d);
      INFO(n << "x" << n << " diagonal " << diagonal_text(d));
      CHECK(t.rank() == rank);
      require_valid<ZT>({n, n, n}, t, 0);
      require_valid<GF2>({n, n, n}, diagonal_start<GF2>(n, d), 0);
      auto o = split_orbits<ZT>(t);
      REQUIRE(o);
      CHECK(o->fixed.size() == d.size());
      CHECK(o->rank() == rank);
      CHECK(rotation_invariant<ZT>(expand_orbits<ZT>(*o)));
    }
  CHECK(diagonal_text(*auto_diagonal(5, 93)) == "0,1|2,3|4");
  CHECK(diagonal_text(*auto_diagonal(3, 23)) == "0,1|2");
  CHECK(diagonal_text(*auto_diagonal(2, 7)) == "0,1");
  CHECK(!auto_diagonal(2, 6));
  CHECK(diagonal_text(parse_diagonal("0|1,2", 3, 23)) == "0|1,2");
  CHECK_THROWS_AS(parse_diagonal("0,1", 3, 23), UsageError);    // misses 2
  CHECK_THROWS_AS(parse_diagonal("0,1|1,2", 3, 23), UsageError);  // 1 twice
  CHECK_THROWS_AS(parse_diagonal("0,3|1,2", 3, 23), UsageError);  // 3 out of range
}

TEST_CASE("Strassen's algorithm is one fixed term and two orbits; the standard one n fixed terms", "[fast]") {
  auto o = split_orbits<ZT>(terms_from_scheme<ZT>(tdisc::test::strassen()));
  REQUIRE(o);
  CHECK(o->fixed.size() == 1);
  CHECK(o->orbits() == 2);
  auto s = split_orbits<GF2>(standard_terms<GF2>({4, 4, 4}));
  REQUIRE(s);
  CHECK(s->fixed.size() == 4);
  CHECK(s->orbits() == 20);
  // a scheme that is not invariant has no orbit split
  Terms<ZT> t = standard_terms<ZT>({2, 2, 2});
  std::swap(t.f[0][1], t.f[0][2]);
  std::string why;
  CHECK(!split_orbits<ZT>(t, &why));
  CHECK(!why.empty());
}

TEST_CASE("a long symmetric walk stays valid and Z3-invariant", "[fast]") {
  symmetric_walk<ZT>(3, {{0, 1}, {2}}, 30000, 1);
  symmetric_walk<GF2>(3, {{0, 1}, {2}}, 30000, 2);
  symmetric_walk<GF3>(3, {{0}, {1}, {2}}, 30000, 3);
  symmetric_walk<GF2>(4, {{0, 1, 2, 3}}, 20000, 4);
  symmetric_walk<ZT>(4, {{0}, {1}, {2}, {3}}, 20000, 5);
  symmetric_walk<ZT>(5, {{0, 1}, {2, 3}, {4}}, 10000, 6);
  // factors of 2 and 4 words
  symmetric_walk<ZTW<2>>(5, {{0, 1}, {2, 3}, {4}}, 10000, 7);
  symmetric_walk<GF2W<4>>(4, {{0, 1, 2, 3}}, 10000, 8);
  symmetric_walk<GF3W<2>>(3, {{0}, {1}, {2}}, 10000, 9);
}

// The factor pick draws a shared factor uniformly through each position's holder count; the counts
// are kept incrementally by every move, so they must equal a recount over all positions.
template <class F>
void factor_pick_walk(int n, const Diagonal& d, long moves, std::uint64_t seed) {
  const Format f{n, n, n};
  WalkParams p;
  p.plus_min = 300, p.plus_max = 2000, p.pick = Pick::Factor;
  SymmetricWalker<F> w(f, p, seed);
  w.load(diagonal_start<F>(n, d));
  for (long k = 1; k <= moves; ++k) {
    w.step();
    if (k % 500 != 0) continue;
    const auto& x = w.orbit_terms().x;
    const int positions = 3 * w.orbit_terms().orbits();
    for (int a = 0; a < positions; ++a) {
      int same = 0;
      for (int b = 0; b < positions; ++b) same += x[b] == x[a];
      INFO(F::name << " " << f.str() << " after " << k << " moves, position " << a);
      REQUIRE(w.holders(a) == same);
    }
    require_valid<F>(f, w.terms(), k);
  }
  CHECK(w.reductions() > 0);
}

TEST_CASE("the factor pick keeps every position's holder count exact through a walk", "[fast]") {
  factor_pick_walk<GF2>(5, {{0, 4}, {1, 3}, {2}}, 10000, 21);
  factor_pick_walk<ZT>(4, {{0}, {1}, {2}, {3}}, 10000, 22);
}

TEST_CASE("a very long symmetric walk stays valid and Z3-invariant", "[slow]") {
  symmetric_walk<ZT>(4, {{0, 1, 2, 3}}, 1000000, 11);
  symmetric_walk<GF2>(5, {{0, 1}, {2, 3}, {4}}, 500000, 12);
  symmetric_walk<GF3>(4, {{0, 1}, {2, 3}}, 500000, 13);
}

TEST_CASE("symmetric plus transitions add one orbit, reductions remove one", "[fast]") {
  const Format f{3, 3, 3};
  WalkParams p;
  p.plus_min = 200, p.plus_max = 400;
  SymmetricWalker<ZT> w(f, p, 99);
  w.load(diagonal_start<ZT>(3, {{0, 1}, {2}}));
  int plus_seen = 0, reduce_seen = 0;
  for (int k = 0; k < 50000; ++k) {
    const int before = w.rank();
    if (w.plussing()) {
      w.plus_transition();
      REQUIRE((w.rank() == before + 3 || w.rank() == before));  // unchanged only when no pair admits one
      plus_seen += w.rank() == before + 3;
      require_valid<ZT>(f, w.terms(), k);
    } else if (w.reducible()) {
      w.reduce();
      REQUIRE((w.rank() == before || w.rank() == before - 3 || w.rank() == before - 6));  // − 6: the orbits cancel
      reduce_seen += w.rank() == before - 3;
      require_valid<ZT>(f, w.terms(), k);
    } else {
      w.flip();
      REQUIRE((w.rank() == before || w.rank() == before - 3 || w.rank() == before - 6));
    }
    REQUIRE((w.rank() - 2) % 3 == 0);  // two fixed terms, the rest whole orbits
  }
  CHECK(plus_seen > 10);
  CHECK(reduce_seen > 0);
}

TEST_CASE("a symmetric reduction merges two orbits whose rotations share two factors", "[fast]") {
  // Strassen with one orbit split in two: (a,b,c) = (a,b,c−c') + (a,b,c'), rotated as wholes.
  OrbitTerms<ZT> o = *split_orbits<ZT>(terms_from_scheme<ZT>(tdisc::test::strassen()));
  Planes c = o.x[2], other;
  for (int e = 0; e < 4 && ZT::is_zero(other); ++e)
    if (ZT::entry(c, e) == 0) ZT::set_entry(other, e, 1);  // c' = a unit vector outside c's support
  REQUIRE(!ZT::is_zero(other));
  bool ok;
  Planes diff = ZT::add(c, ZT::neg(other), ok);
  REQUIRE(ok);
  REQUIRE(!ZT::is_zero(diff));
  const int s = ZT::normalize(diff);
  o.x.push_back(o.x[0]), o.x.push_back(o.x[1]), o.x.push_back(other);
  o.sign.push_back(o.sign[0]);
  o.x[2] = diff;
  o.sign[0] = static_cast<std::int8_t>(o.sign[0] * s);
  const Format f{2, 2, 2};
  require_valid<ZT>(f, expand_orbits<ZT>(o), 0);
  SymmetricWalker<ZT> w(f, WalkParams{}, 1);
  w.load(o);
  REQUIRE(w.rank() == 10);
  REQUIRE(w.reducible());
  w.reduce();
  CHECK(w.rank() == 7);
  require_valid<ZT>(f, w.terms(), 1);
}

TEST_CASE("a degenerate orbit (a,a,a) survives expansion over ZT", "[fast]") {
  OrbitTerms<ZT> o;
  Planes a;
  ZT::set_entry(a, 0, 1), ZT::set_entry(a, 3, -1);
  o.x = {a, a, a};
  o.sign = {-1};
  auto back = split_orbits<ZT>(expand_orbits<ZT>(o));
  REQUIRE(back);
  CHECK(back->orbits() == 1);
  CHECK(back->fixed.empty());
}

TEST_CASE("a degenerate GF2 orbit (a,a,a) becomes one fixed term", "[fast]") {
  OrbitTerms<GF2> o;
  const std::uint64_t a = 0b1001;  // e_00 + e_11 of 2x2
  o.x = {a, a, a};
  o.sign = {1};
  SymmetricWalker<GF2> w({2, 2, 2}, WalkParams{}, 1);
  w.load(o);
  CHECK(w.rank() == 1);
  CHECK(w.orbit_terms().fixed.size() == 1);
}

TEST_CASE("search --symmetry z3 reaches 2x2:7 and 3x3:23 with verified, symmetric results", "[fast]") {
  struct Case {
    const char* args;
    const char* file;
    Ring ring;
  } cases[] = {{"--size 2x2 --rank 7 --ring ZT", "best-r7.json", Ring::ZT},
               {"--size 2x2 --rank 7 --ring GF2", "best-r7.json", Ring::GF2},
               {"--size 3x3 --rank 23 --ring ZT", "best-r23.json", Ring::ZT},
               {"--size 3x3 --rank 23 --ring GF2", "best-r23.json", Ring::GF2},
               {"--size 3x3 --rank 23 --ring Z --params '{\"walk_ring\":\"GF2\"}'", "best-r23.json", Ring::Z}};
  for (const auto& c : cases) {
    std::string dir = temp_dir("z3search") + "/run";
    auto r = run_tdisc(std::string("search ") + c.args + " --symmetry z3 --threads 2 --seed 7 --time 60s -q --out " + dir);
    INFO(c.args << "\n" << r.out << r.err);
    REQUIRE(r.code == 0);
    Scheme s = read_native(dir + "/" + c.file);
    CHECK(verify(s, c.ring).valid);
    if (c.ring == Ring::Z) continue;  // a lifted scheme need not keep the symmetry
    CHECK(s.provenance.extra.at("symmetry") == "z3");
    if (c.ring == Ring::GF2) CHECK(rotation_invariant<GF2>(terms_from_scheme<GF2>(s)));
    else CHECK(rotation_invariant<ZT>(terms_from_scheme<ZT>(s)));
  }
}

TEST_CASE("search --symmetry z3 reaches 4x4:49 over ZT and the result verifies", "[fast]") {
  // Without symmetry 0 of 5 seeds reach 4x4:49 over ZT within 30 s here; with it 10 of 10 (docs/PERFORMANCE.md).
  std::string dir = temp_dir("z3search44") + "/run";
  auto r = run_tdisc("search --size 4x4 --rank 49 --ring ZT --symmetry z3 --threads 2 --seed 2 --time 60s -q --out " + dir);
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  Scheme s = read_native(dir + "/best-r49.json");
  CHECK(verify(s, Ring::Z).valid);
  CHECK(rotation_invariant<ZT>(terms_from_scheme<ZT>(s)));
}

TEST_CASE("--symmetry z3 is refused with a clear message where it cannot work", "[fast]") {
  struct Case {
    const char* args;
    const char* says;
  } cases[] = {{"--size 2x3x4 --rank 20 --symmetry z3", "needs a square format"},
               {"--size 3x3 --rank 23 --symmetry z4", "unknown symmetry"},
               {"--size 2x2 --rank 6 --ring ZT --symmetry z3", "reaches only ranks"},
               {"--size 3x3 --rank 23 --symmetry z3 --params '{\"diagonal\":\"0|1|2\"}'", "reaches only ranks"},
               {"--size 3x3 --rank 23 --symmetry z3 --params '{\"diagonal\":\"0|1\"}'", "misses index 2"},
               {"--size 2x3x4 --rank 20 --params '{\"symmetry\":\"z3\"}'", "needs a square format"},
               {"--size 3x3 --rank 23 --engine numeric --symmetry z3", "only the flip engine"}};
  for (const auto& c : cases) {
    auto r = run_tdisc(std::string("search ") + c.args + " --time 1s --out " + temp_dir("z3bad") + "/run");
    INFO(c.args << "\n" << r.out << r.err);
    CHECK(r.code == 1);
    CHECK(r.err.find(c.says) != std::string::npos);
  }
  // --from: a valid scheme that is not invariant (the term e00⊗e00⊗e00 split along its W factor)
  std::string dir = temp_dir("z3from");
  Scheme c = tdisc::test::classical({2, 2, 2});
  Scheme split = Scheme::zeros(c.format, 9, Ring::ZT);
  for (int r = 0; r < 8; ++r) split.u.row(r) = c.u.row(r), split.v.row(r) = c.v.row(r), split.w.row(r) = c.w.row(r);
  int t0 = -1;
  for (int r = 0; r < 8 && t0 < 0; ++r)
    if (!c.u(r, 0).is_zero() && !c.v(r, 0).is_zero() && !c.w(r, 0).is_zero()) t0 = r;
  REQUIRE(t0 >= 0);
  split.u.row(8) = c.u.row(t0), split.v.row(8) = c.v.row(t0);
  split.w(t0, 1) = 1;   // e00⊗e00⊗(e00 + e01) + e00⊗e00⊗(−e01)
  split.w(8, 1) = -1;
  REQUIRE(verify(split, Ring::ZT).valid);
  split.provenance.source = "split";
  write_native(dir + "/split.json", split);
  auto bad = run_tdisc("search --size 2x2 --rank 7 --symmetry z3 --from " + dir + "/split.json --time 1s --out " + dir + "/bad");
  INFO(bad.out << bad.err);
  CHECK(bad.code == 1);
  CHECK(bad.err.find("is not Z3-symmetric") != std::string::npos);
  write_native(dir + "/strassen.json", tdisc::test::strassen());
  auto ok = run_tdisc("search --size 2x2 --rank 7 --symmetry z3 --from " + dir + "/strassen.json --seed 1 --time 30s -q --out " + dir + "/run");
  INFO(ok.out << ok.err);
  CHECK(ok.code == 0);
}

TEST_CASE("a symmetric run checkpoints and resumes from its orbits", "[fast]") {
  std::string dir = temp_dir("z3resume") + "/run";
  auto first = run_tdisc("search --size 4x4 --rank 40 --ring GF2 --symmetry z3 --params '{\"diagonal\":\"0|1|2|3\"}' --threads 2 --seed 3 --time 2s --checkpoint-every 1s -q --out " + dir);
  INFO(first.out << first.err);
  REQUIRE(first.code == 3);
  auto before = nlohmann::json::parse(slurp(dir + "/checkpoint.json"));
  REQUIRE(before["state"]["lanes"][0]["state"]["walkers"].size() == 2);  // the walkers sit in the lane's state
  for (auto& w : before["state"]["lanes"][0]["state"]["walkers"]) {
    Terms<GF2> t = terms_from_json<GF2>({4, 4, 4}, w["terms"]);
    CHECK(rotation_invariant<GF2>(t));
  }
  auto again = run_tdisc("search --resume " + dir + " --time 2s --checkpoint-every 1s -q");
  INFO(again.out << again.err);
  CHECK(again.code == 3);
  auto after = nlohmann::json::parse(slurp(dir + "/checkpoint.json"));
  CHECK(after["counters"].value("flips", 0.0) > before["counters"].value("flips", 0.0));
  REQUIRE(after["state"]["lanes"][0]["state"]["walkers"].size() == 2);
  for (auto& w : after["state"]["lanes"][0]["state"]["walkers"]) CHECK(rotation_invariant<GF2>(terms_from_json<GF2>({4, 4, 4}, w["terms"])));
  Scheme best = read_native(after.value("best_file", std::string()));
  CHECK(verify(best, Ring::GF2).valid);
}
