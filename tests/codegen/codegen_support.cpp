// Codegen test helpers (see codegen_support.hpp).
#include "tests/codegen/codegen_support.hpp"

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "decomposition/native.hpp"
#include "tests/support.hpp"

namespace tdisc::test {

Scheme winograd() { return read_native(source_path("codegen/schemes/winograd.json")); }

Scheme halved(Scheme s) {
  for (int r = 0; r < s.rank(); r += 2) {
    for (int c = 0; c < s.u.cols(); ++c) s.u(r, c) *= Coeff(2);
    for (int c = 0; c < s.w.cols(); ++c) s.w(r, c) /= Coeff(2);
  }
  s.ring = Ring::Q;
  return s;
}

CompileRun shell(const std::string& command) {
  CompileRun r;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf{};
  while (fgets(buf.data(), buf.size(), pipe)) r.output += buf.data();
  const int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

namespace {

Format base_of(const std::vector<Scheme>& levels) {
  Format b{1, 1, 1};
  for (const Scheme& s : levels) b = {b.n * s.format.n, b.m * s.format.m, b.p * s.format.p};
  return b;
}

void write(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace

CompileRun run_host_variants(const std::vector<HostVariant>& variants, const std::string& tag) {
  const std::string dir = temp_dir("codegen-" + tag);
  std::ostringstream inc, list;
  for (size_t v = 0; v < variants.size(); ++v) {
    const HostVariant& hv = variants[v];
    codegen::Target t{codegen::Backend::Host, codegen::DType::F64, hv.fuse_rank};
    std::vector<std::string> labels(hv.levels.size(), hv.label);
    const std::string ns = "v" + std::to_string(v);
    codegen::Generated g = codegen::generate(hv.levels, labels, t, ns);
    if (!g.why_not.empty()) throw std::runtime_error(hv.label + ": cannot generate: " + g.why_not);
    write(dir + "/" + ns + ".cpp", g.text);
    const Format b = base_of(hv.levels);
    inc << "#include \"" << ns << ".cpp\"\n";
    // The driver names sizes (M, N, K): M splits by n, N by p, K by m.
    list << (v ? ", " : "") << "TDISC_VARIANT(" << ns << ", \"" << hv.label << "\", " << b.n << ", " << b.p << ", "
         << b.m << ", " << hv.tolerance << ")";
  }
  write(dir + "/variants.inc", inc.str() + "#define TDISC_VARIANTS " + list.str() + "\n");
  std::ifstream driver(source_path("tests/codegen/host_driver.cpp.in"));
  std::stringstream ss;
  ss << driver.rdbuf();
  write(dir + "/driver.cpp", ss.str());
  CompileRun c = shell(std::string(TDISC_CXX) + " -std=c++17 -O1 -o " + dir + "/driver " + dir + "/driver.cpp");
  if (c.code != 0) return c;
  CompileRun r = shell(dir + "/driver");
  r.output = c.output + r.output + "(files kept in " + dir + ")\n";
  return r;
}

}  // namespace tdisc::test
