// tdisc: discover, verify, keep, exchange and compile fast matrix-multiplication schemes.
#include <cstring>
#include <iostream>

#include "generated/tdisc_version.hpp"
#include "src/cli/commands.hpp"
#include "src/cli/tables.hpp"
#include "src/llm/engine.hpp"

namespace {

struct Subcommand {
  const char* name;
  int (*run)(const tdisc::cli::Args&);
  const char* summary;
};

constexpr Subcommand kSubcommands[] = {
    {"search", tdisc::cli::cmd_search, "search for a rank-R scheme (flip graph, numerical, LLM)"},
    {"campaign", tdisc::cli::cmd_campaign, "many search targets sharing the cores, checkpointed, resumable, filed"},
    {"verify", tdisc::cli::cmd_verify, "prove or refute schemes exactly"},
    {"import", tdisc::cli::cmd_import, "convert a public format to a verified native file"},
    {"export", tdisc::cli::cmd_export, "write a native file in another format"},
    {"catalog", tdisc::cli::cmd_catalog, "list and query the catalogue in algorithms/"},
    {"codegen", tdisc::cli::cmd_codegen, "generate recursive CUDA or host C++ GEMM code"},
    {"bench", tdisc::cli::cmd_bench, "check and time generated kernels against cuBLAS"},
    {"tune", tdisc::cli::cmd_tune, "time libtdisc_gemm's plans on this GPU, write its plan table"},
    {"report", tdisc::cli::cmd_report, "a run, the catalogue or a benchmark as an HTML page"},
    {"prove", tdisc::cli::cmd_prove, "prove a numerical scheme exactly over a number field"},
    {"recipe", tdisc::cli::cmd_recipe, "the recipe table the search plan runs; promote an LLM run's winner"},
    {"symmetry", tdisc::cli::cmd_symmetry, "the symmetry group of a scheme, exactly, and its ansatz file"},
    {"descend", tdisc::cli::cmd_descend, "a rational scheme equivalent to one over Q(i) (Galois descent), or the proof that none exists"},
    {"evolve", tdisc::cli::cmd_evolve, "evolve numeric-engine recipes (MAP-Elites over AlphaEvolve's terms)"},
};

void usage(std::ostream& os) {
  os << "usage: tdisc COMMAND [options]   (" << TDISC_TOOL << ")\n\ncommands:\n";
  for (const auto& s : kSubcommands) os << "  " << s.name << std::string(10 - std::strlen(s.name), ' ') << s.summary << "\n";
  os << "\n'tdisc COMMAND --help' shows a command's options; 'tdisc search --help-params' the engines'\n"
        "parameters; 'tdisc help --markdown' all of them (docs/parameters.md).\n";
}

}  // namespace

int main(int argc, char** argv) {
  tdisc::llm::register_llm_engine();  // the "llm" engine lives outside src/search
  if (argc < 2) {
    usage(std::cerr);
    return tdisc::cli::kUsage;
  }
  std::string name = argv[1];
  if (name == "help" && argc == 3 && std::string(argv[2]) == "--markdown") {  // docs/parameters.md
    std::cout << tdisc::cli::parameters_markdown();
    return tdisc::cli::kOk;
  }
  if (name == "--help" || name == "-h" || name == "help") {
    usage(std::cout);
    return tdisc::cli::kOk;
  }
  if (name == "--version") {
    std::cout << TDISC_TOOL << "\n";
    return tdisc::cli::kOk;
  }
  tdisc::cli::Args args(argv + 2, argv + argc);
  for (const auto& s : kSubcommands)
    if (name == s.name) return tdisc::cli::guarded(s.run, args);
  std::cerr << "tdisc: unknown command '" << name << "'\n";
  usage(std::cerr);
  return tdisc::cli::kUsage;
}
