// One search from an ask to its outcome (run.hpp): what tdisc search did between parsing its flags
// and printing its last line, for every caller alike.
#include "src/search/run.hpp"

#include <algorithm>
#include <thread>

#include "base/error.hpp"
#include "base/io.hpp"
#include "decomposition/json_input.hpp"
#include "decomposition/native.hpp"
#include "src/search/mpi/lead.hpp"
#include "src/search/mpi/rank_config.hpp"
#include "src/search/mpi/redistribute.hpp"
#include "src/search/numeric/batch_device.hpp"
#include "src/search/numeric/batch_engine.hpp"
#include "src/search/request.hpp"

namespace tdisc::search {

namespace {

int cores() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

// The threads of this process: asked, else the recipe row's, else one per core; under mpirun the
// host's cores are shared by its ranks (mpi/rank_config.hpp).
int threads_of(const RunAsk& ask, std::optional<int> recipe_threads) {
  if (ask.threads != 0) return ask.threads;
  if (ask.lead) return mpi::threads_per_rank(cores(), ask.lead->world());
  return recipe_threads.value_or(cores());
}

// The plan of a new run; the GPU count is asked of the runtime only where the device is open.
SearchPlan plan_of(const RunAsk& ask) {
  SearchAsk a = ask.plan;
  a.llm_endpoint = ask.llm.contains("url");
  const bool may_be_numeric = a.engine == "numeric" || a.engine == "auto";
  if (may_be_numeric && !a.device && !ask.params.contains("device")) a.gpus = numeric::cuda_device_count();
  SearchPlan plan = plan_search(a);
  if (ask.meta) {  // the meta walk drives the flip walkers from catalogued neighbours
    if (a.engine != "auto" && a.engine != "flip") throw UsageError("--meta: meta flips drive the flip engine, not " + a.engine);
    if (ask.from) throw UsageError("--meta: the starts come from the catalogue (--catalog-dir); --from cannot be combined with it");
    plan.engine = "meta";
    plan.lanes.clear();  // the meta walk runs plain lanes of its own
  }
  return plan;
}

// params.llm: the --llm-* flags over {"llm":{…}} of --params (the engine's run directory by default).
void merge_llm(const RunAsk& ask, const SearchPlan& plan, SearchRequest& r) {
  nlohmann::json llm = ask.llm;
  if (plan.engine == "llm" && !llm.contains("run_dir")) llm["run_dir"] = r.out_dir;
  if (llm.empty()) return;
  if (!r.params.contains("llm") || !r.params["llm"].is_object()) r.params["llm"] = nlohmann::json::object();
  r.params["llm"].update(llm);
}

std::unique_ptr<Engine> engine_named(const std::string& name) {
  auto engine = make_engine(name);
  if (!engine) throw UsageError("engine " + name + " is not available in this build");
  return engine;
}

// The parameters bound by the engine, once: its one validation, and the value resolve() prints and
// run() walks. An "llm" section rides along only for the llm engine.
void bind_params(Engine& engine, const std::string& where, nlohmann::json& params) {
  if (engine.name() != "llm") params.erase("llm");
  engine.bind_params(params, where);
}

std::optional<Scheme> start_of(const RunAsk& ask, const Format& format) {
  if (!ask.from) return std::nullopt;
  Scheme s = read_native(*ask.from);
  if (s.format != format) throw UsageError("--from: " + *ask.from + " is a " + s.format.str() + " scheme, not " + format.str());
  if (s.provenance.source.empty()) s.provenance.source = *ask.from;
  return s;
}

PreparedRun prepare_new(const RunAsk& ask) {
  PreparedRun p;
  p.plan = plan_of(ask);
  const SearchPlan& plan = p.plan;
  SearchRequest& r = p.request;
  r.target = plan.target;
  r.engine = plan.engine;
  r.threads = threads_of(ask, plan.threads);
  r.seconds = ask.seconds;
  r.checkpoint_seconds = ask.checkpoint_seconds;
  r.seed = ask.seed ? *ask.seed : random_seed();
  r.params = planned_params(plan, ask.params);  // the route < --params < the shorthands, key by key
  r.lane_recipes = plan.lanes;
  for (const auto& [key, origin] : plan.origins)  // a default of the plan that nothing asked over
    if (!ask.params.contains(key) && !plan.params.contains(key)) p.origins[key] = origin;
  r.out_dir = ask.out_dir.empty() ? default_run_dir(plan.target.format, plan.target.rank) : ask.out_dir;
  if (ask.check_out_dir) check_out_dir(r.out_dir);
  merge_llm(ask, plan, r);
  r.catalog = ask.catalog;
  r.catalog_dir = ask.plan.catalogue_dir;
  r.start = start_of(ask, plan.target.format);
  p.engine = engine_named(plan.engine);
  bind_params(*p.engine, ask.params_source, r.params);
  r.request = request_json(ask.command, plan, r);
  record_plan(r.request, plan);
  return p;
}

// --resume DIR: the target, engine, seed and parameters come from DIR/run.json; the budget, the
// threads and the catalogue from this ask.
PreparedRun prepare_resumed(const RunAsk& ask) {
  Continuation c = continue_run(ask.resume);
  PreparedRun p;
  p.request = std::move(c.request);
  p.notes = std::move(c.notes);
  p.checkpoint = std::move(c.checkpoint);
  SearchRequest& r = p.request;
  p.plan.target = r.target;
  p.plan.engine = r.engine;
  if (ask.threads != 0) r.threads = ask.threads;
  else if (ask.lead) r.threads = mpi::threads_per_rank(cores(), ask.lead->world());
  r.seconds = ask.seconds;
  r.checkpoint_seconds = ask.checkpoint_seconds;
  r.catalog = ask.catalog;
  r.catalog_dir = ask.plan.catalogue_dir;
  p.engine = engine_named(r.engine);
  return p;
}

}  // namespace

void read_params(const std::string& text, RunAsk& ask) {
  ask.params = nlohmann::json::object();
  if (text.empty()) return;
  const bool file = text[0] == '@';
  ask.params_source = file ? text.substr(1) : "--params";
  const std::string body = file ? read_text_file(ask.params_source, InputKind::params) : text;
  try {
    ask.params = parse_json_input(body, JsonSource{ask.params_source, "valid JSON", input_ceiling(InputKind::params)});
  } catch (const InputError& e) {  // a flag's value: exit 1, as for every bad flag
    throw UsageError(e.located());
  }
  if (!ask.params.is_object()) throw UsageError(ask.params_source + ": engine parameters must be a JSON object");
}

PreparedRun prepare(const RunAsk& ask) {
  PreparedRun p = ask.resume.empty() ? prepare_new(ask) : prepare_resumed(ask);
  p.lead = ask.lead;
  p.ranks = ask.lead ? ask.lead->world().size : 1;
  p.mpi = ask.mpi;
  p.mpi.checkpoint_seconds = p.request.checkpoint_seconds;
  return p;
}

std::vector<ResolvedParams> resolve(PreparedRun& run) {
  std::vector<ResolvedParams> blocks = run.engine->resolve(engine_config(run.request));
  for (ResolvedParams& b : blocks)  // a value the plan brought (a recipe row's) says where it came from
    for (const auto& [key, origin] : run.origins)
      if (b.settings.origin(key) == "given") b.settings.set(key, b.settings.value(key), origin);
  run.request.request["resolved_params"] = resolved_json(blocks);
  return blocks;
}

std::string device_line(const PreparedRun& run, bool explain) {
  const SearchRequest& r = run.request;
  const bool gpu = r.engine == "numeric" && r.params.value("device", "cpu") == "cuda";
  if (explain)
    return (gpu ? "cuda:" + std::to_string(r.params.value("gpu", 0)) : std::string("cpu")) + " (" + std::to_string(r.threads) +
           " thread" + (r.threads > 1 ? "s" : "") + ")";
  return gpu ? numeric::cuda_headline(r.target, r.params) : "";
}

SearchOutcome run(PreparedRun& run, ProgressSink* progress) {
  SearchRequest r = run.request;
  r.progress = progress;
  std::unique_ptr<Engine> engine = std::move(run.engine);
  std::optional<nlohmann::json> checkpoint = run.checkpoint;
  if (run.lead) engine = run.lead->wrap(std::move(engine), run.mpi);
  else if (checkpoint) checkpoint = mpi::gather_checkpoint(std::move(*checkpoint));  // an MPI run resumed in one process
  Orchestrator orch(r, std::move(checkpoint));
  return orch.run(*engine);
}

SearchOutcome run(const RunAsk& ask, ProgressSink* progress) {
  PreparedRun p = prepare(ask);
  resolve(p);
  return run(p, progress);
}

}  // namespace tdisc::search
