// One search from an ask to its outcome, for tdisc search, tdisc campaign and library callers: the
// plan (plan.hpp), the request (threads, seed, run directory, parameters), the engine from the
// registry, the parameters it will use with their origins, and the orchestrator. Under mpirun rank
// 0's Lead drives the other ranks (mpi/launch.hpp); each rank's thread share is decided here.
//
// A caller that prints between the steps (the CLI's headline, --explain) calls prepare, resolve and
// run in turn; one that does not calls run(ask, sink).
#pragma once
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/search/mpi/settings.hpp"
#include "src/search/orchestrator.hpp"
#include "src/search/plan.hpp"

namespace tdisc::search {

namespace mpi {
class Lead;
}

struct RunAsk {
  SearchAsk plan;                      // format, rank, ring, engine, symmetry, lattice, device, catalogue, recipes
  nlohmann::json params = nlohmann::json::object();  // engine parameters as given (--params)
  std::string params_source = "--params";            // where they came from, for messages ("FILE" of @FILE)
  nlohmann::json llm = nlohmann::json::object();     // the llm engine's settings from flags, over params.llm
  bool meta = false;                   // meta flips: starts from the catalogue's neighbouring formats
  int threads = 0;                     // 0: the recipe row's, else one per core (shared by the ranks of a host)
  double seconds = 600;                // wall-clock budget of this session (0: unlimited)
  double checkpoint_seconds = 30;
  std::optional<unsigned long long> seed;  // random when absent
  std::string out_dir;                 // empty: runs/<format>-r<R>-<timestamp>
  std::optional<std::string> from;     // a native scheme file to start from
  bool catalog = false;                // also file new bests in plan.catalogue_dir
  std::string resume;                  // a run directory to continue: target, engine, seed, params come from it
  bool check_out_dir = true;           // refuse an --out that holds another run (--explain writes nothing)
  nlohmann::json command = nlohmann::json::array();  // run.json's "command" (the arguments that asked)
  mpi::Lead* lead = nullptr;           // under mpirun, on rank 0
  mpi::Settings mpi;                   // --mpi-*: read only with a lead
};

// A search ready to run: its plan, its request (run.json's body in request.request), its engine.
struct PreparedRun {
  SearchPlan plan;
  SearchRequest request;
  std::unique_ptr<Engine> engine;
  std::optional<nlohmann::json> checkpoint;  // a resumed run's last checkpoint
  std::vector<std::string> notes;            // a resumed run: files skipped and why, a stale lock taken over
  std::map<std::string, std::string> origins;  // parameters the plan chose: key → "table row <id>", …
  mpi::Lead* lead = nullptr;
  int ranks = 1;                             // MPI ranks of the job
  mpi::Settings mpi;
  bool resumed() const { return checkpoint.has_value(); }
};

// --params TEXT: a JSON object, or @FILE; sets ask.params and ask.params_source (the file's name).
// Throws UsageError when it is no JSON object (for a flag's value, exit 1), IoError for a missing file.
void read_params(const std::string& text, RunAsk& ask);

// The plan and the request of ask, its parameters checked by the engine (UsageError "WHERE: params.KEY:
// what is wrong; …"), nothing written. A GPU is probed only where the answer matters: a numeric search
// (or auto) whose device neither --device nor the parameters choose.
PreparedRun prepare(const RunAsk& ask);
// The parameters the engine will use, each with its origin (given, default, "table row <id>",
// "derived: RULE"); also stored in run.json (request.request["resolved_params"]). Throws UsageError
// as the engine's run would (a symmetry the target rules out).
std::vector<ResolvedParams> resolve(PreparedRun& run);
// "NVIDIA H200 (cuda:0, …), 1584 restarts at once" for a numeric run on a GPU, "" otherwise; throws
// UsageError when the build has no CUDA or the device is missing. With explain, only the device the
// plan would use ("cpu (2 threads)"), nothing asked of the runtime.
std::string device_line(const PreparedRun& run, bool explain);
// Runs it: the orchestrator (the run directory, verification, checkpoints) around the engine, which
// under mpirun also drives the other ranks. progress: the live progress line (nullptr: none).
SearchOutcome run(PreparedRun& run, ProgressSink* progress);
// All of the above, for a caller that prints nothing in between.
SearchOutcome run(const RunAsk& ask, ProgressSink* progress);

}  // namespace tdisc::search
