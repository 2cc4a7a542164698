// On a machine with a GPU and nvcc: generated GEMMs equal cuBLAS bit for bit on small integers
// (f32 and f64, one and two levels, both layouts, both leaf modes, ragged sizes, alpha/beta).
// Registered through run_gpu_tests.sh, which reports skipped (77) where there is no GPU.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/codegen/codegen_support.hpp"
#include "tests/support.hpp"

using namespace tdisc::test;

namespace {
// TDISC / TDISC_SOURCE override the paths baked in at build time (for a copied build tree).
std::string tdisc_binary() {
  const char* e = std::getenv("TDISC");
  return e ? e : TDISC_BINARY;
}
std::string scheme(const std::string& name) {
  const char* e = std::getenv("TDISC_SOURCE");
  return (e ? std::string(e) : std::string(TDISC_SOURCE_DIR)) + "/codegen/schemes/" + name;
}
}  // namespace

TEST_CASE("bench --prepare writes the harness and one generated file per variant", "[fast][codegen]") {
  const std::string dir = temp_dir("gpu-prepare");
  CompileRun r = shell(tdisc_binary() + " bench " + scheme("strassen.json") + " " + scheme("winograd.json") +
                       " --levels 1,2 --dtype f64 --prepare " + dir + "/h");
  INFO(r.output);
  REQUIRE(r.code == 0);
  for (const char* f : {"bench_main.cu", "variants.inc", "build.sh", "v0.cu", "v1.cu", "v2.cu", "v3.cu"})
    CHECK(std::filesystem::exists(dir + "/h/" + f));
  std::ifstream in(dir + "/h/variants.inc");
  std::stringstream ss;
  ss << in.rdbuf();
  CHECK(ss.str().find("typedef double Real;") != std::string::npos);
  CHECK(ss.str().find("\"winograd L2\"") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("generated GEMMs equal cuBLAS bit for bit on small integers", "[gpu]") {
  for (const char* dtype : {"f32", "f64"}) {
    CompileRun r = shell(tdisc_binary() + " bench " + scheme("strassen.json") + " " + scheme("winograd.json") +
                         " --levels 1,2 --check-only --dtype " + dtype);
    INFO(r.output);
    REQUIRE(r.code == 0);
    CHECK(r.output.find("all equal to cuBLAS bit for bit") != std::string::npos);
    CHECK(r.output.find("FAIL") == std::string::npos);
  }
}
