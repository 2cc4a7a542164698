// The one JSON entry point for outside data (decomposition/json_input.hpp, issue 26): depth, size,
// numbers that do not fit, invalid UTF-8, each refused as "FILE:LINE: …" with the column; and the
// bounded file read. Each case gave a raw library error, a crash or a wrong value before.
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>

#include "base/error.hpp"
#include "base/io.hpp"
#include "decomposition/json_input.hpp"
#include "decomposition/native.hpp"
#include "tests/formats/helpers.hpp"

using namespace tdisc;
using Catch::Matchers::Contains;

namespace {

template <class F>
std::string located_refusal(F f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.located();
  }
  return "(accepted)";
}

std::string refusal(const std::string& text, const JsonSource& source = {"in.json", "a test file"}) {
  try {
    parse_json_input(text, source);
  } catch (const InputError& e) {
    return e.located();
  }
  return "(accepted)";
}

}  // namespace

TEST_CASE("JSON input: depth is refused before anything recurses", "[fast][formats][hostile]") {
  CHECK_THAT(refusal(std::string(100000, '[') + std::string(100000, ']')), Contains("in.json:1: not a test file (column 201): nested deeper than 200 levels"));
  CHECK_THAT(refusal("{\"a\":" + std::string(300, '[')), Contains("nested deeper than"));
  CHECK(refusal(std::string(200, '[') + std::string(200, ']')) == "(accepted)");
  CHECK(refusal("[\"[[[[[[[\"]", {"x", "y", kMaxJsonBytes, 2}) == "(accepted)");  // brackets in strings do not count
}

TEST_CASE("JSON input: numbers that do not fit are refused with line and column", "[fast][formats][hostile]") {
  CHECK(refusal("{\n  \"a\": 1e400\n}") == "in.json:2: not a test file (column 8): the number 1e400 does not fit a double");
  CHECK_THAT(refusal("[-1e309]"), Contains("does not fit a double"));
  CHECK_THAT(refusal("[99999999999999999999]"), Contains("the integer 99999999999999999999 does not fit 64 bits"));
  CHECK_THAT(refusal("[-9223372036854775809]"), Contains("does not fit 64 bits"));
  CHECK_THAT(refusal("[" + std::string(500, '1') + ".5]"), Contains("a number of 502 characters"));
  CHECK(refusal("[18446744073709551615, -9223372036854775808, 1e-400, 0.5, \"1e400\"]") == "(accepted)");
  CHECK(parse_json_input("[18446744073709551615]", "x", "y")[0].get<unsigned long long>() == 18446744073709551615ULL);
  CHECK(json_integer_coeff(parse_json_input("[18446744073709551615]", "x", "y")[0]).str() == "18446744073709551615");
}

TEST_CASE("JSON input: invalid UTF-8 is refused, or replaced where asked", "[fast][formats][hostile]") {
  CHECK(refusal("{\"a\":\n\"\xff\"}") == "in.json:2: not a test file (column 2): invalid UTF-8");
  JsonSource reply{"http://x/v1", "a reply", kMaxJsonBytes, kMaxNesting, true};
  CHECK(parse_json_input("{\"a\":\"b\xff\"}", reply)["a"] == "b\xEF\xBF\xBD");
}

TEST_CASE("JSON input: size ceiling, syntax errors in our format, no library tag", "[fast][formats][hostile]") {
  CHECK_THAT(refusal("[1, 2, 3]", {"big.json", "a test file", 4}), Contains("9 bytes, more than the limit of 4"));
  const std::string torn = refusal("{\"a\": [1, 2,\n");
  CHECK_THAT(torn, Contains("in.json:2: not a test file"));
  CHECK_THAT(torn, Contains("invalid JSON (truncated?)"));
  CHECK(torn.find("[json.exception") == std::string::npos);
}

TEST_CASE("native and Perminov files holding 1e400 are refused with the file and line", "[fast][formats][hostile]") {
  std::string native = native_text(test::strassen());
  native.replace(native.find("\"rank\": 7"), 9, "\"rank\": 1e400");
  CHECK_THAT(located_refusal([&] { parse_native(native, "s.json"); }),
             Contains("s.json:7: not a tdisc-scheme file (column 11): the number 1e400 does not fit a double"));
  CHECK_THAT(located_refusal([] { import_from_bytes("perminov-json", "p.json", "{\"n\": [2, 2, 2],\n \"m\": 1e400}"); }),
             Contains("p.json:2: not a Perminov scheme file (column 7): the number 1e400 does not fit a double"));
}

TEST_CASE("a native coefficient 18446744073709551615 is read as that number, not -1", "[fast][formats][hostile]") {
  std::string native = native_text(test::classical({1, 1, 1}));
  native.replace(native.find("\"ring\": \"ZT\""), 12, "\"ring\": \"Z\"");
  const size_t at = native.find("\"u\"");
  REQUIRE(at != std::string::npos);
  const size_t one = native.find("\"1\"", at);  // coefficients are written as strings; a file may hold numbers
  REQUIRE(one != std::string::npos);
  native.replace(one, 3, "18446744073709551615");
  CHECK(parse_native(native, "big.json").u(0, 0).str() == "18446744073709551615");
}

TEST_CASE("non-finite doubles are written as text and read back", "[fast][formats][hostile]") {
  nlohmann::json j = {{"inf", json_double(HUGE_VAL)}, {"ninf", json_double(-HUGE_VAL)}, {"nan", json_double(std::nan(""))},
                      {"x", json_double(0.25)}, {"null", nullptr}};
  nlohmann::json back = parse_json_input(j.dump(), "c.json", "a checkpoint");
  CHECK(std::isinf(read_json_double(back, "inf", 0)));
  CHECK(read_json_double(back, "ninf", 0) < 0);
  CHECK(std::isnan(read_json_double(back, "nan", 0)));
  CHECK(read_json_double(back, "x", 0) == 0.25);
  CHECK(read_json_double(back, "null", 7) == 7);
  CHECK(read_json_double(back, "missing", 8) == 8);
}

TEST_CASE("reads stop at their ceiling: /dev/zero is refused quickly", "[fast][formats][hostile]") {
  auto t0 = std::chrono::steady_clock::now();
  CHECK_THAT(located_refusal([] { read_text_file("/dev/zero"); }), Contains("/dev/zero: more than 64 MiB, the ceiling for a scheme file"));
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < 5.0);
  CHECK_THROWS_WITH(read_text_file("/dev/zero", InputKind::params), Contains("more than 1 MiB"));
}
