// The walker skeleton (walk_core.hpp): the ladder picks plus, reduce or flip in that order, and the
// books (counters, plus period, best state) behave the same for every walker built on it.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "src/search/flip/convert.hpp"
#include "src/search/flip/symmetric_walker.hpp"
#include "src/search/flip/walk_core.hpp"
#include "src/search/flip/walker.hpp"

using namespace tdisc;
using namespace tdisc::search::flip;

namespace {

// A scripted walker: its "scheme" is a rank, its moves record their names. Each flip may drop the
// rank (by the script), so the skeleton's books can be checked against the script.
class Scripted : public WalkCore<GF2, Scripted> {
public:
  static constexpr int kRankStep = 1;
  Scripted(WalkParams p, int rank) : WalkCore(Format{2, 2, 2}, p, 7), rank_(rank) { loaded(); }
  int rank() const { return rank_; }
  Terms<GF2> terms() const {
    Terms<GF2> t;
    t.sign.assign(rank_, 1);
    for (auto& k : t.f) k.assign(rank_, 1);
    return t;
  }
  bool reducible() const { return pending_ > 0; }
  void plus_transition() {
    log.push_back("plus");
    plus_started();
    ++rank_;
    plussed();
  }
  void reduce() {
    log.push_back("reduce");
    --pending_;
    --rank_;
    dropped(1);
  }
  bool flip() {
    log.push_back("flip");
    if (candidates_ == 0) {
      no_flip();
      return false;
    }
    flipped();
    return true;
  }
  void set_pending(int k) { pending_ = k; }
  void set_candidates(int k) { candidates_ = k; }
  std::vector<std::string> log;

private:
  int rank_;
  int pending_ = 0, candidates_ = 1;
};

}  // namespace

TEST_CASE("the ladder: plus when due, else reduce when reducible, else flip", "[fast]") {
  WalkParams p;
  p.plus_min = p.plus_max = 3, p.plus_diff = 1;
  Scripted w(p, 10);
  w.step(), w.step();
  CHECK(w.log == std::vector<std::string>{"flip", "flip"});
  w.set_pending(1);
  w.step();  // a reduction waits for no plus period
  CHECK(w.log.back() == "reduce");
  CHECK(w.rank() == 9);
  CHECK(w.best_rank() == 9);
  CHECK(w.best().rank() == 9);
  CHECK(w.reductions() == 1);
  CHECK(w.flips_since_best() == 0);
  for (int k = 0; k < 3; ++k) w.step();  // the period (3 flips) restarted at the drop
  CHECK(w.flips() == 5);
  CHECK(w.plussing());
  w.step();
  CHECK(w.log.back() == "plus");
  CHECK(w.rank() == 10);
  CHECK(w.best_rank() == 9);  // a plus never improves the best
  CHECK(w.plus_count() == 1);
  // Within plus_diff (1) of the best rank no further plus is allowed by the period alone.
  for (int k = 0; k < 10; ++k) w.step();
  CHECK(w.plus_count() == 1);
  CHECK(w.flips_since_best() == 13);
}

TEST_CASE("the ladder: a walk with no flip left plusses next", "[fast]") {
  WalkParams p;
  p.plus_min = p.plus_max = 1000;
  Scripted w(p, 10);
  w.set_candidates(0);
  w.step();
  CHECK(w.log.back() == "flip");
  CHECK(w.plussing());
  w.step();
  CHECK(w.log.back() == "plus");
  CHECK(!w.plussing());
}

TEST_CASE("forget_best makes the current scheme the best", "[fast]") {
  WalkParams p;
  p.plus_min = p.plus_max = 2, p.plus_diff = 4;
  Scripted w(p, 10);
  w.step(), w.step(), w.step();  // two flips, then a plus
  REQUIRE(w.rank() == 11);
  w.forget_best();
  CHECK(w.best_rank() == 11);
  CHECK(w.best().rank() == 11);
  CHECK(w.flips_since_best() == 0);
}

TEST_CASE("plain and Z3 walkers keep the same books on the same skeleton", "[fast]") {
  // Both report flips, plus transitions and rank drops through the skeleton: a walk's counters
  // add up to its rank change, rank step by rank step.
  const Format f{3, 3, 3};
  WalkParams p;
  p.plus_min = 200, p.plus_max = 400;
  Walker<GF2> plain(f, p, 3);
  plain.load(standard_terms<GF2>(f));
  SymmetricWalker<GF2> z3(f, p, 3);
  z3.load(diagonal_start<GF2>(3, {{0, 1, 2}}));
  const int plain0 = plain.rank(), z30 = z3.rank();
  for (int k = 0; k < 20000; ++k) plain.step(), z3.step();
  CHECK(plain.flips() > 10000);
  CHECK(z3.flips() > 10000);
  CHECK(plain.rank() == plain0 + plain.plus_count() - plain.reductions());
  CHECK(z3.rank() == z30 + 3 * z3.plus_count() - z3.reductions());
  CHECK(plain.best_rank() <= plain.rank());
  CHECK(plain.best().rank() == plain.best_rank());
  CHECK(z3.best().rank() == z3.best_rank());
}
