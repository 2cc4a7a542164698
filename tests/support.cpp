// Test helpers.
#include "tests/support.hpp"

#include <sys/wait.h>

#include "decomposition/constructions.hpp"

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace tdisc::test {

std::string fixture(const std::string& relative) { return std::string(TDISC_FIXTURES) + "/" + relative; }

std::string source_path(const std::string& relative) { return std::string(TDISC_SOURCE_DIR) + "/" + relative; }

std::string temp_dir(const std::string& tag) {
  std::random_device rd;
  auto dir = std::filesystem::temp_directory_path() / ("tdisc-test-" + tag + "-" + std::to_string(rd()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

RunResult run_tdisc(const std::string& args) {
  std::string dir = temp_dir("run");
  std::string cmd = std::string(TDISC_BINARY) + " " + args + " >" + dir + "/out 2>" + dir + "/err </dev/null";
  int status = std::system(cmd.c_str());
  RunResult r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(dir + "/out");
  r.err = slurp(dir + "/err");
  std::filesystem::remove_all(dir);
  return r;
}

Scheme classical(Format f) { return classical_scheme(f); }

Scheme strassen() {
  // Products as (A-combination)(B-combination), and the C entries each feeds (i,k, sign).
  struct Row { int a[4]; int b[4]; int c[4]; };  // a,b indexed [11,12,21,22]; c as C[i][k] coefficients
  const Row rows[7] = {
      {{1, 0, 0, 1}, {1, 0, 0, 1}, {1, 0, 0, 1}},    // M1 = (A11+A22)(B11+B22) → C11, C22
      {{0, 0, 1, 1}, {1, 0, 0, 0}, {0, 0, 1, -1}},   // M2 = (A21+A22)B11 → C21, −C22
      {{1, 0, 0, 0}, {0, 1, 0, -1}, {0, 1, 0, 1}},   // M3 = A11(B12−B22) → C12, C22
      {{0, 0, 0, 1}, {-1, 0, 1, 0}, {1, 0, 1, 0}},   // M4 = A22(B21−B11) → C11, C21
      {{1, 1, 0, 0}, {0, 0, 0, 1}, {-1, 1, 0, 0}},   // M5 = (A11+A12)B22 → −C11, C12
      {{-1, 0, 1, 0}, {1, 1, 0, 0}, {0, 0, 0, 1}},   // M6 = (A21−A11)(B11+B12) → C22
      {{0, 1, 0, -1}, {0, 0, 1, 1}, {1, 0, 0, 0}},   // M7 = (A12−A22)(B21+B22) → C11
  };
  Format f{2, 2, 2};
  Scheme s = Scheme::zeros(f, 7, Ring::ZT);
  for (int r = 0; r < 7; ++r)
    for (int q = 0; q < 4; ++q) {
      int i = q / 2, k = q % 2;
      s.u(r, q) = rows[r].a[q];
      s.v(r, q) = rows[r].b[q];
      s.w(r, f.c_index(k, i)) = rows[r].c[q];  // C[i][k] → W[k][i]
    }
  return s;
}

}  // namespace tdisc::test
