// `tdisc tune`: measures every compiled plan of libtdisc_gemm (each leaf mode) against cuBLAS on a
// grid of shapes and writes the plan table the library reads (JSON keyed by GPU model, cuBLAS version
// and dtype). The library is loaded with dlopen: the tdisc binary never links CUDA.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace tdisc::codegen {

struct TuneShape {
  long long m = 0, n = 0, k = 0;
};

struct TuneSetup {
  std::string library;             // path of libtdisc_gemm.so (or a name dlopen finds)
  std::vector<int> dtypes;         // 0 f32, 1 f64
  std::vector<TuneShape> shapes;
  std::vector<int> leaves{0, 1, 2};
  std::vector<std::string> emulated;  // emulated plans to tune ("oz2", "oz2-s1", …); none: native only
  std::vector<int> moduli;            // moduli counts to try (empty: 12..20 for f64, 5..12 for f32)
  int reps = 5;                    // per candidate, after one warm-up (ranking, not a benchmark)
  std::string command_line;        // stored in the table
};

// One measured candidate.
struct TuneRow {
  int dtype = 0;
  TuneShape shape;
  std::string plan;  // "cublas" for the baseline
  int leaf = 0;
  double ms = 0;
  int moduli = 0;            // emulated plans: the moduli it ran with
  double error_ratio = 0;    // emulated plans: its error over cuBLAS's, the worse of uniform and wide inputs
};

struct TuneResult {
  std::string gpu;
  int cublas = 0;
  std::vector<TuneRow> rows;
  std::string table_json;  // the plan table
};

// Throws InputError when the library cannot be loaded or a call fails; `progress` gets one line per
// candidate.
TuneResult tune(const TuneSetup& setup, const std::function<void(const std::string&)>& progress);

// The table from measured rows: per dtype and shape, the fastest candidate (cuBLAS unless a plan is
// faster by more than `margin`, so that noise never picks a plan that loses); where emulated rows were
// measured, a second entry ("accuracy": "emulated") by the same rule among them and cuBLAS.
std::string plan_table_json(const std::string& gpu, int cublas, const std::vector<TuneRow>& rows, double margin,
                            const std::string& command_line);

}  // namespace tdisc::codegen
