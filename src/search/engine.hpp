// The contract between the orchestrator and a search engine (flip graph, numerical, LLM-driven).
// An engine walks; the orchestrator verifies independently, writes files, logs and checkpoints.
#pragma once
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "base/params/settings.hpp"
#include "base/params/table.hpp"
#include "decomposition/scheme.hpp"

namespace tdisc::search {

struct Target {
  Format format;
  int rank = 0;
  Ring ring = Ring::Q;  // the ring the result must be valid over
};

// What an engine may ask of the orchestrator. Thread-safe: every walker thread may call it.
class Reporter {
public:
  virtual ~Reporter() = default;
  // Offers a scheme. The orchestrator verifies it exactly over the target ring (never trusting the
  // engine), and if it is valid and of lower rank than the best so far, writes best-r<R>.json and
  // logs it. Returns whether it was verified valid.
  virtual bool offer(const Scheme& s, const std::string& method) = 0;
  virtual void event(const nlohmann::json& e) = 0;  // one line of events.jsonl
  // Counters for the live progress line: "moves", "restarts", "lift_attempts", "lifts",
  // "residual", "exact_fraction", "rank". add() accumulates, set() overwrites.
  virtual void add(const std::string& counter, double delta) = 0;
  virtual void set(const std::string& counter, double value) = 0;
  virtual bool stop_requested() const = 0;  // budget spent, target reached, or SIGINT/SIGTERM
  virtual int best_rank() const = 0;        // lowest verified rank so far (INT_MAX when none)
  // Checkpointing: when due() says so (every ≤ 30 s, and at a signal), the engine hands over a
  // JSON state from which resume() can continue. Called from one thread at a time.
  virtual bool checkpoint_due() const = 0;
  virtual void checkpoint(const nlohmann::json& state) = 0;
  // Island migration between MPI ranks (src/search/mpi/islands.hpp): when exchange_due(walk), a walk
  // hands out its pool (terms as in its checkpoint) and takes in the pools a neighbouring rank sent
  // for the same walk. In a single process nothing is ever due and nothing arrives.
  virtual bool exchange_due(const std::string& walk) const { return false; }
  virtual std::vector<nlohmann::json> exchange(const std::string& walk, const nlohmann::json& pool) { return {}; }
  // MPI runs of the llm engine (src/search/mpi/jobs.hpp): the other ranks evaluate proposals while
  // this one talks to the endpoint. run_jobs hands each job to one of them and waits for every
  // result (in the order of the jobs). In a single process there are no helpers.
  virtual int helpers() const { return 0; }
  virtual std::vector<nlohmann::json> run_jobs(const std::string& kind, const std::vector<nlohmann::json>& jobs) { return {}; }
};

struct EngineConfig {
  Target target;
  int threads = 1;
  unsigned long long seed = 0;
  double seconds = 0;              // wall-clock budget (0: until stopped)
  std::optional<Scheme> start;     // --from FILE, or a scheme handed over by another engine
  nlohmann::json params = nlohmann::json::object();  // engine parameters (the "recipe" body)
  std::optional<nlohmann::json> resume;  // last checkpoint state, for --resume
};

// One block of an engine's effective parameters, each value with its origin (given, default, or
// "derived: RULE"); walk names the walk it belongs to where an engine runs several (flip lanes: "ZT z3").
struct ResolvedParams {
  std::string walk;
  params::Settings settings;
};

class Engine {
public:
  virtual ~Engine() = default;
  virtual std::string name() const = 0;
  // Parameters and their defaults; a recipe may override any of them.
  virtual nlohmann::json default_params() const = 0;
  // Empty when params are acceptable; otherwise one precise message per problem.
  virtual std::vector<std::string> validate_params(const nlohmann::json& params) const = 0;
  // The table behind default_params() and validate_params(): names, defaults, ranges, help
  // (--help-params, docs/parameters.md). nullptr for an engine without one.
  virtual const params::Table* param_table() const { return nullptr; }
  // The parameters run() will read, with their origins (the CLI prints them after its settings line
  // and stores them in run.json). Throws UsageError as run() would. Empty for an engine without a table.
  virtual std::vector<ResolvedParams> resolve(const EngineConfig& config) const { return {}; }
  // Runs until the target is reached, the budget is spent or a stop is requested.
  virtual void run(const EngineConfig& config, Reporter& reporter) = 0;
};

// "  params: plus_min=20000 (given) fresh=1 (derived: symmetric walk); 22 at their defaults", one line
// per block (the walk's name after "params" where there are several), and their run.json form.
std::string resolved_text(const std::vector<ResolvedParams>& blocks);
nlohmann::json resolved_json(const std::vector<ResolvedParams>& blocks);

// "flip", "numeric" (and "llm", registered by src/llm). nullptr for an unknown name.
std::unique_ptr<Engine> make_engine(const std::string& name);
std::vector<std::string> engine_names();

}  // namespace tdisc::search

namespace tdisc::search {
using EngineFactory = std::unique_ptr<Engine> (*)();
// Engines outside src/search (the LLM proposer) register themselves from the CLI at start-up.
void register_engine(const std::string& name, EngineFactory factory);
}  // namespace tdisc::search
