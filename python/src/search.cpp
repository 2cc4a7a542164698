// tdisc.search: a search in this process, down the path tdisc search takes (src/cli/cmd_search.cpp):
// the plan (src/search/plan.hpp), an engine from the table, the orchestrator (which verifies every
// offer, writes the run directory, checkpoints and handles SIGINT). The GIL is released while it
// runs; the progress callback is called from the orchestrator's watcher thread, with the GIL.
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <filesystem>
#include <thread>

#include "base/error.hpp"
#include "base/io.hpp"
#include "base/params/table.hpp"
#include "decomposition/native.hpp"
#include "python/src/bindings.hpp"
#include "src/search/numeric/batch_device.hpp"
#include "src/search/orchestrator.hpp"
#include "src/search/plan.hpp"
#include "src/search/request.hpp"

namespace tdisc::python {

namespace {

using namespace pybind11::literals;
namespace fs = std::filesystem;

constexpr double kMaxBudgetSeconds = 30 * 86400.0;  // tdisc search --time's bound

// What tdisc.search returns: the outcome and where it is on disk.
struct SearchResult {
  bool reached = false;
  std::optional<int> best_rank;
  std::string best_file;
  double seconds = 0;
  bool interrupted = false;  // SIGINT/SIGTERM (KeyboardInterrupt) or the callback's stop
  bool cancelled = false;    // the progress callback asked to stop
  std::string run_dir;
  std::string size, ring, engine;
  std::string recipe, recipe_why;  // the plan's recipe: a table row's id or "portfolio", and why
  int rank = 0;
  unsigned long long seed = 0;
  std::vector<Scheme> schemes;  // the run directory's best-r<R>.json, each verified when written; best last
};

// The keyword arguments of tdisc.search, as tdisc search's options.
struct Ask {
  std::string size = "3x3";
  std::optional<int> rank;
  std::optional<std::string> ring;
  std::string engine = "auto";
  int threads = 0;
  double seconds = 600;
  std::optional<unsigned long long> seed;
  std::optional<std::string> out, resume;
  nlohmann::json params = nlohmann::json::object();
  std::optional<Scheme> start;
  std::string symmetry = "auto";
  std::optional<std::string> lattice, device;
  double checkpoint_every = 30;
  bool catalog = false;
  std::string catalog_dir;
  std::string plan_catalogue;          // where the plan finds recipes.json and ansätze ("": none)
  std::optional<std::string> recipes;  // the recipe table (tdisc search --recipes)
};

// time=: seconds, or a duration as tdisc search --time takes it ("90s", "10m", "unlimited").
double budget_seconds(py::handle time) {
  double s = 0;
  if (py::isinstance<py::str>(time)) {
    const std::string t = time.cast<std::string>();
    if (t == "unlimited") return 0;
    auto d = params::duration_seconds(t);
    if (!d) throw UsageError("time: \"" + t + "\" is not a duration (e.g. 90s, 10m, 2h) or unlimited");
    s = *d;
  } else {
    s = time.cast<double>();
  }
  if (!(s > 0)) throw UsageError("time: " + std::to_string(s) + " is no budget; give a positive duration, or \"unlimited\"");
  if (s > kMaxBudgetSeconds) throw UsageError("time: more than 30 days; give a shorter budget, or \"unlimited\"");
  return s;
}

nlohmann::json json_of(py::handle obj) {
  if (obj.is_none()) return nlohmann::json::object();
  const std::string text = py::module_::import("json").attr("dumps")(obj).cast<std::string>();
  nlohmann::json j = nlohmann::json::parse(text);
  if (!j.is_object()) throw UsageError("params: engine parameters must be a dict");
  return j;
}

// The progress callback behind the orchestrator's ProgressSink. A callback that returns False, or
// raises, stops the search (the exception is raised again once the search has ended cleanly).
class CallbackProgress : public search::ProgressSink {
public:
  CallbackProgress(py::object callback, std::atomic<bool>& cancel) : callback_(std::move(callback)), cancel_(cancel) {}
  ~CallbackProgress() override {
    py::gil_scoped_acquire gil;
    callback_ = py::object();
  }
  void update(const search::ProgressView& v) override {
    py::gil_scoped_acquire gil;
    if (error_) return;
    try {
      py::object answer = callback_(py::dict("elapsed"_a = v.elapsed, "session"_a = v.session,
                                             "best_rank"_a = v.best_rank ? py::object(py::int_(v.best_rank)) : py::none(),
                                             "target_rank"_a = v.target_rank, "counters"_a = v.counters));
      if (!answer.is_none() && !answer.cast<bool>()) cancel_ = true;
    } catch (py::error_already_set& e) {
      error_ = std::make_unique<py::error_already_set>(std::move(e));
      cancel_ = true;
    }
  }
  void rethrow() {
    if (error_) throw *error_;
  }

private:
  py::object callback_;
  std::atomic<bool>& cancel_;
  std::unique_ptr<py::error_already_set> error_;
};

int threads_or_cores(int threads) {
  return threads != 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

// A new run: tdisc search's search_here without MPI, the LLM engine or --report.
search::SearchRequest new_request(const Ask& a) {
  auto f = parse_format(a.size);
  if (!f) throw UsageError("size: \"" + a.size + "\" is not a format (e.g. 3x3, 2x3x4); every dimension must be ≥ 1");
  search::SearchAsk ask;
  ask.format = *f;
  ask.rank = a.rank;
  if (a.ring) {
    ask.ring = parse_ring(*a.ring);
    if (!ask.ring) throw UsageError("ring: \"" + *a.ring + "\" is not a ring (" + ring_list() + ")");
  }
  ask.engine = a.engine;
  ask.symmetry = a.symmetry;
  ask.lattice = a.lattice;
  ask.device = a.device;
  ask.catalogue_dir = a.plan_catalogue;
  if (a.recipes) ask.recipe_file = *a.recipes;
  if ((a.engine == "numeric" || a.engine == "auto") && !a.device && !a.params.contains("device"))
    ask.gpus = search::numeric::cuda_device_count();
  const search::SearchPlan plan = search::plan_search(ask);
  search::SearchRequest r;
  r.target = plan.target;
  r.engine = plan.engine;
  r.threads = search::planned_threads(plan, a.threads, threads_or_cores(0));
  r.seconds = a.seconds;
  r.checkpoint_seconds = a.checkpoint_every;
  r.seed = a.seed ? *a.seed : search::random_seed();
  r.params = search::planned_params(plan, a.params);  // the row's defaults < params= < the shorthands
  r.out_dir = a.out ? *a.out : search::default_run_dir(plan.target.format, plan.target.rank);
  r.catalog = a.catalog;
  r.catalog_dir = a.catalog_dir;
  if (a.start) {
    if (a.start->format != plan.target.format)
      throw UsageError("start: a " + a.start->format.str() + " scheme, not " + plan.target.format.str());
    r.start = a.start;
  }
  r.params.erase("llm");  // the llm engine's settings: the command line's only (engine_for says so)
  r.request = search::request_json({"python", "tdisc.search"}, plan, r);
  search::record_plan(r.request, plan);
  return r;
}

// resume=DIR: the run directory's request and checkpoint, as tdisc search --resume reads them.
search::SearchRequest resumed_request(const Ask& a, std::optional<nlohmann::json>& checkpoint) {
  search::Continuation c = search::continue_run(*a.resume);
  for (const std::string& note : c.notes)  // a warning, as the CLI's "tdisc: note:" lines
    if (PyErr_WarnEx(PyExc_UserWarning, (*a.resume + ": " + note).c_str(), 1) < 0) throw py::error_already_set();
  search::SearchRequest r = std::move(c.request);
  if (a.threads != 0) r.threads = a.threads;
  r.seconds = a.seconds;
  r.checkpoint_seconds = a.checkpoint_every;
  r.catalog = a.catalog;
  r.catalog_dir = a.catalog_dir;
  checkpoint = std::move(c.checkpoint);
  return r;
}

std::unique_ptr<search::Engine> engine_for(search::SearchRequest& r) {
  auto engine = search::make_engine(r.engine);
  if (!engine) throw UsageError("engine " + r.engine + " is not available from Python (the llm engine is the command line's)");
  r.params.erase("llm");
  engine->bind_params(r.params, "params");  // the one validation; run() walks this bound value
  return engine;
}

// best-r<R>.json of a run directory, highest rank first.
std::vector<Scheme> best_schemes(const std::string& dir) {
  std::vector<Scheme> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("best-r", 0) == 0 && e.path().extension() == ".json") out.push_back(read_native(e.path().string()));
  }
  std::sort(out.begin(), out.end(), [](const Scheme& a, const Scheme& b) { return a.rank() > b.rank(); });
  return out;
}

// The plan's recipe as run.json records it (a resumed run: as its first session recorded it).
nlohmann::json recorded_recipe(const search::SearchRequest& r) {
  if (r.request.contains("recipe")) return r.request["recipe"];
  try {
    const nlohmann::json run = nlohmann::json::parse(read_text_file(r.out_dir + "/run.json", InputKind::run_file));
    if (run.contains("recipe") && run["recipe"].is_object()) return run["recipe"];
  } catch (const std::exception&) {  // an older run.json without a recipe: none to tell
  }
  return nlohmann::json::object();
}

SearchResult run(const Ask& a, py::object progress) {
  std::optional<nlohmann::json> checkpoint;
  search::SearchRequest r = a.resume ? resumed_request(a, checkpoint) : new_request(a);
  auto engine = engine_for(r);
  std::atomic<bool> cancel{false};
  std::optional<CallbackProgress> sink;
  if (!progress.is_none()) r.progress = &sink.emplace(progress, cancel);
  r.cancel = &cancel;
  search::SearchOutcome out;
  {
    py::gil_scoped_release release;
    search::Orchestrator orch(r, std::move(checkpoint));
    out = orch.run(*engine);
  }
  if (sink) sink->rethrow();
  SearchResult res;
  res.reached = out.reached;
  if (out.best_rank != INT_MAX) res.best_rank = out.best_rank;
  res.best_file = out.best_file;
  res.seconds = out.seconds;
  res.interrupted = out.interrupted;
  res.cancelled = cancel.load();
  res.run_dir = r.out_dir;
  res.size = r.target.format.str();
  res.rank = r.target.rank;
  res.ring = std::string(ring_name(r.target.ring));
  res.engine = r.engine;
  res.seed = r.seed;
  const nlohmann::json recipe = recorded_recipe(r);
  res.recipe = recipe.value("id", std::string());
  res.recipe_why = recipe.value("why", std::string());
  res.schemes = best_schemes(r.out_dir);
  return res;
}

SearchResult search_py(const std::string& size, std::optional<int> rank, std::optional<std::string> ring,
                       const std::string& engine, int threads, py::object time, std::optional<unsigned long long> seed,
                       std::optional<std::string> out, py::object params, std::optional<Scheme> start,
                       const std::string& symmetry, std::optional<std::string> lattice, std::optional<std::string> device,
                       double checkpoint_every, bool catalog, const std::string& catalog_dir,
                       std::optional<std::string> resume, py::object progress, const std::string& plan_catalogue,
                       std::optional<std::string> recipes) {
  Ask a;
  a.size = size;
  a.rank = rank;
  a.ring = std::move(ring);
  a.engine = engine;
  if (threads < 0) throw UsageError("threads: " + std::to_string(threads) + " is below 0 (0: one per core)");
  a.threads = threads;
  a.seconds = time.is_none() ? 0 : budget_seconds(time);
  a.seed = seed;
  a.out = std::move(out);
  a.params = json_of(params);
  a.start = std::move(start);
  a.symmetry = symmetry;
  a.lattice = std::move(lattice);
  a.device = std::move(device);
  if (!(checkpoint_every >= 0.01)) throw UsageError("checkpoint_every: at least 0.01 seconds");
  a.checkpoint_every = checkpoint_every;
  a.catalog = catalog;
  a.catalog_dir = catalog_dir;
  a.plan_catalogue = plan_catalogue;
  a.recipes = std::move(recipes);
  a.resume = std::move(resume);
  return run(a, std::move(progress));
}

}  // namespace

void bind_search(py::module_& m) {
  py::class_<SearchResult>(m, "SearchResult", "how a search ended and where its files are")
      .def_readonly("reached", &SearchResult::reached, "a verified scheme of the target rank (or lower) was found")
      .def_readonly("best_rank", &SearchResult::best_rank)
      .def_readonly("best_file", &SearchResult::best_file)
      .def_readonly("seconds", &SearchResult::seconds)
      .def_readonly("interrupted", &SearchResult::interrupted)
      .def_readonly("cancelled", &SearchResult::cancelled)
      .def_readonly("run_dir", &SearchResult::run_dir)
      .def_readonly("size", &SearchResult::size)
      .def_readonly("rank", &SearchResult::rank, "the target rank")
      .def_readonly("ring", &SearchResult::ring)
      .def_readonly("engine", &SearchResult::engine)
      .def_readonly("seed", &SearchResult::seed)
      .def_readonly("recipe", &SearchResult::recipe, "the plan's recipe: the table row's id, or \"portfolio\" (docs/recipes.md)")
      .def_readonly("recipe_why", &SearchResult::recipe_why, "why that recipe: the row with its file and line, or no row fits")
      .def_readonly("schemes", &SearchResult::schemes, "the verified schemes the run wrote (best-r<R>.json), best last")
      .def("__repr__", [](const SearchResult& r) {
        return "<tdisc.SearchResult " + r.size + " rank " + std::to_string(r.rank) + " over " + r.ring + ": " +
               (r.reached ? "reached" : r.interrupted ? "interrupted" : "budget spent") + ", best rank " +
               (r.best_rank ? std::to_string(*r.best_rank) : "none") + ", " + r.run_dir + ">";
      });
  m.def("search", &search_py, py::kw_only(), "size"_a = "3x3", "rank"_a = py::none(), "ring"_a = py::none(),
        "engine"_a = "auto", "threads"_a = 0, "time"_a = "10m", "seed"_a = py::none(), "out"_a = py::none(),
        "params"_a = py::none(), "start"_a = py::none(), "symmetry"_a = "auto", "lattice"_a = py::none(),
        "device"_a = py::none(), "checkpoint_every"_a = 30.0, "catalog"_a = false, "catalog_dir"_a = "",
        "resume"_a = py::none(), "progress"_a = py::none(), "plan_catalogue"_a = "", "recipes"_a = py::none());
}

}  // namespace tdisc::python
