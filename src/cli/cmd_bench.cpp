// tdisc bench SCHEME… --dtype f32|f64 --sizes 4096,8192,… [--levels 1,2]: generates each variant,
// compiles the harness with nvcc (at run time; tdisc itself never links CUDA), checks exactly
// against cuBLAS, then times per DESIGN §6 and prints the table; JSON with --json.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/io.hpp"
#include "codegen/bench.hpp"
#include "decomposition/json_input.hpp"
#include "src/cli/commands.hpp"
#include "src/cli/options.hpp"
#include "src/cli/tables.hpp"
#include "src/report/html.hpp"
#include "src/report/pages.hpp"

namespace tdisc::cli {

namespace {

using namespace params;

const Table kBenchOptions{
    "bench",
    "tdisc bench SCHEME… [--dtype f32|f64] [--sizes N,…] [--levels L,…] [--shapes MxNxK,…] [--json FILE]",
    "Checks generated GEMMs against cuBLAS (small integers: bit for bit; random inputs: relative\n"
    "Frobenius error against a double-double reference) and times them (median of --reps after warm-up,\n"
    "CUDA events, inputs rotated beyond 2x L2, TF32 off). Each SCHEME is one variant; A.json+B.json\n"
    "gives different schemes per level; SCHEME@L fixes its level count, otherwise every --levels value\n"
    "makes one variant. Needs nvcc and a GPU (or --prepare DIR to write the harness only).",
    {with_metavar(choice("dtype", "f32", {"f32", "f64"}, "element type"), "T"),
     with_metavar(text("sizes", "4096,8192,16384", "square sizes to time"), "LIST"),
     with_metavar(text("shapes", nullptr, "extra MxNxK shapes to time (non-square, non-divisible)"), "LIST"),
     with_metavar(text("levels", "1", "recursion levels 1..4, one variant per value"), "LIST"),
     integer("reps", 20, 20, 100000, "timed repetitions per method (at least 20)"),
     integer("warmup", 3, 0, 1000, "untimed repetitions first"),
     seed("seed", 20261121, "seed of the random inputs"),
     with_metavar(choice("leaf", "all", {"all", "separate", "batched", "streams"},
                         "leaf products: separate (a cuBLAS call each), batched (strided), streams (two), or all"), "MODE"),
     integer("fuse-rank", 64, 0, 4096, "merge levels into one stage while the merged rank is ≤ N"),
     with_metavar(text("json", nullptr, "write the full results as JSON"), "FILE"),
     with_env(flag("check-only", "run the exact checks only"), "-"),
     with_metavar(text("prepare", nullptr, "only write the harness and the generated variants into DIR (no nvcc, no GPU)"), "DIR"),
     with_metavar(text("nvcc", nullptr, "nvcc to use [default: $CUDA_HOME/bin/nvcc, PATH, /usr/local/cuda/bin/nvcc]"), "PATH"),
     with_metavar(text("keep", nullptr, "build in DIR and keep it [default: a temporary folder, removed]"), "DIR"),
     with_metavar(text("report", nullptr, "also write the results as an HTML page (speed-up and error against n, crossover)"), "FILE"),
     with_metavar(text("results", nullptr, "with --report: render these JSON result files (comma-separated) instead of running"), "LIST")},
    "SCHEME",
    "TDISC_BENCH_"};


std::string find_nvcc(const std::string& given) {
  if (!given.empty()) return given;
  namespace fs = std::filesystem;
  if (const char* home = std::getenv("CUDA_HOME"); home && fs::exists(std::string(home) + "/bin/nvcc"))
    return std::string(home) + "/bin/nvcc";
  if (std::system("command -v nvcc >/dev/null 2>&1") == 0) return "nvcc";
  if (fs::exists("/usr/local/cuda/bin/nvcc")) return "/usr/local/cuda/bin/nvcc";
  return "";
}

codegen::BenchSetup setup_from(const Settings& o) {
  codegen::BenchSetup s;
  s.dtype = o.text("dtype") == "f64" ? codegen::DType::F64 : codegen::DType::F32;  // choices of the table
  s.max_fused_rank = static_cast<int>(o.integer("fuse-rank"));
  std::vector<int> levels;
  for (const std::string& l : split_list(o.text("levels"), ',')) {
    char* end = nullptr;
    long v = std::strtol(l.c_str(), &end, 10);
    if (*end || v < 1 || v > 4) throw UsageError("--levels: \"" + l + "\" is not a level count in 1..4");
    levels.push_back(static_cast<int>(v));
  }
  for (std::string spec : o.positional()) {
    // SCHEME@L fixes the levels of that variant; otherwise every --levels value makes one.
    std::vector<int> these = levels;
    if (auto at = spec.rfind('@'); at != std::string::npos) {
      char* end = nullptr;
      long v = std::strtol(spec.c_str() + at + 1, &end, 10);
      if (*end || v < 1 || v > 4) throw UsageError("\"" + spec + "\": the level count after @ must be 1..4");
      these = {static_cast<int>(v)};
      spec = spec.substr(0, at);
    }
    for (int l : these) {
      std::vector<std::string> schemes = split_list(spec, '+');
      if (static_cast<int>(schemes.size()) > l) continue;  // A+B needs at least two levels
      s.variants.push_back({schemes, l});
    }
  }
  if (s.variants.empty()) throw UsageError("bench: no variant (a SCHEME of k files needs --levels ≥ k)");
  return s;
}

}  // namespace

// The page of JSON results written by the harness (--json).
void write_bench_report(const std::string& out, const std::vector<std::string>& files) {
  std::vector<nlohmann::json> results;
  for (const auto& f : files) {
    nlohmann::json j = parse_json_input(read_text_file(f, InputKind::results), f, "a bench result");
    if (!j.is_object() || !j.contains("rows") || !j["rows"].is_array())
      throw InputError(f, 0, "not a bench result (JSON with a \"rows\" array)");
    results.push_back(j);
  }
  std::string page;
  try {
    page = report::bench_page(results, files);
  } catch (const nlohmann::json::exception& e) {  // a field of a type the page did not expect: whose?
    for (size_t k = 0; k < files.size(); ++k) try {
        (void)report::bench_page({results[k]}, {files[k]});
      } catch (const nlohmann::json::exception& one) {
        throw InputError(files[k], 0, "not a bench result tdisc can show: " + json_library_message(one));
      }
    throw InputError(files.front(), 0, "not a bench result tdisc can show: " + json_library_message(e));
  }
  report::write_page(out, page);
  std::cout << "wrote " << out << " (" << files.size() << " result file(s))\n";
}

int render_report(const Settings& o) {
  if (!o.has("report")) throw UsageError("--results needs --report FILE (the page to write)");
  write_bench_report(o.text("report"), split_list(o.text("results"), ','));
  return kOk;
}

const params::Table& bench_table() { return kBenchOptions; }

int cmd_bench(const Args& args) {
  Settings o = parse_options(kBenchOptions, args);
  if (o.help) {
    std::cout << params::help_text(kBenchOptions);
    return kOk;
  }
  if (o.has("results")) return render_report(o);
  if (o.positional().empty()) throw UsageError("bench: no SCHEME given (see 'tdisc bench --help')");
  const codegen::BenchSetup setup = setup_from(o);
  const long long reps = o.integer("reps"), warmup = o.integer("warmup");
  const std::string leaf = o.text("leaf");
  namespace fs = std::filesystem;
  const bool prepare_only = o.has("prepare");
  std::string dir = prepare_only ? o.text("prepare") : o.text("keep");
  const bool temporary = dir.empty();
  if (temporary) dir = (fs::temp_directory_path() / ("tdisc-bench-" + std::to_string(::getpid()))).string();
  for (const std::string& line : codegen::prepare_bench(setup, dir)) std::cout << "variant " << line << "\n";
  if (prepare_only) {
    std::cout << "prepared " << dir << " (build: " << dir << "/build.sh, needs nvcc)\n";
    return kOk;
  }
  const std::string nvcc = find_nvcc(o.text("nvcc"));
  if (nvcc.empty()) throw UsageError("bench: nvcc not found (give --nvcc PATH or set CUDA_HOME)");
  const std::string build = codegen::nvcc_command(nvcc, dir);
  std::cout << "compiling: " << build << "\n" << std::flush;
  if (std::system(build.c_str()) != 0) throw IoError(dir, 0, "nvcc failed on the generated harness");
  std::string json_out = o.text("json");
  if (json_out.empty() && o.has("report")) json_out = dir + "/results.json";
  std::string run = dir + "/bench --reps " + std::to_string(reps) + " --warmup " + std::to_string(warmup) +
                    " --seed " + o.text("seed") + " --sizes " + o.text("sizes") + " --leaf " + leaf;
  if (o.has("shapes")) run += " --shapes " + o.text("shapes");
  if (!json_out.empty()) run += " --json " + fs::absolute(json_out).string();
  if (o.flag("check-only")) run += " --check-only";
  std::cout << "running: " << run << "\n" << std::flush;
  const int status = std::system(run.c_str());
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  if (code == 0 && o.has("report")) write_bench_report(o.text("report"), {json_out});
  if (temporary) fs::remove_all(dir);
  if (code == 77) {
    std::cerr << "tdisc: bench: no CUDA device\n";
    return kUsage;
  }
  if (code == 2) {
    std::cerr << "tdisc: bench: exact check against cuBLAS FAILED\n";
    return kInvalid;
  }
  return code == 0 ? kOk : kUsage;
}

}  // namespace tdisc::cli
