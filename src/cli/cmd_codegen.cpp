// tdisc codegen SCHEME… --levels L --dtype f32|f64 [--backend cuda|host] -o FILE: one self-contained
// recursive GEMM source (CUDA with cuBLAS leaves, or plain host C++) from verified schemes; with
// --runtime-include DIR the hand-written runtime is #included from DIR instead of copied in.
#include <iostream>

#include "base/error.hpp"
#include "base/io.hpp"
#include "codegen/generate.hpp"
#include "src/cli/commands.hpp"
#include "src/cli/options.hpp"
#include "src/cli/tables.hpp"

namespace tdisc::cli {

namespace {

using namespace params;

const Table kCodegenOptions{
    "codegen",
    "tdisc codegen SCHEME… [--levels L] [--dtype f32|f64] [--backend cuda|host] -o FILE",
    "Writes a GEMM C = alpha*A*B + beta*C (any M, N, K, either layout) that applies the schemes\n"
    "recursively, outermost first (the last scheme repeats down to --levels). Exit 2 when a scheme\n"
    "cannot be generated (with the reason).",
    {with_metavar(integer("levels", nullptr, 1, 8, "recursion levels [default: one per SCHEME]"), "L"),
     with_metavar(choice("dtype", "f32", {"f32", "f64"}, "element type"), "T"),
     with_metavar(choice("backend", "cuda", {"cuda", "host"}, "cuda (cuBLAS leaves) or host (plain C++, for CPU tests)"), "B"),
     with_metavar(text("out,o", nullptr, "output file ('-' for stdout)"), "FILE"),
     with_metavar(text("namespace", "tdisc_gen", "C++ namespace of the generated API"), "NAME"),
     with_metavar(text("runtime-include", nullptr,
                       "#include codegen/runtime/*.inc from DIR (relative to FILE) instead of copying them in"),
                  "DIR"),
     integer("fuse-rank", 64, 0, 4096, "merge consecutive levels into one stage while the merged rank is ≤ N (0: never)"),
     with_env(flag("check", "only answer whether the code can be generated, and why not"), "-")},
    "SCHEME",
    "TDISC_CODEGEN_"};

codegen::Target target_from(const Settings& o) {
  codegen::Target t;
  t.dtype = o.text("dtype") == "f64" ? codegen::DType::F64 : codegen::DType::F32;  // choices of the table
  t.backend = o.text("backend") == "host" ? codegen::Backend::Host : codegen::Backend::Cuda;
  t.max_fused_rank = static_cast<int>(o.integer("fuse-rank"));
  return t;
}

}  // namespace

const params::Table& codegen_table() { return kCodegenOptions; }

int cmd_codegen(const Args& args) {
  Settings o = parse_options(kCodegenOptions, args);
  if (o.help) {
    std::cout << params::help_text(kCodegenOptions);
    return kOk;
  }
  codegen::Request r;
  r.schemes = o.positional();
  if (r.schemes.empty()) throw UsageError("codegen: no SCHEME given (see 'tdisc codegen --help')");
  r.levels = o.has("levels") ? static_cast<int>(o.integer("levels")) : 0;
  r.target = target_from(o);
  r.name_space = o.text("namespace");
  if (o.has("runtime-include")) r.runtime_include = o.text("runtime-include");
  if (!o.flag("check") && !o.has("out")) throw UsageError("codegen: -o FILE is required");
  codegen::Generated g = codegen::generate(r);
  if (!g.why_not.empty()) {
    std::cerr << "tdisc: codegen: cannot generate: " << g.why_not << "\n";
    return kInvalid;
  }
  if (o.flag("check")) {
    std::cout << "can generate: " << g.summary << "\n";
    return kOk;
  }
  const std::string out = o.text("out");
  if (out == "-") std::cout << g.text;
  else write_file_atomic(out, g.text);
  std::cerr << "tdisc: codegen: " << (out == "-" ? "stdout" : out) << ": " << g.summary << "\n";
  return kOk;
}

}  // namespace tdisc::cli
