// tdisc tune [--library PATH] [--dtype f32,f64] [--sizes N,…] [--shapes MxNxK,…] --out FILE: times
// libtdisc_gemm's compiled plans against cuBLAS on this GPU and writes the plan table the library reads
// (built-in defaults: codegen/gemm/plans/default_tables.json; per run: TDISC_GEMM_PLANS=FILE).
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "base/error.hpp"
#include "base/io.hpp"
#include "codegen/tune.hpp"
#include "src/cli/commands.hpp"
#include "src/cli/options.hpp"
#include "src/cli/tables.hpp"

namespace tdisc::cli {

namespace {

using namespace params;

const Table kTuneOptions{
    "tune",
    "tdisc tune [--library PATH] [--dtype f32,f64] [--sizes N,…] [--shapes MxNxK,…] --out FILE",
    "Times every plan compiled into libtdisc_gemm (each leaf mode) against cuBLAS on a grid of shapes\n"
    "and writes the plan table (JSON keyed by GPU model, cuBLAS version and dtype): per shape the\n"
    "fastest, cuBLAS unless a plan beats it by more than 2 %. With --emulated, each shape also gets an\n"
    "emulated entry (used only when the caller allows emulation). Needs a GPU and the library (dlopen).",
    {with_env(with_metavar(text("library", "libtdisc_gemm.so", "the library to load (a path, or a name the loader finds)"), "PATH"),
              "TDISC_GEMM_LIBRARY"),
     with_metavar(text("dtype", "f32,f64", "f32, f64 or both"), "LIST"),
     with_metavar(text("sizes", "1024,2048,3072,4096,6144,8192,12288,16384,24576", "square sizes"), "LIST"),
     with_metavar(text("shapes",
                       "10001x9999x10007,32768x4096x4096,4096x32768x4096,32768x8192x8192,16384x8192x12288,16384x16384x2048,"
                       "32768x32768x2048,2048x2048x32768,4096x4096x65536",
                       "further MxNxK shapes (tall, wide, skinny, ragged)"), "LIST"),
     with_metavar(text("leaf", "separate,batched,streams", "leaf modes to try"), "LIST"),
     with_metavar(text("emulated", "",
                       "emulated plans to tune as well (e.g. oz2,oz2-s1,oz2-r48): per shape the fewest moduli whose "
                       "error is at most cuBLAS's on uniform and wide-range inputs, then the fastest of those plans "
                       "and cuBLAS becomes the emulated entry"), "LIST"),
     with_metavar(text("moduli", "", "moduli counts to try for the emulated plans (default: 12..20 for f64, 5..12 for f32)"), "LIST"),
     integer("reps", 5, 1, 1000, "timed calls per candidate after one warm-up (the median ranks them)"),
     with_metavar(text("out,o", nullptr, "plan table to write (required)"), "FILE")},
    "",
    "TDISC_TUNE_"};


long long positive(const std::string& flag, const std::string& text) {
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (*end || v < 1 || v > (1ll << 20)) throw UsageError(flag + ": \"" + text + "\" is not a size in 1..2^20");
  return v;
}

codegen::TuneSetup setup_from(const Settings& o, const Args& args) {
  codegen::TuneSetup s;
  s.library = o.text("library");
  for (const std::string& d : split_list(o.text("dtype"), ',')) {
    if (d != "f32" && d != "f64") throw UsageError("--dtype: \"" + d + "\" is not f32 or f64");
    s.dtypes.push_back(d == "f64");
  }
  for (const std::string& n : split_list(o.text("sizes"), ',')) {
    const long long v = positive("--sizes", n);
    s.shapes.push_back({v, v, v});
  }
  for (const std::string& sh : split_list(o.text("shapes"), ',')) {
    std::vector<std::string> d = split_list(sh, 'x');
    if (d.size() != 3) throw UsageError("--shapes: \"" + sh + "\" is not MxNxK");
    s.shapes.push_back({positive("--shapes", d[0]), positive("--shapes", d[1]), positive("--shapes", d[2])});
  }
  s.leaves.clear();
  for (const std::string& l : split_list(o.text("leaf"), ',')) {
    if (l == "separate") s.leaves.push_back(0);
    else if (l == "batched") s.leaves.push_back(1);
    else if (l == "streams") s.leaves.push_back(2);
    else throw UsageError("--leaf: \"" + l + "\" is not separate, batched or streams");
  }
  s.emulated = split_list(o.text("emulated"), ',');
  for (const std::string& p : s.emulated)
    if (p.rfind("oz2", 0) != 0) throw UsageError("--emulated: \"" + p + "\" is not an emulated plan (oz2, oz2-s1, …)");
  for (const std::string& q : split_list(o.text("moduli"), ',')) {
    const long long v = positive("--moduli", q);
    if (v < 2 || v > 24) throw UsageError("--moduli: \"" + q + "\" is not in 2..24");
    s.moduli.push_back(static_cast<int>(v));
  }
  s.reps = static_cast<int>(o.integer("reps"));
  s.command_line = "tdisc tune";
  for (const std::string& a : args) s.command_line += " " + a;
  return s;
}

}  // namespace

const params::Table& tune_table() { return kTuneOptions; }

int cmd_tune(const Args& args) {
  Settings o = parse_options(kTuneOptions, args);
  if (o.help) {
    std::cout << params::help_text(kTuneOptions);
    return kOk;
  }
  if (!o.has("out")) throw UsageError("tune: --out FILE is required");
  const codegen::TuneSetup setup = setup_from(o, args);
  std::cout << "tune: " << o.effective() << "\n" << std::flush;
  const codegen::TuneResult r = codegen::tune(setup, [](const std::string& line) { std::cout << line << "\n" << std::flush; });
  write_file_atomic(o.text("out"), r.table_json);
  std::cout << "wrote " << o.text("out") << " (" << r.gpu << ", cuBLAS " << r.cublas << ", " << r.rows.size()
            << " timings)\n";
  return kOk;
}

}  // namespace tdisc::cli
