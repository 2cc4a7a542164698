// tdisc bench's host side: writes the generated variants and the hand-written harness
// (runtime/bench_main.cu) into a folder, compiles it with nvcc, runs it. Nothing here links CUDA.
#pragma once
#include <string>
#include <vector>

#include "codegen/plan.hpp"

namespace tdisc::codegen {

struct BenchVariantSpec {
  std::vector<std::string> schemes;  // level schemes, outermost first (the last repeats)
  int levels = 1;
};

struct BenchSetup {
  std::vector<BenchVariantSpec> variants;
  DType dtype = DType::F32;
  int max_fused_rank = 64;
};

// Writes DIR/v<i>.cu, DIR/variants.inc, DIR/bench_main.cu, DIR/harness.cuh, DIR/test_inputs.cuh and
// DIR/build.sh. Returns one line per variant (name and plan summary). Throws InputError/UsageError for
// unusable schemes.
std::vector<std::string> prepare_bench(const BenchSetup& setup, const std::string& dir);
// The nvcc command build.sh runs (sm_90: the kernels use no sm_90a-only instruction).
std::string nvcc_command(const std::string& nvcc, const std::string& dir);

}  // namespace tdisc::codegen
