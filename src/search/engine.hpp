// The contract between the orchestrator and a search engine (flip graph, numerical, LLM-driven).
// An engine walks; the orchestrator verifies independently, writes files, logs and checkpoints.
#pragma once
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "base/params/bind.hpp"
#include "base/params/settings.hpp"
#include "base/params/table.hpp"
#include "decomposition/scheme.hpp"

namespace tdisc::search {

struct Target {
  Format format;
  int rank = 0;
  Ring ring = Ring::Q;  // the ring the result must be valid over
};

// The other MPI ranks, as a facet of a run (src/search/mpi/): absent in a single process, where Reporter::ranks()
// gives nullptr. Island migration (islands.hpp): when exchange_due(walk), a walk hands out its pool
// (terms as in its checkpoint) and takes in the pools a neighbouring rank sent for the same walk.
// Jobs (jobs.hpp): the llm engine's proposals are evaluated by the other ranks while this one talks
// to the endpoint; run_jobs hands each job to one helper and waits for every result, in order.
class Ranks {
public:
  virtual ~Ranks() = default;
  virtual bool exchange_due(const std::string& walk) const = 0;
  virtual std::vector<nlohmann::json> exchange(const std::string& walk, const nlohmann::json& pool) = 0;
  virtual int helpers() const { return 0; }
  virtual std::vector<nlohmann::json> run_jobs(const std::string& kind, const std::vector<nlohmann::json>& jobs) { return {}; }
};

// What an engine may ask of the orchestrator: the run sink. Thread-safe: every walker thread may call it.
class Reporter {
public:
  virtual ~Reporter() = default;
  // Offers a scheme. The orchestrator verifies it exactly over the target ring (never trusting the
  // engine), and if it is valid and of lower rank than the best so far, writes best-r<R>.json and
  // logs it. Returns whether it was verified valid.
  virtual bool offer(const Scheme& s, const std::string& method) = 0;
  virtual void event(const nlohmann::json& e) = 0;  // one line of events.jsonl (src/search/events.hpp)
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
  // The MPI facet, nullptr in a single process (and for a walk nested in another: a meta round, an
  // LLM evaluation, which keep their pools to themselves).
  virtual Ranks* ranks() { return nullptr; }
};

// A decorator's base: forwards the run sink to base, so a decorator overrides only what it changes.
// The ranks facet is not passed on unless a decorator says so (LaneReporter: lanes are one walk
// each, as in a single process); nested walks keep to themselves as before.
class ForwardingReporter : public Reporter {
public:
  explicit ForwardingReporter(Reporter& base) : base_(base) {}
  bool offer(const Scheme& s, const std::string& method) override { return base_.offer(s, method); }
  void event(const nlohmann::json& e) override { base_.event(e); }
  void add(const std::string& counter, double delta) override { base_.add(counter, delta); }
  void set(const std::string& counter, double value) override { base_.set(counter, value); }
  bool stop_requested() const override { return base_.stop_requested(); }
  int best_rank() const override { return base_.best_rank(); }
  bool checkpoint_due() const override { return base_.checkpoint_due(); }
  void checkpoint(const nlohmann::json& state) override { base_.checkpoint(state); }

protected:
  Reporter& base() const { return base_; }

private:
  Reporter& base_;
};

// A recipe a flip portfolio runs as a lane beside the engine's own lanes (docs/recipes.md): the
// table row's id and its engine parameters (walk_ring, symmetry, params), under the run's own
// parameters, which win key by key in every lane.
struct LaneRecipe {
  std::string name;                                   // "4x4x4-47-GF2"
  nlohmann::json params = nlohmann::json::object();  // {"undo_dead_ends": true, …}
  friend bool operator==(const LaneRecipe&, const LaneRecipe&) = default;
};
nlohmann::json lane_recipes_json(const std::vector<LaneRecipe>& recipes);  // [{"id", "params"}, …]
// Throws InputError(origin) for a list that is not [{"id": TEXT, "params": OBJECT}, …].
std::vector<LaneRecipe> lane_recipes_from_json(const nlohmann::json& j, const std::string& origin);

struct EngineConfig {
  Target target;
  int threads = 1;
  unsigned long long seed = 0;
  double seconds = 0;              // wall-clock budget (0: until stopped)
  std::optional<Scheme> start;     // --from FILE, or a scheme handed over by another engine
  nlohmann::json params = nlohmann::json::object();  // engine parameters (the "recipe" body)
  std::optional<nlohmann::json> resume;  // last checkpoint state, for --resume
  std::string catalogue_dir;       // the catalogue (--catalog-dir): where the meta engine's starts come from
  std::vector<LaneRecipe> lane_recipes;  // a flip portfolio's recipe lanes (plan.hpp), nearest row first
};

// One block of an engine's effective parameters, each value with its origin (given, default, or
// "derived: RULE"); walk names the walk it belongs to where an engine runs several (flip lanes: "ZT z3").
struct ResolvedParams {
  std::string walk;
  params::Settings settings;
  std::string recipe;  // flip lanes: the recipe a lane runs ("default": the engine's own lane, else a table row's id)
  int threads = 0;     // flip lanes: the lane's threads at the start (0: not a lane)
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
  // Binds given, the config.params of the next resolve() and run(), once: the engine's one
  // validation (throws UsageError "WHERE: params.KEY: what is wrong; …", where: the flag or file they
  // came from), and the typed value that resolve() prints and run() walks, neither binding again.
  // Without this call, or for other config.params (a rank's own under mpirun, mpi/rank_config.cpp),
  // resolve() and run() bind config.params themselves. The default only validates.
  virtual void bind_params(const nlohmann::json& given, const std::string& where) { params::refuse(where, validate_params(given)); }
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
