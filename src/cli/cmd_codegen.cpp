// tdisc codegen SCHEME… --levels L --dtype f32|f64 [--backend cuda|host] -o FILE: one self-contained
// recursive GEMM source (CUDA with cuBLAS leaves, or plain host C++) from verified schemes.
#include <iostream>

#include "codegen/generate.hpp"
#include "decomposition/error.hpp"
#include "decomposition/io.hpp"
#include "src/cli/commands.hpp"
#include "src/cli/options.hpp"

namespace tdisc::cli {

namespace {

const OptionTable kCodegenOptions{
    "codegen",
    "tdisc codegen SCHEME… [--levels L] [--dtype f32|f64] [--backend cuda|host] -o FILE",
    "Writes a GEMM C = alpha*A*B + beta*C (any M, N, K, either layout) that applies the schemes\n"
    "recursively, outermost first (the last scheme repeats down to --levels). Exit 2 when a scheme\n"
    "cannot be generated (with the reason).",
    {{"levels", "L", "", "recursion levels (default: one per SCHEME)", "TDISC_LEVELS"},
     {"dtype", "T", "f32", "f32 or f64", "TDISC_DTYPE"},
     {"backend", "B", "cuda", "cuda (cuBLAS leaves) or host (plain C++, for CPU tests)", ""},
     {"out,o", "FILE", "", "output file ('-' for stdout)", ""},
     {"namespace", "NAME", "tdisc_gen", "C++ namespace of the generated API", ""},
     {"fuse-rank", "N", "64", "merge consecutive levels into one stage while the merged rank is ≤ N (0: never)", ""},
     {"check", "", "", "only answer whether the code can be generated, and why not", ""}},
    "SCHEME"};

codegen::Target target_from(const ParsedOptions& o) {
  codegen::Target t;
  const std::string d = o.text("dtype"), b = o.text("backend");
  if (d == "f32") t.dtype = codegen::DType::F32;
  else if (d == "f64") t.dtype = codegen::DType::F64;
  else throw UsageError("--dtype: \"" + d + "\" is not f32 or f64");
  if (b == "cuda") t.backend = codegen::Backend::Cuda;
  else if (b == "host") t.backend = codegen::Backend::Host;
  else throw UsageError("--backend: \"" + b + "\" is not cuda or host");
  t.max_fused_rank = static_cast<int>(o.integer("fuse-rank", 0, 4096));
  return t;
}

}  // namespace

int cmd_codegen(const Args& args) {
  ParsedOptions o = parse_options(kCodegenOptions, args);
  if (o.help()) {
    std::cout << help_text(kCodegenOptions);
    return kOk;
  }
  codegen::Request r;
  r.schemes = o.positional();
  if (r.schemes.empty()) throw UsageError("codegen: no SCHEME given (see 'tdisc codegen --help')");
  r.levels = o.has("levels") ? static_cast<int>(o.integer("levels", 1, 8)) : 0;
  r.target = target_from(o);
  r.name_space = o.text("namespace");
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
