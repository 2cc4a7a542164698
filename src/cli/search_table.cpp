// The flags of tdisc search (its parameter table): the command is src/cli/cmd_search.cpp, the
// llm engine's --llm-* rows come from src/llm/flags.hpp.
#include "src/cli/catalog_verbs.hpp"
#include "src/cli/options.hpp"
#include "src/cli/tables.hpp"
#include "src/llm/flags.hpp"

namespace tdisc::cli {

namespace {

std::vector<params::Param> search_rows() {
  using namespace params;
  std::vector<Param> rows{
      with_metavar(format("size", "3x3", "format: 3x3 (square), 2x3x4, 234"), "NxMxP"),
      with_metavar(integer("rank", nullptr, 1, 1e6, "target rank (at most the classical n·m·p) [default: best known integer rank of the format]"), "R"),
      with_metavar(ring_option("ring the result must be valid over [default: ZT; Q below the best integer rank]", false), "RING"),
      with_metavar(choice("engine", "auto", {"auto", "flip", "numeric", "llm"},
                          "auto: llm when an endpoint is set, else flip for ZT/Z/GF2/GF3 and for ranks\n"
                          "≥ the best integer rank, numeric below"), "E"),
      integer("threads", 0, 0, 1024, "walker threads (0: one per core)"),
      budget("time", "10m", 30 * 86400.0, "wall-clock budget (90s, 10m, 2h; more than 0, at most 30d), or unlimited"),
      seed("seed", nullptr, "random seed (random when absent; printed and stored)"),
      with_metavar(text("out", nullptr, "run directory [default: runs/<format>-r<R>-<timestamp>]"), "DIR"),
      with_env(with_metavar(text("resume", nullptr, "continue the run in DIR from its last checkpoint"), "DIR"), "-"),
      with_metavar(text("from", nullptr, "start from this native scheme instead of the standard algorithm"), "FILE"),
      with_metavar(choice("symmetry", "auto", {"auto", "none", "z3", "s3"},
                          "z3: walk only schemes invariant under the cyclic shift (u,v,w) → (v,w,u)\n"
                          "(square formats, flip engine; Moosbauer–Poole 2025); s3: also under the\n"
                          "index reversal (i,j) ↦ (n−1−i, n−1−j), their 6-fold walk; none: never;\n"
                          "auto: a z3 walk beside a plain one where it applies"), "S"),
      flag("catalog", "also file new bests in the catalogue, as 'tdisc catalog add --if-better' does"),
      flag("meta", "meta flips: start from a catalogued scheme (--catalog-dir) of a neighbouring format carried\n"
                   "over by extend, project, merge or product, then flip walks (Kauers–Wood 2025)"),
      catalog_dir_flag(),
      with_metavar(text("recipes", nullptr, "the recipe table the plan reads (docs/recipes.md) [default: <catalog-dir>/recipes.json]"), "FILE"),
      flag("explain", "print the plan (recipe and why, engine, lanes, parameters, threads, device) and exit 0 without searching"),
      with_metavar(choice("lattice", nullptr, {"ternary", "integer", "half", "half-gaussian"},
                          "numeric engine: the lattice to round onto [default: by ring and rank]"), "L"),
      with_metavar(device("device", nullptr, "numeric engine: cpu, or cuda[:N] (a batch of restarts on GPU N; rounding\n"
                                             "and exact repair on the --threads CPU threads) [default: cuda:0 where a GPU is present, else cpu]"), "D"),
      with_metavar(text("params", nullptr, "engine parameters: a JSON object or @FILE (see --help-params)"), "JSON"),
      duration("checkpoint-every", "30s", 0.01, 86400, "longest time between checkpoints"),
      duration("mpi-exchange", "1s", 0, 86400, "under mpirun: period of the flip walks' pool exchange between ranks (0: none)"),
      integer("mpi-migrants", 8, 1, 100000, "under mpirun: states of a flip walk's pool sent per exchange, lowest rank first"),
      duration("mpi-timeout", "10s", 1, 86400, "under mpirun: a rank silent this long ends the job (checkpoint kept; docs/mpi.md)"),
      with_env(flag("quiet,q", "no progress line"), "-"),
      flag("report", "keep RUN_DIR/report.html up to date (rewritten at every checkpoint; see tdisc report)"),
      with_env(flag("help-params", "list every engine parameter (or only --engine's) with default and range"), "-")};
  for (Param& p : llm::search_flags()) rows.push_back(std::move(p));
  return rows;
}

}  // namespace

const Table& search_table() {
  static const Table t{
      "search",
      "tdisc search [--size NxMxP] [--rank R] [--ring RING] [--engine E] [--threads N] [--time T] …",
      "Searches for a rank-R scheme of ⟨n,m,p⟩; every improvement is verified exactly and written to the\n"
      "run directory. A bare 'tdisc search' looks for 3x3 rank 23 over ZT with the flip graph (seconds).\n"
      "--rank defaults to the best known integer rank of the format (table up to 5x5x5); --ring defaults\n"
      "to ZT, or to Q when the rank is below the best integer rank. Exit 0: target reached; 3: budget spent.",
      search_rows(),
      "",
      "TDISC_SEARCH_"};
  return t;
}

}  // namespace tdisc::cli
