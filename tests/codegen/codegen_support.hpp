// Helpers for the codegen tests: schemes built in code, writing generated variants next to a driver,
// compiling them with the host compiler or nvcc, and the skip convention (exit 77) for missing tools.
#pragma once
#include <string>
#include <vector>

#include "codegen/generate.hpp"
#include "decomposition/scheme.hpp"

namespace tdisc::test {

inline constexpr int kSkipped = 77;  // CTest SKIP_RETURN_CODE

Scheme winograd();          // codegen/schemes/winograd.json
Scheme halved(Scheme s);    // U_r·2 and W_r·½ for even r: a valid scheme with ½ coefficients (ring Q)

struct HostVariant {
  std::vector<Scheme> levels;
  std::string label;
  int fuse_rank = 64;
  double tolerance = 0;  // 0: exact
};

struct CompileRun {
  int code = -1;          // exit code of the driver (or of the compiler when it failed)
  std::string output;     // compiler and driver output
};

// Generates every variant as host f64 code into a fresh folder, compiles them with the driver and
// runs it. Throws when a variant cannot be generated.
CompileRun run_host_variants(const std::vector<HostVariant>& variants, const std::string& tag);
// Runs a shell command, capturing stdout+stderr.
CompileRun shell(const std::string& command);

}  // namespace tdisc::test
