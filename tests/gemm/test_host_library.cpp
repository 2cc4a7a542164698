// The host backend runs libtdisc_gemm's plan logic exactly: plan selection from a table, workspace
// accounting and the lean schedule, against the classical product on small integers (the driver is
// host_library_driver.cpp.in; the plans are generated here as host C++).
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "codegen/generate.hpp"
#include "decomposition/native.hpp"
#include "tests/codegen/codegen_support.hpp"
#include "tests/support.hpp"

using namespace tdisc;
using namespace tdisc::test;

namespace {
std::string generated(const std::vector<Scheme>& levels, const std::string& ns) {
  codegen::Target t{codegen::Backend::Host, codegen::DType::F64, 64};
  codegen::Generated g = codegen::generate(levels, std::vector<std::string>(levels.size(), ns), t, ns);
  REQUIRE(g.why_not.empty());
  return g.text;
}
void write(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  REQUIRE(out.good());
}
}  // namespace

TEST_CASE("host backend: plan table, workspace policy and lean schedule of libtdisc_gemm", "[fast][gemm]") {
  const Scheme strassen = read_native(source_path("codegen/schemes/strassen.json"));
  const Scheme r48 = read_native(source_path("codegen/schemes/r48-4x4x4-Q.json"));
  const std::string dir = temp_dir("gemm-host");
  write(dir + "/s1.cpp", generated({strassen}, "s1"));
  write(dir + "/r48s.cpp", generated({r48, strassen}, "r48s"));
  write(dir + "/variants.inc", "#include \"s1.cpp\"\n#include \"r48s.cpp\"\n"
                               "#define TDISC_PLANS TDISC_PLAN(s1, \"s1\"), TDISC_PLAN(r48s, \"r48s\")\n");
  std::ifstream in(source_path("tests/gemm/host_library_driver.cpp.in"));
  std::stringstream ss;
  ss << in.rdbuf();
  write(dir + "/driver.cpp", ss.str());
  const std::string lib = source_path("codegen/gemm/src");
  CompileRun c = shell(std::string(TDISC_CXX) + " -std=c++17 -O1 -I" + lib + " -o " + dir + "/driver " + dir +
                       "/driver.cpp " + lib + "/plan_table.cpp " + lib + "/json_lite.cpp");
  INFO(c.output);
  REQUIRE(c.code == 0);
  CompileRun r = shell(dir + "/driver");
  INFO(r.output);
  CHECK(r.code == 0);
  CHECK(r.output.find("FAIL") == std::string::npos);
  CHECK(r.output.find("20 schedules, 0 failures") != std::string::npos);
}
