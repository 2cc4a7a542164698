// Regression tests of the failure classes fuzzing found in the readers (docs/reliability.md): each
// input crashed (stack overflow, wild read), hung, blew up memory or threw a library exception
// before its fix; now each is refused with InputError ("FILE:LINE: what is wrong").
#include <catch2/catch.hpp>
#include <chrono>
#include <string>

#include "base/error.hpp"
#include "decomposition/formats/imported.hpp"
#include "tests/formats/helpers.hpp"
#include "tests/formats/npz_builder.hpp"

using namespace tdisc;
using Catch::Matchers::Contains;

namespace {

ImportedScheme import_bytes(const std::string& format, const std::string& name, const std::string& bytes) {
  return import_from_bytes(format, name, bytes);
}

std::string repeat(const std::string& s, size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (size_t k = 0; k < n; ++k) out += s;
  return out;
}

// A one-entry zip whose central directory states `size`, `compressed` and method as given, with the
// ZIP64 extra field `zip64` (empty for none) after the name.
std::string zip_declaring(const std::string& data, uint16_t method, uint64_t size, uint64_t compressed,
                          uint64_t offset, const std::string& zip64 = "") {
  using test::put;
  const std::string name = "2,2,2.npy";
  std::string out;
  put(out, 0x04034b50, 4), put(out, 20, 2), put(out, 0, 2), put(out, method, 2), put(out, 0, 4);
  put(out, test::crc32_of(data), 4), put(out, data.size(), 4), put(out, data.size(), 4);
  put(out, name.size(), 2), put(out, 0, 2);
  out += name + data;
  std::string central;
  put(central, 0x02014b50, 4), put(central, 20, 2), put(central, 20, 2), put(central, 0, 2), put(central, method, 2);
  put(central, 0, 4), put(central, test::crc32_of(data), 4), put(central, compressed, 4), put(central, size, 4);
  put(central, name.size(), 2), put(central, zip64.size(), 2), put(central, 0, 2), put(central, 0, 2), put(central, 0, 2);
  put(central, 0, 4), put(central, offset, 4);
  central += name + zip64;
  size_t cd_at = out.size();
  out += central;
  put(out, 0x06054b50, 4), put(out, 0, 2), put(out, 0, 2), put(out, 1, 2), put(out, 1, 2);
  put(out, central.size(), 4), put(out, cd_at, 4), put(out, 0, 2);
  return out;
}

}  // namespace

TEST_CASE("exp: deep nesting and long runs of signs are refused, not a stack overflow", "[formats][hostile]") {
  std::string nested = repeat("(", 200000) + "a11" + repeat(")", 200000) + "*b11*c11\n";
  REQUIRE_THROWS_WITH(import_bytes("exp", "x.exp", nested), Contains("nested deeper than"));
  std::string signs = repeat("-", 200000) + "a11*b11*c11\n";
  REQUIRE_THROWS_WITH(import_bytes("exp", "x.exp", signs), Contains("nested deeper than"));
}

TEST_CASE("exp: a coefficient of a million digits is refused quickly", "[formats][hostile]") {
  std::string line = "0." + std::string(1000000, '1') + "*a11*b11*c11\n";
  auto start = std::chrono::steady_clock::now();
  REQUIRE_THROWS_AS(import_bytes("exp", "x.exp", line), InputError);
  REQUIRE(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
}

TEST_CASE("maple: braces nested a hundred thousand deep are refused", "[formats][hostile]") {
  REQUIRE_THROWS_WITH(import_bytes("maple", "x.m", repeat("{", 100000)), Contains("nested deeper than"));
}

TEST_CASE("ipynb: a variable name of 200,000 characters is read without std::regex recursion", "[formats][hostile]") {
  std::string src = "decomposition_" + std::string(200000, 'x') + " = (np.array([[1]]))";
  std::string nb = R"({"cells": [{"cell_type": "code", "source": ")" + src + R"("}]})";
  REQUIRE_THROWS_WITH(import_bytes("alphaevolve-ipynb", "x.ipynb", nb), Contains("cannot read the dimensions"));
}

TEST_CASE("native and notebook JSON nested 100,000 deep is refused", "[formats][hostile]") {
  std::string deep = R"({"format": "tdisc-scheme", "version": )" + repeat("[", 100000) + repeat("]", 100000) + "}";
  REQUIRE_THROWS_WITH(import_bytes("native", "x.json", deep), Contains("nested deeper than"));
}

TEST_CASE("native, perminov-json: fields of the wrong type are InputErrors, not nlohmann type_error", "[formats][hostile]") {
  REQUIRE_THROWS_AS(import_bytes("native", "x.json", R"({"format": 5, "version": 1})"), InputError);
  REQUIRE_THROWS_AS(import_bytes("native", "x.json", R"({"format": "tdisc-scheme", "version": 1, "n": 1, "m": 1, "p": 1, "rank": 1, "ring": 7})"),
                    InputError);
  REQUIRE_THROWS_AS(import_bytes("perminov-json", "x.json", R"({"n": [1, 1, 1], "u": [["1"]], "v": [["1"]], "w": [["1"]], "z2": "yes"})"),
                    InputError);
  REQUIRE_THROWS_AS(import_bytes("perminov-json", "x.json", "[1, 2]"), InputError);
}

TEST_CASE("fmm-mpl, perminov text, file names: numbers too large for int are not std::out_of_range", "[formats][hostile]") {
  std::string mpl = "Tensor:=TriadSet([Triad([Matrix(99999999999, 1, [[1]]), Matrix(1,1,[[1]]), Matrix(1,1,[[1]])])]):";
  REQUIRE_THROWS_WITH(import_bytes("fmm-mpl", "x.mpl", mpl), Contains("a dimension must be 1..64"));
  std::string text = R"J({"n": [1, 1, 1], "multiplications": ["m1 = (a1_99999999999) * (b11)"], "elements": ["c11 = m1"]})J";
  REQUIRE_THROWS_WITH(import_bytes("perminov-json", "x.json", text), Contains("cannot read the entry name"));
  // A file name with absurd numbers is no hint: the dimensions come from the indices used.
  Scheme s = import_bytes("exp", "99999999999x2x2.exp", "a11*b11*c11\n").scheme;
  CHECK(s.format.str() == "1x1x1");
}

TEST_CASE("npz: a deflated entry declaring 4 GiB is refused before anything is allocated", "[formats][hostile]") {
  std::string zip = zip_declaring(std::string("\x03\x00", 2), 8, 0xFFFFFFF0u, 2, 0);
  REQUIRE_THROWS_WITH(import_bytes("alphatensor-npz", "x.npz", zip), Contains("declares"));
}

TEST_CASE("npz: ZIP64 offsets near 2^64 do not wrap round into a wild read", "[formats][hostile]") {
  std::string zip64;
  test::put(zip64, 1, 2), test::put(zip64, 8, 2), test::put(zip64, ~uint64_t(0) - 8, 8);  // local offset
  std::string zip = zip_declaring("abcd", 0, 4, 4, 0xFFFFFFFFu, zip64);
  REQUIRE_THROWS_WITH(import_bytes("alphatensor-npz", "x.npz", zip), Contains("damaged local header"));
}

TEST_CASE("npz: a ZIP64 central directory at 2^63 does not wrap round into a wild read", "[formats][hostile]") {
  using test::put;
  std::string zip;
  put(zip, 0x06064b50, 4), put(zip, 44, 8), put(zip, 45, 2), put(zip, 45, 2), put(zip, 0, 4), put(zip, 0, 4);
  put(zip, 1, 8), put(zip, 1, 8);                                // entries on this disk, in all
  put(zip, (uint64_t(1) << 63) + 10, 8), put(zip, uint64_t(1) << 63, 8);  // directory size, offset: sum wraps to 10
  put(zip, 0x07064b50, 4), put(zip, 0, 4), put(zip, 0, 8), put(zip, 1, 4);  // ZIP64 locator → record at 0
  put(zip, 0x06054b50, 4), put(zip, 0, 2), put(zip, 0, 2), put(zip, 0xFFFF, 2), put(zip, 0xFFFF, 2);
  put(zip, 0xFFFFFFFFu, 4), put(zip, 0xFFFFFFFFu, 4), put(zip, 0, 2);
  REQUIRE_THROWS_WITH(import_bytes("alphatensor-npz", "x.npz", zip), Contains("central directory lies beyond the end"));
}

TEST_CASE("npy: long dtype digits, long shape numbers and overflowing shapes are refused", "[formats][hostile]") {
  auto npz = [](const std::string& descr, const std::string& shape) {
    return test::zip_of({{"2,2,2.npy", test::npy_of(descr, false, shape, std::string(64, '\0'))}});
  };
  REQUIRE_THROWS_WITH(import_bytes("alphatensor-npz", "x.npz", npz("<i" + std::string(100000, '8'), "(3, 4, 7)")),
                      Contains("unsupported dtype"));
  REQUIRE_THROWS_WITH(import_bytes("alphatensor-npz", "x.npz", npz("<i8", "(" + std::string(60000, '9') + ",)")),
                      Contains("unreadable or too large shape"));
  REQUIRE_THROWS_WITH(import_bytes("alphatensor-npz", "x.npz", npz("<i8", "(4294967296, 4294967296, 4294967296)")),
                      Contains("unreadable or too large shape"));
}

TEST_CASE("pickle: a chain of a million tuples and a list holding itself neither crash nor leak", "[formats][hostile]") {
  auto npz_with_pickle = [](const std::string& pickle) {
    std::string npy = test::npy_of("|O", false, "(3,)", "") + pickle;
    return test::zip_of({{"2,2,3.npy", npy}});
  };
  std::string chain = "\x80\x02N" + std::string(1000000, '\x85') + ".";  // PROTO 2, None, TUPLE1 × 10^6, STOP
  REQUIRE_THROWS_WITH(import_bytes("alphatensor-npz", "x.npz", npz_with_pickle(chain)), Contains("one numpy array"));
  // [] memoised (MEMOIZE), fetched (BINGET 0) and appended to itself (APPEND), then STOP
  std::string cycle = std::string("\x80\x02]\x94h", 5) + std::string(1, '\0') + "a.";
  REQUIRE_THROWS_AS(import_bytes("alphatensor-npz", "x.npz", npz_with_pickle(cycle)), InputError);
}
