// Synthesised .npz files (stored entries, written here) reach the npy paths the AlphaTensor fixtures
// do not: float64 with Fortran order, big-endian int16, and float garbage that must be refused.
#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>

#include "base/error.hpp"
#include "tests/formats/helpers.hpp"
#include "tests/formats/npz_builder.hpp"
#include "verifier/verify.hpp"

using namespace tdisc;
using test::npy_of;
using test::put;
using test::zip_of;

namespace {

// Strassen as a plain (3, 4, 7) array: element [t][x][r] in the order asked for.
template <class Put>
std::string strassen_data(bool fortran, Put&& put_value) {
  Scheme s = test::strassen();
  const CoeffMatrix* f[3] = {&s.u, &s.v, &s.w};
  std::string out;
  auto value = [&](int t, int x, int r) { return (*f[t])(r, x).re().get_d(); };
  if (fortran) {
    for (int r = 0; r < 7; ++r)
      for (int x = 0; x < 4; ++x)
        for (int t = 0; t < 3; ++t) put_value(out, value(t, x, r));
  } else {
    for (int t = 0; t < 3; ++t)
      for (int x = 0; x < 4; ++x)
        for (int r = 0; r < 7; ++r) put_value(out, value(t, x, r));
  }
  return out;
}

void put_f8(std::string& out, double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, 8);
  put(out, bits, 8);
}

void put_i2_big_endian(std::string& out, double d) {
  auto v = static_cast<uint16_t>(static_cast<int16_t>(d));
  out += static_cast<char>(v >> 8);
  out += static_cast<char>(v & 0xFF);
}

}  // namespace

TEST_CASE("synthesised npz: Fortran-order float64 and big-endian int16 read as Strassen", "[fast][npz]") {
  std::string dir = test::temp_dir("npz-synth");
  std::string path = dir + "/synth.npz";
  test::write_file(path, zip_of({{"2,2,2.npy", npy_of("<f8", true, "(3, 4, 7)", strassen_data(true, put_f8))},
                                 {"2,3,4.npy", npy_of("<f8", false, "(3, 4, 7)", strassen_data(false, put_f8))}}));
  CHECK(list_keys("alphatensor-npz", path) == std::vector<std::string>{"2,2,2", "2,3,4"});
  Scheme a = import_scheme("alphatensor-npz", path, {"222", {}});
  CHECK(a.u == test::strassen().u);
  CHECK(a.w == test::strassen().w);
  CHECK(verify(a, Ring::ZT).valid);
  // A plain array under a non-square key cannot be right.
  CHECK_THAT(test::refusal([&] { import_scheme("alphatensor-npz", path, {"2,3,4", {}}); }), Catch::Contains("square format"));
  test::write_file(path, zip_of({{"2,2,2.npy", npy_of(">i2", false, "(3, 4, 7)", strassen_data(false, put_i2_big_endian))}}));
  Scheme b = import_scheme("alphatensor-npz", path);
  CHECK(b.u == test::strassen().u);
  CHECK(b.v == test::strassen().v);
  CHECK(b.w == test::strassen().w);
  std::string garbage = strassen_data(false, put_f8);
  double third = 1.0 / 3.0;
  std::memcpy(garbage.data() + 8 * 5, &third, 8);
  test::write_file(path, zip_of({{"2,2,2.npy", npy_of("<f8", false, "(3, 4, 7)", garbage)}}));
  CHECK_THAT(test::refusal([&] { import_scheme("alphatensor-npz", path); }),
             Catch::Contains("not an exact small dyadic rational"));
  std::string half = strassen_data(false, put_f8);
  double h = 0.5;
  std::memcpy(half.data() + 8 * 5, &h, 8);
  test::write_file(path, zip_of({{"2,2,2.npy", npy_of("<f8", false, "(3, 4, 7)", half)}}));
  CHECK(import_scheme("alphatensor-npz", path).u(5, 0) == *Coeff::parse("1/2"));  // exact ½ is kept
  test::write_file(path, zip_of({{"2,2,2.npy", npy_of("<f8", false, "(3, 4, 7)", half.substr(0, 100))}}));
  CHECK_THAT(test::refusal([&] { import_scheme("alphatensor-npz", path); }), Catch::Contains("data truncated"));
  std::filesystem::remove_all(dir);
}
