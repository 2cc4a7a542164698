// The small readers under the importers: the straight-line expression reader, the pickle machine
// (which must refuse anything but numpy arrays) and file-name hints.
#include <catch2/catch.hpp>

#include "base/error.hpp"
#include "decomposition/formats/expr.hpp"
#include "decomposition/formats/hints.hpp"
#include "decomposition/formats/pickle.hpp"

using namespace tdisc;
using namespace tdisc::fmt;

namespace {

VarRef simple(std::string_view id) {
  if (id.size() == 2 && (id[0] == 'a' || id[0] == 'b' || id[0] == 'c' || id[0] == 'm')) return {id[0], id[1] - '0'};
  throw ExprError{0, "unknown " + std::string(id)};
}

}  // namespace

TEST_CASE("expressions: products, juxtaposition, whole-term sign and scaling", "[fast][parsers]") {
  LinearProduct x = parse_linear_product("(a1+a2-2*a3)*(b1)*(c1+c2)", simple);
  CHECK(x.forms['a'] == LinearForm{{1, 1}, {2, 1}, {3, -2}});
  x = parse_linear_product("-(a1*(b1-b2)*c3)", simple);
  CHECK(x.scale == Coeff(-1));
  CHECK(x.take_scaled('c') == LinearForm{{3, -1}});
  x = parse_linear_product("(a1)*(b1)*(c1+c2)/3", simple);
  CHECK(x.take_scaled('c') == LinearForm{{1, *Coeff::parse("1/3")}, {2, *Coeff::parse("1/3")}});
  x = parse_linear_product("(1/2a1 + 1/2a2) * (2b4)", simple);  // each factor keeps its own scale
  CHECK(x.forms['a'] == LinearForm{{1, *Coeff::parse("1/2")}, {2, *Coeff::parse("1/2")}});
  CHECK(x.forms['b'] == LinearForm{{4, 2}});
  x = parse_linear_product("(a5 - a8 + a9)(b5 - b6)", simple);
  CHECK(x.has('a'));
  CHECK(x.has('b'));
  x = parse_linear_product("-m4 + 2m7 + 1/2m9", simple);
  CHECK(x.forms['m'] == LinearForm{{4, -1}, {7, 2}, {9, *Coeff::parse("1/2")}});
  CHECK_THROWS_AS(parse_linear_product("a1*b1 + a2*b2", simple), ExprError);  // two terms on a line
  CHECK_THROWS_AS(parse_linear_product("a1*a2", simple), ExprError);          // not trilinear
  CHECK_THROWS_AS(parse_linear_product("a1/b1", simple), ExprError);
  CHECK_THROWS_AS(parse_linear_product("(a1", simple), ExprError);
  try {
    parse_linear_product("a1 + q7", simple);
    FAIL("accepted an unknown variable");
  } catch (const ExprError& e) {
    CHECK(e.column == 5);
  }
}

TEST_CASE("the pickle reader refuses globals other than numpy's array constructors", "[fast][parsers]") {
  // protocol 2: GLOBAL 'os system', then STOP — a classic hostile pickle.
  std::string hostile = std::string("\x80\x02", 2) + "cos\nsystem\n(X\x02\x00\x00\x00lstR.";
  CHECK_THROWS_WITH(unpickle_array(hostile, "x.npz", "entry e"), Catch::Contains("os.system"));
  CHECK_THROWS_WITH(unpickle_array(std::string("\x80\x02", 2), "x.npz", "entry e"), Catch::Contains("truncated"));
  CHECK_THROWS_WITH(unpickle_array("\x80\x02\xff", "x.npz", "entry e"), Catch::Contains("unsupported pickle opcode 0xff"));
}

TEST_CASE("file names carry dimensions, rank and ring", "[fast][parsers]") {
  NameHints h = name_hints("/x/y/444-47-mod2.exp");
  CHECK(h.dims == Format{4, 4, 4});
  CHECK(h.rank == 47);
  CHECK(h.mod2);
  h = name_hints("grey333-23-152");
  CHECK(h.dims == Format{3, 3, 3});
  CHECK_FALSE(h.mod2);
  h = name_hints("gg-444-rank49-rec-0-0-0-z.txt");
  CHECK(h.dims == Format{4, 4, 4});
  CHECK(h.rank == 49);
  h = name_hints("2x4x9_m58_Q.json");
  CHECK(h.dims == Format{2, 4, 9});
  CHECK(h.rank == 58);
  CHECK(name_hints("factorizations_f2.npz").mod2);
  CHECK_FALSE(name_hints("factorizations_r.npz").mod2);
  CHECK_FALSE(name_hints("grey-strassen").dims);
}
