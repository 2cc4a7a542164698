// Planning before generating: can_generate's refusals with reasons, Kronecker merging that stays
// valid, shared additions (Strassen–Winograd: 15), operands normalised and de-duplicated.
#include <catch2/catch.hpp>

#include "codegen/plan.hpp"
#include "decomposition/native.hpp"
#include "tests/codegen/codegen_support.hpp"
#include "tests/support.hpp"
#include "verifier/stats.hpp"
#include "verifier/verify.hpp"

using namespace tdisc;
using namespace tdisc::codegen;

namespace {
long additions(const Stage& s) { return s.a_prog.additions() + s.b_prog.additions() + s.c_prog.additions(); }
}  // namespace

TEST_CASE("Strassen-Winograd needs 15 additions once subexpressions are shared", "[fast][codegen]") {
  const Scheme w = test::winograd();
  REQUIRE(verify(w, Ring::ZT).valid);
  REQUIRE(scheme_stats(w).additions == 24);  // the plain count
  Plan p = make_plan({w}, {});
  REQUIRE(p.stages.size() == 1);
  CHECK(p.stages[0].a_prog.additions() == 4);
  CHECK(p.stages[0].b_prog.additions() == 4);
  CHECK(p.stages[0].c_prog.additions() == 7);
  CHECK(additions(p.stages[0]) == 15);
}

TEST_CASE("Strassen keeps its 18 additions; nothing is shared that is not there", "[fast][codegen]") {
  Plan p = make_plan({test::strassen()}, {});
  CHECK(additions(p.stages[0]) == 18);
  // Two of the seven operands per side are single blocks (A11, A22; B11, B22) and need no copy.
  CHECK(p.stages[0].a_slots() == 5);
  CHECK(p.stages[0].b_slots() == 5);
}

// The Kronecker product itself is decomposition's (tests/constructions); here only the merging.
TEST_CASE("Kronecker merging of levels respects the fused-rank limit", "[fast][codegen]") {
  const Scheme s = test::strassen();
  CHECK(make_plan({s, s}, {Backend::Cuda, DType::F32, 64}).stages.size() == 1);
  CHECK(make_plan({s, s}, {Backend::Cuda, DType::F32, 48}).stages.size() == 2);
  CHECK(make_plan({s, s, s}, {Backend::Cuda, DType::F32, 64}).stages.size() == 2);
  CHECK(make_plan({s, s}, {Backend::Cuda, DType::F32, 0}).stages.size() == 2);
}

TEST_CASE("can_generate refuses with a reason", "[fast][codegen]") {
  Scheme bad = test::strassen();
  bad.u(0, 0) = 0;
  Answer a = can_generate({bad}, {});
  CHECK_FALSE(a.ok);
  CHECK(a.why_not.find("not a valid scheme") != std::string::npos);

  Scheme mod2 = test::strassen();
  mod2.ring = Ring::GF2;
  a = can_generate({mod2}, {});
  CHECK_FALSE(a.ok);
  CHECK(a.why_not.find("modulo 2") != std::string::npos);

  Scheme complex = test::strassen();
  complex.u(0, 0) = Coeff(mpq_class(0), mpq_class(1));
  complex.w(0, 0) = Coeff(mpq_class(0), mpq_class(-1));
  a = can_generate({complex}, {});
  CHECK_FALSE(a.ok);
  CHECK(a.why_not.find("complex") != std::string::npos);

  CHECK_FALSE(can_generate({}, {}).ok);
  CHECK(can_generate({test::strassen(), test::classical({2, 3, 4})}, {}).ok);
}

TEST_CASE("operands are normalised and de-duplicated", "[fast][codegen]") {
  // Classical 2x2x2: eight products, each A block used by two of them → four shared operands.
  Plan c = make_plan({test::classical({2, 2, 2})}, {});
  CHECK(c.stages[0].a_ops.size() == 4);
  CHECK(c.stages[0].a_slots() == 0);  // every operand is a block, read in place
  CHECK(c.stages[0].a_ops[c.stages[0].a_of[0]].products.size() == 2);
  CHECK(c.stages[0].c_prog.additions() == 4);
  // Strassen with U_r doubled and W_r halved for even r: the factor 2 moves to the C side, so the
  // operands, slots and additions are Strassen's, and C carries the ½·2 = 1 back.
  const Scheme h = test::halved(test::strassen());
  REQUIRE(verify(h, Ring::Q).valid);
  Plan ph = make_plan({h}, {}), ps = make_plan({test::strassen()}, {});
  CHECK(ph.stages[0].a_slots() == ps.stages[0].a_slots());
  CHECK(additions(ph.stages[0]) == additions(ps.stages[0]));
  for (const LinearForm& f : ph.stages[0].c_prog.outputs)
    for (const Term& t : f) CHECK(t.coeff.is_integer());
}

namespace {
bool same_form(const LinearForm& a, const LinearForm& b) {
  if (a.size() != b.size()) return false;
  for (size_t q = 0; q < a.size(); ++q)
    if (a[q].var != b[q].var || a[q].coeff != b[q].coeff) return false;
  return true;
}
}  // namespace

TEST_CASE("a wide stage merged from two levels forms its operands level by level, exactly", "[fast][codegen]") {
  // r48m: the rational 4x4x4:48 merged over Strassen, one 8x8:336 stage. Each operand is Strassen's
  // row (at most two terms) over the sums S(o, q) of r48's row o at Strassen's source q, so a kernel
  // keeps only the 64 sources and one r48 term's sums live (the pair-shared program spilled).
  const Scheme r48 = read_native(test::source_path("codegen/schemes/r48-4x4x4-Q.json"));
  const Plan p = make_plan({r48, test::strassen()}, {Backend::Cuda, DType::F64, 336});
  REQUIRE(p.stages.size() == 1);
  const Stage& st = p.stages[0];
  REQUIRE(wide_stage(64, st.rank));
  for (const auto& [prog, ops] : {std::pair{&st.a_prog, &st.a_ops}, std::pair{&st.b_prog, &st.b_ops}}) {
    const std::vector<LinearForm> got = expand(*prog);
    REQUIRE(got.size() == ops->size());
    for (size_t k = 0; k < ops->size(); ++k) CHECK(same_form(got[k], (*ops)[k].form));
    CHECK(prog->temps.size() <= 48 * 4);  // one sum per r48 term and Strassen source at most
    for (const LinearForm& f : prog->outputs) CHECK(f.size() <= 2);
  }
  // A narrow merged stage keeps the pair-shared program: Strassen twice, 16 sources, rank 49.
  const Plan s2 = make_plan({test::strassen(), test::strassen()}, {});
  const Stage& n = s2.stages[0];
  CHECK_FALSE(wide_stage(16, n.rank));
  for (const LinearForm& f : n.a_prog.temps) CHECK(f.size() == 2);  // shared pairs only
}
