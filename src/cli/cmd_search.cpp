// tdisc search: looks for a rank-R scheme of a format with an engine (flip graph, numerical, LLM)
// under the orchestrator; exit 0 when the target is reached, 3 when the budget ends first. The flags
// become a search::RunAsk; src/search/run.hpp plans, checks and runs it, under mpirun too.
#include <iostream>

#include "src/cli/catalog_verbs.hpp"
#include "src/cli/commands.hpp"
#include "src/cli/options.hpp"
#include "src/cli/progress.hpp"
#include "src/cli/tables.hpp"
#include "src/llm/flags.hpp"
#include "src/search/mpi/launch.hpp"
#include "src/search/run.hpp"

namespace tdisc::cli {

namespace {

search::RunAsk run_ask(const Settings& o, const Args& args, search::mpi::Lead* lead) {
  search::RunAsk a;
  a.plan.format = *parse_format(o.text("size"));  // a format of the table
  if (o.has("rank")) a.plan.rank = static_cast<int>(o.integer("rank"));
  if (o.has("ring")) a.plan.ring = *parse_ring(o.text("ring"));
  a.plan.engine = o.text("engine");
  a.plan.symmetry = o.text("symmetry");
  a.plan.lattice = o.maybe("lattice");
  a.plan.device = o.maybe("device");
  a.plan.catalogue_dir = catalogue_files(o).dir;
  a.plan.recipe_file = o.text("recipes");
  search::read_params(o.text("params"), a);
  a.llm = llm::params_from_flags(o);
  a.meta = o.flag("meta");
  a.threads = static_cast<int>(o.integer("threads"));
  a.seconds = o.number("time");
  a.checkpoint_seconds = o.number("checkpoint-every");
  if (o.has("seed")) a.seed = o.seed("seed");
  a.out_dir = o.text("out");
  a.from = o.maybe("from");
  a.catalog = o.flag("catalog");
  a.resume = o.text("resume");
  a.check_out_dir = !o.flag("explain");
  a.command = args;
  a.lead = lead;
  a.mpi = {o.number("mpi-exchange"), o.number("mpi-timeout"), 0.2, a.checkpoint_seconds, static_cast<int>(o.integer("mpi-migrants"))};
  return a;
}

// The values the program chose, recorded beside the given ones for the printout and run.json.
void record_derived(Settings& o, const search::PreparedRun& p) {
  const search::SearchRequest& r = p.request;
  if (!o.has("rank")) o.set("rank", r.target.rank, "derived");
  if (!o.has("ring")) o.set("ring", std::string(ring_name(r.target.ring)), "derived");
  if (o.text("engine") != r.engine && r.engine != "meta") o.set("engine", r.engine, "derived (auto)");  // --meta says meta
  if (o.integer("threads") == 0) o.set("threads", r.threads, p.plan.threads ? "derived (recipe " + p.plan.recipe + ")" : "derived (one per core)");
  if (!o.has("seed")) o.set("seed", r.seed, "derived (random)");
  if (!o.has("out")) o.set("out", r.out_dir, "derived");
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

void print_headline(const Settings& o, const search::PreparedRun& p) {
  const search::SearchRequest& r = p.request;
  const std::string ring(ring_name(r.target.ring));
  if (p.resumed()) {
    for (const std::string& note : p.notes) std::cerr << "tdisc: note: " << r.out_dir << ": " << note << "\n";
    std::cout << "tdisc search: resuming " << r.out_dir << " (" << r.target.format.str() << " rank " << r.target.rank << " over "
              << ring << ", engine " << r.engine << ", seed " << r.seed << ", " << seconds_text(p.checkpoint->value("elapsed", 0.0))
              << " done)\n";
    return;
  }
  std::cout << "tdisc search: " << r.target.format.str() << " rank " << r.target.rank << " over " << ring << ", engine "
            << r.engine << ", " << r.threads << " thread" << (r.threads > 1 ? "s" : "")
            << (p.ranks > 1 ? " on each of " + std::to_string(p.ranks) + " MPI ranks" : "") << ", seed " << r.seed
            << ", budget " << seconds_text(r.seconds) << "\n  run directory: " << r.out_dir << "\n  settings: " << o.effective()
            << "\n" << std::flush;
}

int search_here(Settings& o, const Args& args, search::mpi::Lead* lead) {
  search::PreparedRun p = search::prepare(run_ask(o, args, lead));
  if (!p.resumed()) record_derived(o, p);  // before the headline, whose settings line shows them
  print_headline(o, p);
  if (!p.resumed()) {
    p.request.request["settings"] = o.to_json();
    // Resolved after the headline, so a symmetry the target rules out is refused below it.
    std::cout << search::resolved_text(search::resolve(p));
    if (!p.plan.route.empty()) std::cout << "  route: " << p.plan.route << "\n";
    std::cout << "  recipe: " << p.plan.recipe_why << "\n" << std::flush;
    if (o.flag("explain")) {
      std::cout << "  device: " << search::device_line(p, true) << "\nexplain: nothing run, nothing written\n";
      return kOk;
    }
  }
  if (const std::string d = search::device_line(p, false); !d.empty()) std::cout << "  device: " << d << "\n" << std::flush;
  if (o.flag("report")) p.request.after_checkpoint = report_writer(p.request.out_dir);
  TerminalProgress progress;
  return finish(search::run(p, o.flag("quiet") ? nullptr : &progress), p.request);
}

// --help-params: the parameter table of each engine (only --engine's when one is named).
int help_params(const Settings& o) {
  for (const std::string& name : search::engine_names()) {
    if (o.text("engine") != "auto" && o.text("engine") != name) continue;
    auto engine = search::make_engine(name);
    if (const params::Table* t = engine ? engine->param_table() : nullptr) std::cout << params::params_text(*t) << "\n";
  }
  return kOk;
}

}  // namespace

int cmd_search(const Args& args) {
  Settings o = parse_options(search_table(), args);
  if (o.help) {
    std::cout << params::help_text(search_table());
    return kOk;
  }
  if (o.flag("help-params")) return help_params(o);
  return search::mpi::run_ranks([&](search::mpi::Lead* lead) { return search_here(o, args, lead); }, exit_code_of);
}

}  // namespace tdisc::cli
