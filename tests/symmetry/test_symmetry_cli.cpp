// tdisc symmetry: its printout, the ansatz file it writes, and its exit codes (DESIGN §4).
#include <catch2/catch.hpp>

#include "decomposition/formats/ansatz_file.hpp"
#include "tests/support.hpp"

using namespace tdisc;

TEST_CASE("tdisc symmetry prints Strassen's group and writes its ansatz", "[fast][symmetry][cli]") {
  const std::string out = test::temp_dir("symmetry-cli") + "/strassen.json";
  const auto r = test::run_tdisc("symmetry " + test::source_path("algorithms/2x2x2/r7-ZT-02268ba0.json") + " -o " + out);
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("2x2x2 rank 7, symmetry group of order 36") != std::string::npos);
  CHECK(r.out.find("rank types: 6×(1,1,1) + 1×(2,2,2)") != std::string::npos);
  CHECK(r.out.find("orbits: 1 of 6 terms (stabiliser order 6) + 1 of 1 term (stabiliser order 36)") != std::string::npos);
  const Ansatz a = read_ansatz(out);
  CHECK(a.group.order() == 36);
  CHECK(a.rank() == 7);
}

TEST_CASE("tdisc symmetry's exit codes: help, usage, bad input", "[fast][symmetry][cli]") {
  const auto help = test::run_tdisc("symmetry --help");
  CHECK(help.code == 0);
  CHECK(help.out.find("usage: tdisc symmetry SCHEME") != std::string::npos);
  CHECK(test::run_tdisc("symmetry").code == 1);
  CHECK(test::run_tdisc("symmetry --max-order 0 " + test::source_path("algorithms/2x2x2/r7-ZT-02268ba0.json")).code == 1);
  const auto infinite = test::run_tdisc("symmetry " + test::source_path("algorithms/2x2x2/r8-ZT-12ca34d3.json"));
  CHECK(infinite.code == 2);
  CHECK(infinite.err.find("r8-ZT-12ca34d3.json: the stabiliser is infinite") != std::string::npos);
  const auto small = test::run_tdisc("symmetry --max-order 35 " + test::source_path("algorithms/2x2x2/r7-ZT-02268ba0.json"));
  CHECK(small.code == 2);
  CHECK(small.err.find("more than 35 elements") != std::string::npos);
}

TEST_CASE("tdisc symmetry --to: an isotropy between two schemes (exit 0), or none (exit 3)", "[fast][symmetry][cli]") {
  const std::string strassen = test::source_path("algorithms/2x2x2/r7-ZT-02268ba0.json");
  const auto same = test::run_tdisc("symmetry " + strassen + " --to " + test::source_path("algorithms/2x2x2/r7-ZT-5b72cc28.json"));
  INFO(same.out << same.err);
  CHECK(same.code == 0);
  CHECK(same.out.find(": equivalent, by") != std::string::npos);
  const auto other = test::run_tdisc("symmetry " + strassen + " --to " + test::source_path("algorithms/3x3x3/r23-ZT-5f0ca47d.json"));
  CHECK(other.code == 3);
  CHECK(other.out.find("not equivalent") != std::string::npos);
  CHECK(test::run_tdisc("symmetry " + strassen + " --to " + strassen + " -o x.json").code == 1);
}

TEST_CASE("tdisc symmetry --generators keeps a subgroup and writes its larger ansatz; a bad index is refused",
          "[fast][symmetry][cli]") {
  const std::string r48 = test::source_path("algorithms/4x4x4/r48-Q-2fc8ef12.json");
  const std::string out = test::temp_dir("symmetry-sub") + "/sub.json";
  const auto r = test::run_tdisc("symmetry " + r48 + " --generators 0,1,2 -o " + out);
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("symmetry group of order 64 (5 generators), 3 orbits of its subgroup <0,1,2> of order 16") !=
        std::string::npos);
  const Ansatz a = read_ansatz(out);
  CHECK(a.group.order() == 16);
  CHECK(a.rank() == 48);
  CHECK(a.orbits.size() == 3);
  for (const char* bad : {"5", "x", "0,,1", "-1"}) {
    const auto b = test::run_tdisc("symmetry " + r48 + " --generators " + bad);
    INFO(bad << ": " << b.err);
    CHECK(b.code == 1);
    CHECK(b.err.find("--generators") != std::string::npos);
  }
}
