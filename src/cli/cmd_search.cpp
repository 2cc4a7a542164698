// tdisc search: looks for a rank-R scheme of a format with an engine (flip graph, numerical, LLM)
// under the orchestrator; exit 0 when the target is reached, 3 when the budget ends first.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <random>
#include <thread>

#include "decomposition/error.hpp"
#include "decomposition/io.hpp"
#include "decomposition/native.hpp"
#include "src/cli/commands.hpp"
#include "src/cli/options.hpp"
#include "src/search/known_ranks.hpp"
#include "src/search/mpi/follow.hpp"
#include "src/search/mpi/lead.hpp"
#include "src/search/mpi/rank_config.hpp"
#include "src/search/mpi/redistribute.hpp"
#include "src/search/numeric/lattice.hpp"
#include "src/search/orchestrator.hpp"
#include "src/search/progress.hpp"

namespace tdisc::cli {

namespace {

const OptionTable kSearchOptions{
    "search",
    "tdisc search [--size NxMxP] [--rank R] [--ring RING] [--engine E] [--threads N] [--time T] …",
    "Searches for a rank-R scheme of ⟨n,m,p⟩; every improvement is verified exactly and written to the\n"
    "run directory. A bare 'tdisc search' looks for 3x3 rank 23 over ZT with the flip graph (seconds).\n"
    "--rank defaults to the best known integer rank of the format (table up to 5x5x5); --ring defaults\n"
    "to ZT, or to Q when the rank is below the best integer rank. Exit 0: target reached; 3: budget spent.",
    {{"size", "NxMxP", "3x3", "format: 3x3 (square), 2x3x4, 234", "TDISC_SIZE"},
     {"rank", "R", "", "target rank [default: best known integer rank of the format]", "TDISC_RANK"},
     {"ring", "RING", "", "ZT, Z, Q, QI, GF2 or GF3 [default: ZT; Q below the best integer rank]", "TDISC_RING"},
     {"engine", "E", "auto", "auto, flip, numeric or llm (auto: llm when an endpoint is set, else flip for\n"
                             "                               ZT/Z/GF2/GF3 and for ranks ≥ the best integer rank, numeric below)", "TDISC_ENGINE"},
     {"threads", "N", "0", "walker threads (0: one per core)", "TDISC_THREADS"},
     {"time", "T", "10m", "wall-clock budget (90s, 10m, 2h)", "TDISC_TIME"},
     {"seed", "S", "", "random seed (random when absent; printed and stored)", "TDISC_SEED"},
     {"out", "DIR", "", "run directory [default: runs/<format>-r<R>-<timestamp>]", "TDISC_OUT"},
     {"resume", "DIR", "", "continue the run in DIR from its last checkpoint", ""},
     {"from", "FILE", "", "start from this native scheme instead of the standard algorithm", "TDISC_FROM"},
     {"symmetry", "S", "auto", "z3: walk only schemes invariant under the cyclic shift (u,v,w) → (v,w,u)\n"
                               "                               (square formats, flip engine; Moosbauer–Poole 2025); none: never;\n"
                               "                               auto: a z3 walk beside a plain one where it applies", "TDISC_SYMMETRY"},
     {"catalog", "", "", "also add new bests to algorithms/<format>/", "TDISC_CATALOG"},
     {"lattice", "L", "", "numeric engine: ternary, integer, half or half-gaussian [default: by ring and rank]", "TDISC_LATTICE"},
     {"params", "JSON", "", "engine parameters: a JSON object or @FILE (see the engine's defaults)", "TDISC_PARAMS"},
     {"checkpoint-every", "T", "30s", "longest time between checkpoints", "TDISC_CHECKPOINT_EVERY"},
     {"quiet,q", "", "", "no progress line", ""},
     {"mpi-exchange", "T", "1s", "under mpirun: period of the flip walks' pool exchange between ranks (0: none)", "TDISC_MPI_EXCHANGE"},
     {"mpi-timeout", "T", "10s", "under mpirun: a rank silent this long ends the job (checkpoint kept)", "TDISC_MPI_TIMEOUT"},
     {"llm-url", "URL", "", "OpenAI-compatible endpoint for the llm engine [env OPENAI_BASE_URL]", "TDISC_LLM_URL"},
     {"llm-model", "SPEC", "", "model, or a weighted mix \"a:0.8,b:0.2\"", "TDISC_LLM_MODEL"},
     {"llm-key-env", "VAR", "OPENAI_API_KEY", "environment variable holding the API key", "TDISC_LLM_KEY_ENV"},
     {"llm-max-calls", "N", "", "most LLM calls in this run", "TDISC_LLM_MAX_CALLS"},
     {"llm-max-tokens", "N", "", "most tokens in this run", "TDISC_LLM_MAX_TOKENS"},
     {"llm-proposals", "KIND", "", "what the LLM proposes: recipe or scheme", "TDISC_LLM_PROPOSALS"}},
    ""};

nlohmann::json parse_params(const std::string& text) {
  if (text.empty()) return nlohmann::json::object();
  std::string body = text, where = "--params";
  if (text[0] == '@') {
    where = text.substr(1);
    body = read_text_file(where);
  }
  try {
    nlohmann::json j = nlohmann::json::parse(body);
    if (!j.is_object()) throw UsageError(where + ": engine parameters must be a JSON object");
    return j;
  } catch (const nlohmann::json::exception& e) {
    throw UsageError(where + ": not valid JSON: " + e.what());
  }
}

nlohmann::json llm_params(const ParsedOptions& o) {
  nlohmann::json llm = nlohmann::json::object();
  // --llm-key-env → "key_env" and so on: the llm engine's own parameter names (src/llm/proposer/settings.cpp).
  for (const char* key : {"llm-url", "llm-model", "llm-key-env", "llm-proposals"})
    if (auto v = o.maybe(key)) {
      std::string name = std::string(key).substr(4);
      std::replace(name.begin(), name.end(), '-', '_');
      llm[name] = *v;
    }
  if (o.has("llm-max-calls")) llm["max_calls"] = o.integer("llm-max-calls", 0, 1000000000);
  if (o.has("llm-max-tokens")) llm["max_tokens"] = o.integer("llm-max-tokens", 0, 1L << 40);
  if (!llm.contains("url"))
    if (const char* e = std::getenv("OPENAI_BASE_URL"); e && *e) llm["url"] = e;
  return llm;
}

struct Plan {
  search::Target target;
  std::string engine;
};

Plan plan_target(const ParsedOptions& o) {
  auto f = parse_format(o.text("size"));
  if (!f) throw UsageError("--size: \"" + o.text("size") + "\" is not a format (e.g. 3x3, 2x3x4); every dimension must be ≥ 1");
  Plan plan;
  plan.target.format = *f;
  std::optional<int> best = search::best_integer_rank(*f);
  if (o.has("rank")) {
    plan.target.rank = static_cast<int>(o.integer("rank", 1, f->classical_rank()));
  } else if (best) {
    plan.target.rank = *best;
  } else {
    throw UsageError("--rank: required for " + f->str() + " (no best known rank in the built-in table)");
  }
  bool below_integer = best && plan.target.rank < *best;
  if (o.has("ring")) {
    auto r = parse_ring(o.text("ring"));
    if (!r) throw UsageError("--ring: unknown ring \"" + o.text("ring") + "\" (known: " + ring_list() + ")");
    plan.target.ring = *r;
  } else {
    plan.target.ring = below_integer ? Ring::Q : Ring::ZT;
  }
  std::string e = o.text("engine");
  if (e != "auto" && e != "flip" && e != "numeric" && e != "llm")
    throw UsageError("--engine: unknown engine \"" + e + "\" (known: auto, flip, numeric, llm)");
  if (e == "auto") {
    bool modular_or_integer = plan.target.ring == Ring::ZT || plan.target.ring == Ring::Z ||
                              ring_is_modular(plan.target.ring);
    if (llm_params(o).contains("url")) e = "llm";
    else e = (modular_or_integer || !below_integer) ? "flip" : "numeric";
    if (o.text("symmetry") == "z3") e = "flip";  // the only engine with symmetric walks
  }
  plan.engine = e;
  return plan;
}

// --symmetry z3: the flip engine's "symmetry" parameter, for square formats only.
void apply_symmetry(const ParsedOptions& o, const Plan& plan, nlohmann::json& params) {
  const std::string s = o.text("symmetry");
  if (s != "auto" && s != "none" && s != "z3") throw UsageError("--symmetry: unknown symmetry \"" + s + "\" (known: auto, none, z3)");
  if (s == "auto") return;  // the flip engine decides (lanes.hpp)
  if (s == "none") {
    if (plan.engine == "flip") params["symmetry"] = s;
    return;
  }
  const Format& f = plan.target.format;
  if (f.n != f.m || f.m != f.p)
    throw UsageError("--symmetry z3: needs a square format n×n×n (the cyclic shift (u,v,w) → (v,w,u) maps ⟨n,m,p⟩ to ⟨m,p,n⟩); " +
                     f.str() + " is not square");
  if (plan.engine != "flip")
    throw UsageError("--symmetry z3: only the flip engine walks symmetric schemes (engine here: " + plan.engine + ")");
  params["symmetry"] = s;
}

std::string default_out(const search::Target& t) {
  std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::gmtime(&now));
  return "runs/" + t.format.str() + "-r" + std::to_string(t.rank) + "-" + stamp;
}

unsigned long long pick_seed(const ParsedOptions& o) {
  if (!o.has("seed")) return std::random_device{}() ^ (static_cast<unsigned long long>(std::random_device{}()) << 32);
  std::string s = o.text("seed");
  char* end = nullptr;
  unsigned long long v = std::strtoull(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || s[0] == '-') throw UsageError("--seed: \"" + s + "\" is not a non-negative integer");
  return v;
}

nlohmann::json request_json(const Args& args, const Plan& plan, const search::SearchRequest& r) {
  return {{"format", "tdisc-run"}, {"version", 1}, {"command", args},
          {"target", {{"size", plan.target.format.str()}, {"rank", plan.target.rank},
                      {"ring", std::string(ring_name(plan.target.ring))}}},
          {"engine", plan.engine}, {"threads", r.threads}, {"seconds", r.seconds}, {"seed", r.seed},
          {"params", r.params}, {"from", r.start ? r.start->provenance.source : ""}};
}

// --mpi-*: the MPI settings (used only under mpirun; checked always, so a typo never waits for a cluster).
search::mpi::Settings mpi_settings(const ParsedOptions& o, double checkpoint_seconds) {
  search::mpi::Settings s;
  s.exchange_seconds = o.seconds("mpi-exchange");
  s.timeout_seconds = o.seconds("mpi-timeout");
  if (s.exchange_seconds < 0) throw UsageError("--mpi-exchange: must be 0 (no exchange) or positive");
  if (s.timeout_seconds < 1) throw UsageError("--mpi-timeout: must be at least 1s (ranks report every 0.2 s)");
  s.checkpoint_seconds = checkpoint_seconds;
  return s;
}

// Runs the orchestrator here; under mpirun (lead set) its engine drives the other ranks too.
search::SearchOutcome run_search(const ParsedOptions& o, const search::SearchRequest& r, std::optional<nlohmann::json> checkpoint,
                                 std::unique_ptr<search::Engine> engine, search::mpi::Lead* lead) {
  search::mpi::Settings settings = mpi_settings(o, r.checkpoint_seconds);
  if (lead) engine = lead->wrap(std::move(engine), settings);
  else if (checkpoint) checkpoint = search::mpi::gather_checkpoint(std::move(*checkpoint));  // an MPI run resumed in one process
  search::Orchestrator orch(r, std::move(checkpoint));
  return orch.run(*engine);
}

// The last lines of a search and its exit code: 0 when the target was reached, 3 otherwise.
int finish(const search::SearchOutcome& out, const search::SearchRequest& r) {
  if (out.reached) {
    std::cout << "reached rank " << out.best_rank << " in " << search::human_seconds(out.seconds) << ": " << out.best_file << "\n";
    return kOk;
  }
  std::cout << (out.interrupted ? "interrupted" : "budget spent") << " after " << search::human_seconds(out.seconds)
            << ": best rank " << (out.best_rank == INT_MAX ? std::string("none") : std::to_string(out.best_rank))
            << " (target " << r.target.rank << ")" << (out.best_file.empty() ? "" : ": " + out.best_file)
            << "\n  continue with: tdisc search --resume " << r.out_dir << "\n";
  return kNoTarget;
}

// --resume DIR: the target, engine, seed and parameters come from DIR/run.json; --time and
// --threads may be given again for the new session.
int resume_run(const ParsedOptions& o, const std::string& dir, search::mpi::Lead* lead) {
  search::RunDir probe(dir);
  auto request = probe.read_request();
  if (!request) throw UsageError("--resume: " + dir + " has no run.json (not a tdisc run directory)");
  auto checkpoint = probe.read_checkpoint();
  if (!checkpoint) throw UsageError("--resume: " + dir + " has no checkpoint.json yet (nothing to continue)");
  search::SearchRequest r;
  const auto& t = request->at("target");
  r.target = {*parse_format(t.at("size").get<std::string>()), t.at("rank").get<int>(), *parse_ring(t.at("ring").get<std::string>())};
  r.engine = request->at("engine").get<std::string>();
  r.threads = o.text("threads") != "0" ? static_cast<int>(o.integer("threads", 1, 1024)) : request->value("threads", 1);
  if (lead && o.text("threads") == "0") r.threads = search::mpi::threads_per_rank(static_cast<int>(std::thread::hardware_concurrency()), lead->world());
  r.seconds = o.seconds("time");
  r.seed = request->value("seed", 0ULL);
  r.params = request->value("params", nlohmann::json::object());
  r.out_dir = dir;
  r.checkpoint_seconds = o.seconds("checkpoint-every");
  r.quiet = o.flag("quiet");
  r.catalog = o.flag("catalog");
  auto engine = search::make_engine(r.engine);
  if (!engine) throw UsageError("engine " + r.engine + " is not available in this build");
  std::cout << "tdisc search: resuming " << dir << " (" << r.target.format.str() << " rank " << r.target.rank << " over "
            << ring_name(r.target.ring) << ", engine " << r.engine << ", seed " << r.seed << ", "
            << search::human_seconds(checkpoint->value("elapsed", 0.0)) << " done)\n";
  return finish(run_search(o, r, checkpoint, std::move(engine), lead), r);
}

int search_here(const ParsedOptions& o, const Args& args, search::mpi::Lead* lead) {
  if (o.has("resume")) return resume_run(o, o.text("resume"), lead);
  Plan plan = plan_target(o);
  search::SearchRequest r;
  r.target = plan.target;
  r.engine = plan.engine;
  long threads = o.integer("threads", 0, 1024);
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  r.threads = threads != 0 ? static_cast<int>(threads) : lead ? search::mpi::threads_per_rank(cores, lead->world()) : cores;
  r.seconds = o.seconds("time");
  r.checkpoint_seconds = o.seconds("checkpoint-every");
  if (r.checkpoint_seconds <= 0) throw UsageError("--checkpoint-every: must be positive");
  r.seed = pick_seed(o);
  r.params = parse_params(o.text("params"));
  if (o.has("lattice")) {  // a shorthand for --params '{"lattice":…}', checked here for a precise message
    const std::string l = o.text("lattice");
    if (!search::numeric::parse_lattice(l))
      throw UsageError("--lattice: unknown lattice \"" + l + "\" (known: ternary, integer, half, half-gaussian)");
    if (plan.engine != "numeric")
      throw UsageError("--lattice: only the numeric engine rounds onto a lattice (this search runs the " + plan.engine +
                       " engine; add --engine numeric)");
    r.params["lattice"] = l;
  }
  apply_symmetry(o, plan, r.params);
  r.out_dir = o.has("out") ? o.text("out") : default_out(plan.target);
  nlohmann::json llm = llm_params(o);
  if (plan.engine == "llm" && !llm.contains("run_dir")) llm["run_dir"] = r.out_dir;
  if (!llm.empty()) {  // --llm-* flags override, not replace, {"llm":{…}} given in --params
    if (!r.params.contains("llm") || !r.params["llm"].is_object()) r.params["llm"] = nlohmann::json::object();
    r.params["llm"].update(llm);
  }
  r.catalog = o.flag("catalog");
  r.quiet = o.flag("quiet");
  if (o.has("from")) {
    r.start = read_native(o.text("from"));
    if (r.start->format != plan.target.format)
      throw UsageError("--from: " + o.text("from") + " is a " + r.start->format.str() + " scheme, not " + plan.target.format.str());
    if (r.start->provenance.source.empty()) r.start->provenance.source = o.text("from");
  }
  auto engine = search::make_engine(plan.engine);
  if (!engine) throw UsageError("engine " + plan.engine + " is not available in this build");
  nlohmann::json engine_params = r.params;
  if (plan.engine != "llm") engine_params.erase("llm");
  if (auto problems = engine->validate_params(engine_params); !problems.empty()) {
    std::string msg = "--params: ";
    for (size_t k = 0; k < problems.size(); ++k) msg += (k ? "; " : "") + problems[k];
    throw UsageError(msg);
  }
  if (plan.engine != "llm") r.params = engine_params;
  r.request = request_json(args, plan, r);
  std::cout << "tdisc search: " << plan.target.format.str() << " rank " << plan.target.rank << " over "
            << ring_name(plan.target.ring) << ", engine " << plan.engine << ", " << r.threads << " thread"
            << (r.threads > 1 ? "s" : "") << (lead ? " on each of " + std::to_string(lead->world().size) + " MPI ranks" : "")
            << ", seed " << r.seed << ", budget " << search::human_seconds(r.seconds)
            << "\n  run directory: " << r.out_dir << "\n" << std::flush;
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
  ParsedOptions o = parse_options(kSearchOptions, args);
  if (o.help()) {
    std::cout << help_text(kSearchOptions);
    return kOk;
  }
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
