// tdisc search: looks for a rank-R scheme of a format with an engine (flip graph, numerical, LLM)
// under the orchestrator; exit 0 when the target is reached, 3 when the budget ends first.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <random>
#include <thread>

#include "base/error.hpp"
#include "base/io.hpp"
#include "decomposition/json_input.hpp"
#include "decomposition/native.hpp"
#include "generated/tdisc_version.hpp"
#include "src/cli/catalog_verbs.hpp"
#include "src/cli/commands.hpp"
#include "src/cli/options.hpp"
#include "src/cli/progress.hpp"
#include "src/cli/tables.hpp"
#include "src/llm/proposer/settings.hpp"
#include "src/report/pages.hpp"
#include "src/search/flip/meta_engine.hpp"
#include "src/search/mpi/follow.hpp"
#include "src/search/mpi/lead.hpp"
#include "src/search/mpi/rank_config.hpp"
#include "src/search/mpi/redistribute.hpp"
#include "src/search/numeric/batch_engine.hpp"
#include "src/search/orchestrator.hpp"
#include "src/search/plan.hpp"
#include "src/search/request.hpp"
#include "src/search/run_dir.hpp"
#include "src/search/run_lock.hpp"

namespace tdisc::cli {

namespace {

constexpr double kMaxBudgetSeconds = 30 * 86400.0;

// --llm-<name>: the llm engine's own setting <name> (src/llm/proposer/settings.cpp), with its kind,
// range and help; no default here, so an unset flag leaves the engine's default (shown in the help).
params::Param llm_flag(const std::string& key, const std::string& metavar) {
  params::Param p = *llm::llm_table().find(key);
  std::string name = "llm-" + key;
  std::replace(name.begin(), name.end(), '_', '-');
  p.name = name;
  if (!p.fallback.is_null() && p.fallback != "") p.help += " [llm default: " + params::show(p, p.fallback) + "]";
  p.fallback = nullptr;
  p.metavar = metavar;
  return p;
}

}  // namespace

// --catalog-dir: the catalogue `tdisc catalog` reads, with its --dir's meaning and TDISC_CATALOG_DIR.
params::Param catalog_dir_flag() {
  params::Param p = catalogue_dir_param();
  p.name = "catalog-dir";
  return p;
}

const Table& search_table() {
  using namespace params;
  static const Table t{
      "search",
      "tdisc search [--size NxMxP] [--rank R] [--ring RING] [--engine E] [--threads N] [--time T] …",
      "Searches for a rank-R scheme of ⟨n,m,p⟩; every improvement is verified exactly and written to the\n"
      "run directory. A bare 'tdisc search' looks for 3x3 rank 23 over ZT with the flip graph (seconds).\n"
      "--rank defaults to the best known integer rank of the format (table up to 5x5x5); --ring defaults\n"
      "to ZT, or to Q when the rank is below the best integer rank. Exit 0: target reached; 3: budget spent.",
      {with_metavar(text("size", "3x3", "format: 3x3 (square), 2x3x4, 234"), "NxMxP"),
       with_metavar(integer("rank", nullptr, 1, 1e6, "target rank (at most the classical n·m·p) [default: best known integer rank of the format]"), "R"),
       with_metavar(choice("ring", nullptr, {"ZT", "Z", "Q", "QI", "GF2", "GF3"}, "ring the result must be valid over [default: ZT; Q below the best integer rank]"), "RING"),
       with_metavar(choice("engine", "auto", {"auto", "flip", "numeric", "llm"},
                           "auto: llm when an endpoint is set, else flip for ZT/Z/GF2/GF3 and for ranks\n"
                           "≥ the best integer rank, numeric below"), "E"),
       integer("threads", 0, 0, 1024, "walker threads (0: one per core)"),
       with_metavar(text("time", "10m", "wall-clock budget (90s, 10m, 2h; more than 0, at most 30d), or unlimited"), "T"),
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
       with_metavar(text("device", nullptr, "numeric engine: cpu, or cuda[:N] (a batch of restarts on GPU N; rounding\n"
                                            "and exact repair on the --threads CPU threads) [default: cuda:0 where a GPU is present, else cpu]"), "D"),
       with_metavar(text("params", nullptr, "engine parameters: a JSON object or @FILE (see --help-params)"), "JSON"),
       duration("checkpoint-every", "30s", 0.01, 86400, "longest time between checkpoints"),
              duration("mpi-exchange", "1s", 0, 86400, "under mpirun: period of the flip walks' pool exchange between ranks (0: none)"),
       integer("mpi-migrants", 8, 1, 100000, "under mpirun: states of a flip walk's pool sent per exchange, lowest rank first"),
       duration("mpi-timeout", "10s", 1, 86400, "under mpirun: a rank silent this long ends the job (checkpoint kept; docs/mpi.md)"),
       with_env(flag("quiet,q", "no progress line"), "-"),
       flag("report", "keep RUN_DIR/report.html up to date (rewritten at every checkpoint; see tdisc report)"),
       with_env(flag("help-params", "list every engine parameter (or only --engine's) with default and range"), "-"),
       llm_flag("url", "URL"), llm_flag("model", "SPEC"), llm_flag("key_env", "VAR"),
       llm_flag("max_calls", "N"), llm_flag("max_tokens", "N"), llm_flag("proposals", "KIND"),
       llm_flag("concurrency", "K"), llm_flag("max_cost", "USD"), llm_flag("eval_seconds", "T")},
      "",
      "TDISC_SEARCH_"};
  return t;
}

namespace {

// Where --params came from, for messages: the file of @FILE, else "--params".
std::string params_source(const std::string& text) { return !text.empty() && text[0] == '@' ? text.substr(1) : "--params"; }

nlohmann::json parse_params(const std::string& text) {
  if (text.empty()) return nlohmann::json::object();
  std::string body = text, where = params_source(text);
  if (text[0] == '@') {
    where = text.substr(1);
    body = read_text_file(where, InputKind::params);
  }
  nlohmann::json j;
  try {
    j = parse_json_input(body, JsonSource{where, "valid JSON", input_ceiling(InputKind::params)});
  } catch (const InputError& e) {  // a flag's value: exit 1, as for every bad flag
    throw UsageError(e.located());
  }
  if (!j.is_object()) throw UsageError(where + ": engine parameters must be a JSON object");
  return j;
}

nlohmann::json llm_params(const Settings& o) {
  nlohmann::json llm = nlohmann::json::object();
  for (const params::Param& p : o.table().params)  // --llm-key-env → the llm engine's "key_env"
    if (std::string name = p.long_name(); name.rfind("llm-", 0) == 0 && o.has(name)) {
      std::string key = name.substr(4);
      std::replace(key.begin(), key.end(), '-', '_');
      llm[key] = o.value(name);
    }
  if (!llm.contains("url"))
    if (const char* e = std::getenv("OPENAI_BASE_URL"); e && *e) llm["url"] = e;
  return llm;
}

// The command line's ask; the plan (default rank and ring, the engine auto picks, the shorthands)
// comes from src/search/plan.hpp, so a library caller gets the same answer.
// given: --params, parsed once by the caller.
search::SearchPlan plan_target(const Settings& o, const nlohmann::json& given) {
  auto f = parse_format(o.text("size"));
  if (!f) throw UsageError("--size: \"" + o.text("size") + "\" is not a format (e.g. 3x3, 2x3x4); every dimension must be ≥ 1");
  search::SearchAsk ask;
  ask.format = *f;
  if (o.has("rank")) ask.rank = static_cast<int>(o.integer("rank"));
  if (o.has("ring")) ask.ring = *parse_ring(o.text("ring"));  // a choice of the table
  ask.engine = o.text("engine");
  ask.llm_endpoint = llm_params(o).contains("url");
  ask.symmetry = o.text("symmetry");
  if (o.has("lattice")) ask.lattice = o.text("lattice");
  if (o.has("device")) ask.device = o.text("device");
  ask.catalogue_dir = o.has("catalog-dir") ? o.text("catalog-dir") : default_catalogue_dir();
  if (o.has("recipes")) ask.recipe_file = o.text("recipes");
  // Probed only where the answer matters: a numeric search whose device is not chosen already.
  const bool may_be_numeric = ask.engine == "numeric" || ask.engine == "auto";
  if (may_be_numeric && !ask.device && !given.contains("device"))
    ask.gpus = search::numeric::cuda_device_count();
  search::SearchPlan plan = search::plan_search(ask);
  if (o.flag("meta")) {  // the meta walk drives the flip walkers from catalogued neighbours
    if (o.text("engine") != "auto" && o.text("engine") != "flip")
      throw UsageError("--meta: meta flips drive the flip engine, not " + o.text("engine"));
    if (o.has("from")) throw UsageError("--meta: the starts come from the catalogue (--catalog-dir); --from cannot be combined with it");
    plan.engine = "meta";
  }
  return plan;
}

unsigned long long pick_seed(const Settings& o) { return o.has("seed") ? o.seed("seed") : search::random_seed(); }

// --mpi-*: the MPI settings (read only under mpirun).
search::mpi::Settings mpi_settings(const Settings& o, double checkpoint_seconds) {
  search::mpi::Settings s;
  s.exchange_seconds = o.number("mpi-exchange");
  s.timeout_seconds = o.number("mpi-timeout");
  s.migrants = static_cast<int>(o.integer("mpi-migrants"));
  s.checkpoint_seconds = checkpoint_seconds;
  return s;
}

// Runs the orchestrator here; under mpirun (lead set) its engine drives the other ranks too.
search::SearchOutcome run_search(const Settings& o, search::SearchRequest r, std::optional<nlohmann::json> checkpoint,
                                 std::unique_ptr<search::Engine> engine, search::mpi::Lead* lead) {
  TerminalProgress progress;
  if (!o.flag("quiet")) r.progress = &progress;
  if (lead) engine = lead->wrap(std::move(engine), mpi_settings(o, r.checkpoint_seconds));
  else if (checkpoint) checkpoint = search::mpi::gather_checkpoint(std::move(*checkpoint));  // an MPI run resumed in one process
  search::Orchestrator orch(r, std::move(checkpoint));
  return orch.run(*engine);
}

// The last lines of a search and its exit code: 0 when the target was reached, 3 otherwise.
int finish(const search::SearchOutcome& out, const search::SearchRequest& r) {
  if (r.after_checkpoint) {  // --report: the page once more, with the "finished" event in it
    r.after_checkpoint();
    std::cout << "report: " << r.out_dir << "/report.html\n";
  }
  if (out.reached) {
    std::cout << "reached rank " << out.best_rank << " in " << seconds_text(out.seconds) << ": " << out.best_file << "\n";
    return kOk;
  }
  std::cout << (out.interrupted ? "interrupted" : "budget spent") << " after " << seconds_text(out.seconds)
            << ": best rank " << (out.best_rank == INT_MAX ? std::string("none") : std::to_string(out.best_rank))
            << " (target " << r.target.rank << ")" << (out.best_file.empty() ? "" : ": " + out.best_file) << "\n";
  if (r.engine != "meta") std::cout << "  continue with: tdisc search --resume " << r.out_dir << "\n";  // meta runs do not checkpoint
  return kNoTarget;
}

// --report: the run's page is rewritten after every checkpoint and at the end, atomically, so a
// browser tab on it can be refreshed during the run.
void attach_report(const Settings& o, search::SearchRequest& r) {
  if (!o.flag("report")) return;
  const std::string dir = r.out_dir;
  r.after_checkpoint = [dir] { report::write_run_report(dir, dir + "/report.html"); };
}

// Before a GPU run starts: which device and how many restarts at once (or why not, exit 1).
void print_device(const search::Target& target, const std::string& engine, const nlohmann::json& params) {
  if (engine != "numeric" || params.value("device", "cpu") != "cuda") return;
  const std::string headline = search::numeric::cuda_headline(target, params);  // throws before printing
  std::cout << "  device: " << headline << "\n" << std::flush;
}

// --time: a positive duration of at most 30 days, or "unlimited" (0 internally: no limit). 0 used
// to mean unlimited silently, and a huge value overflowed the deadline arithmetic.
double budget_seconds(const Settings& o) {
  const std::string t = o.text("time");
  if (t == "unlimited") return 0;
  auto s = params::duration_seconds(t);
  if (!s) throw UsageError("--time: \"" + t + "\" is not a duration (e.g. 90s, 10m, 2h) or unlimited");
  if (*s <= 0) throw UsageError("--time: \"" + t + "\" is no budget; give a positive duration, or --time unlimited");
  if (*s > kMaxBudgetSeconds)
    throw UsageError("--time: \"" + t + "\" is more than 30 days; give a shorter budget, or --time unlimited");
  return *s;
}

// --resume DIR: the target, engine, seed and parameters come from DIR/run.json; --time and
// --threads may be given again for the new session. A run.json or checkpoint.json that is not this
// run's is refused (exit 2) and left as it is; the best rank is what the verified best files prove
// (search/run_lock.hpp), and a run killed before its first checkpoint continues from its best file.
int resume_run(const Settings& o, const std::string& dir, search::mpi::Lead* lead) {
  search::Continuation c = search::continue_run(dir);
  for (const std::string& note : c.notes) std::cerr << "tdisc: note: " << dir << ": " << note << "\n";
  search::SearchRequest r = std::move(c.request);
  if (o.integer("threads") != 0) r.threads = static_cast<int>(o.integer("threads"));
  if (lead && o.integer("threads") == 0) r.threads = search::mpi::threads_per_rank(static_cast<int>(std::thread::hardware_concurrency()), lead->world());
  r.seconds = budget_seconds(o);
  r.checkpoint_seconds = o.number("checkpoint-every");
  auto checkpoint = std::optional<nlohmann::json>(std::move(c.checkpoint));
  r.catalog = o.flag("catalog");
  r.catalog_dir = o.has("catalog-dir") ? o.text("catalog-dir") : default_catalogue_dir();
  auto engine = search::make_engine(r.engine);
  if (!engine) throw UsageError("engine " + r.engine + " is not available in this build");
  std::cout << "tdisc search: resuming " << dir << " (" << r.target.format.str() << " rank " << r.target.rank << " over "
            << ring_name(r.target.ring) << ", engine " << r.engine << ", seed " << r.seed << ", "
            << seconds_text(checkpoint->value("elapsed", 0.0)) << " done)\n";
  attach_report(o, r);
  print_device(r.target, r.engine, r.params);
  return finish(run_search(o, r, checkpoint, std::move(engine), lead), r);
}

}  // namespace

// --help-params: the parameter table of each engine (only --engine's when one is named).
int help_params(const Settings& o) {
  for (const std::string& name : search::engine_names()) {
    if (o.text("engine") != "auto" && o.text("engine") != name) continue;
    auto engine = search::make_engine(name);
    if (const params::Table* t = engine ? engine->param_table() : nullptr) std::cout << params::params_text(*t) << "\n";
  }
  return kOk;
}

// The values the program chose, recorded beside the given ones for the printout and run.json.
void record_derived(Settings& o, const search::SearchPlan& plan, const search::SearchRequest& r) {
  if (!o.has("rank")) o.set("rank", plan.target.rank, "derived");
  if (!o.has("ring")) o.set("ring", std::string(ring_name(plan.target.ring)), "derived");
  if (o.text("engine") != plan.engine && plan.engine != "meta") o.set("engine", plan.engine, "derived (auto)");  // --meta says meta
  if (o.integer("threads") == 0) o.set("threads", r.threads, plan.threads ? "derived (recipe " + plan.recipe + ")" : "derived (one per core)");
  if (!o.has("seed")) o.set("seed", r.seed, "derived (random)");
  if (!o.has("out")) o.set("out", r.out_dir, "derived");
}

namespace {

// --explain: the device the plan would use, and nothing run or written.
int explain_end(const search::SearchPlan& plan, const search::SearchRequest& r) {
  const bool gpu = plan.engine == "numeric" && r.params.value("device", "cpu") == "cuda";
  std::cout << "  device: " << (gpu ? "cuda:" + std::to_string(r.params.value("gpu", 0)) : std::string("cpu")) << " ("
            << r.threads << " thread" << (r.threads > 1 ? "s" : "") << ")\n"
            << "explain: nothing run, nothing written\n";
  return kOk;
}

int search_here(Settings& o, const Args& args, search::mpi::Lead* lead) {
  if (o.has("resume")) return resume_run(o, o.text("resume"), lead);
  const nlohmann::json given = parse_params(o.text("params"));
  const search::SearchPlan plan = plan_target(o, given);
  search::SearchRequest r;
  r.target = plan.target;
  r.engine = plan.engine;
  const long long threads = o.integer("threads");
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  r.threads = threads != 0 ? static_cast<int>(threads) : lead ? search::mpi::threads_per_rank(cores, lead->world()) : plan.threads.value_or(cores);
  r.seconds = budget_seconds(o);
  r.checkpoint_seconds = o.number("checkpoint-every");
  r.seed = pick_seed(o);
  r.params = plan.defaults;  // the measured route, overridden key by key by --params
  r.params.update(given);
  r.params.update(plan.params);  // the shorthands --lattice and --symmetry win over --params
  r.out_dir = o.has("out") ? o.text("out") : search::default_run_dir(plan.target.format, plan.target.rank);
  if (!o.flag("explain")) search::check_out_dir(r.out_dir);
  nlohmann::json llm = llm_params(o);
  if (plan.engine == "llm" && !llm.contains("run_dir")) llm["run_dir"] = r.out_dir;
  if (!llm.empty()) {  // --llm-* flags override, not replace, {"llm":{…}} given in --params
    if (!r.params.contains("llm") || !r.params["llm"].is_object()) r.params["llm"] = nlohmann::json::object();
    r.params["llm"].update(llm);
  }
  r.catalog = o.flag("catalog");
  r.catalog_dir = o.has("catalog-dir") ? o.text("catalog-dir") : default_catalogue_dir();
  if (plan.engine == "meta") r.params["catalogue"] = r.catalog_dir;  // where the meta starts come from
  if (o.has("from")) {
    r.start = read_native(o.text("from"));
    if (r.start->format != plan.target.format)
      throw UsageError("--from: " + o.text("from") + " is a " + r.start->format.str() + " scheme, not " + plan.target.format.str());
    if (r.start->provenance.source.empty()) r.start->provenance.source = o.text("from");
  }
  // The meta walk is not in the engine table: it needs a catalogue, which recipes (llm) do not carry.
  auto engine = plan.engine == "meta" ? search::make_meta_engine() : search::make_engine(plan.engine);
  if (!engine) throw UsageError("engine " + plan.engine + " is not available in this build");
  nlohmann::json engine_params = r.params;
  if (plan.engine != "llm") engine_params.erase("llm");
  if (auto problems = engine->validate_params(engine_params); !problems.empty()) {
    std::string msg = params_source(o.text("params")) + ": ";
    for (size_t k = 0; k < problems.size(); ++k) msg += (k ? "; " : "") + problems[k];
    throw UsageError(msg);
  }
  if (plan.engine != "llm") r.params = engine_params;
  record_derived(o, plan, r);
  r.request = search::request_json(args, plan, r);
  r.request["settings"] = o.to_json();
  if (!plan.route.empty()) r.request["route"] = plan.route;
  r.request["recipe"] = {{"id", plan.recipe}, {"why", plan.recipe_why}, {"row", plan.recipe_row}};
  std::cout << "tdisc search: " << plan.target.format.str() << " rank " << plan.target.rank << " over "
            << ring_name(plan.target.ring) << ", engine " << plan.engine << ", " << r.threads << " thread"
            << (r.threads > 1 ? "s" : "") << (lead ? " on each of " + std::to_string(lead->world().size) + " MPI ranks" : "")
            << ", seed " << r.seed << ", budget " << seconds_text(r.seconds)
            << "\n  run directory: " << r.out_dir << "\n  settings: " << o.effective() << "\n" << std::flush;
  // Resolved after the headline, so a symmetry the target rules out is refused below it, as before.
  const std::vector<search::ResolvedParams> resolved = engine->resolve(search::engine_config(r));
  r.request["resolved_params"] = search::resolved_json(resolved);
  std::cout << search::resolved_text(resolved);
  if (!plan.route.empty()) std::cout << "  route: " << plan.route << "\n";
  std::cout << "  recipe: " << plan.recipe_why << "\n" << std::flush;
  if (o.flag("explain")) return explain_end(plan, r);
  print_device(plan.target, plan.engine, r.params);
  attach_report(o, r);
  return finish(run_search(o, r, std::nullopt, std::move(engine), lead), r);
}

int exit_code_of(std::exception_ptr e) {
  try {
    std::rethrow_exception(e);
  } catch (const IoError&) {
    return kUsage;
  } catch (const InputError&) {
    return kInvalid;
  } catch (...) {
    return kUsage;
  }
}

}  // namespace

// Under mpirun (docs/mpi.md) rank 0 runs the search as a single process would, its engine driving
// the others; the other ranks take their setup from rank 0 and never read the command line further.
int cmd_search(const Args& args) {
  Settings o = parse_options(search_table(), args);
  if (o.help) {
    std::cout << params::help_text(search_table());
    return kOk;
  }
  if (o.flag("help-params")) return help_params(o);
  if (!search::mpi::launched()) return search_here(o, args, nullptr);
  const search::mpi::World world = search::mpi::init();
  if (world.rank != 0) return search::mpi::follow(world);
  search::mpi::Lead lead(world);
  int code = kOk;
  try {
    code = search_here(o, args, &lead);
  } catch (...) {
    lead.cancel(exit_code_of(std::current_exception()));
    throw;
  }
  return lead.close(code);
}

}  // namespace tdisc::cli
