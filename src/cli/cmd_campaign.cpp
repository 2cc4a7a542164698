// tdisc campaign FILE: many search targets at once, sharing this machine's cores (or the ranks of
// mpirun), each checkpointed in its own run directory, resumable after kill -9, every reached target
// verified and filed (docs/campaign.md). tdisc campaign --status DIR prints where it stands.
#include <filesystem>
#include <iostream>
#include <thread>

#include "base/error.hpp"
#include "src/campaign/mpi_share.hpp"
#include "src/campaign/runner.hpp"
#include "src/cli/catalog_verbs.hpp"
#include "src/cli/commands.hpp"
#include "src/cli/options.hpp"
#include "src/cli/tables.hpp"
#include "src/report/html.hpp"
#include "src/search/mpi/world.hpp"
#include "src/search/request.hpp"
#include "src/search/run/lock.hpp"

namespace tdisc::cli {

namespace fs = std::filesystem;

const params::Table& campaign_table() {
  using namespace params;
  static const Table t{
      "campaign",
      "tdisc campaign FILE [--threads N] [--time T] [--dir DIR] [--catalog DIR] [--seed S] [--catalog-dir DIR] [--rings FILE] "
      "[--sota FILE] | tdisc campaign --status DIR",
      "Runs every target of FILE (one a line: FORMAT RING [reach=R|beat=B] [time=T] [from=FILE|catalogue]\n"
      "[engine=E] [symmetry=S] [recipes=FILE] [params=JSON]; docs/campaign.md) as a tdisc search sharing the threads; a\n"
      "finished target's threads go to the others. Each target checkpoints in DIR/<target>; DIR/campaign.json\n"
      "keeps status, best rank, seconds, run directory and seed. The same command again continues after\n"
      "an end or a kill -9. Exit 0: every target reached; 3: some not.",
      {integer("threads", 0, 0, 4096, "threads shared by the targets (0: one per core; under mpirun: per rank)"),
       with_metavar(text("time", "10m", "the campaign's wall-clock budget over all its sessions (90s, 10m, 2h; at most 30d)"), "T"),
       with_metavar(text("dir", nullptr, "campaign directory [default: runs/campaign-<FILE's name>]"), "DIR"),
       with_metavar(text("catalog", nullptr, "file every verified target reached (or best known beaten) into this catalogue and\n"
                                             "rewrite its INDEX.md (algorithms: the repository's) [default: none, run directories only]"), "DIR"),
       seed("seed", nullptr, "campaign seed; each target's seed derives from it (random when absent; printed and stored)"),
       with_metavar(text("status", nullptr, "print the campaign in DIR (target, ring, rank to beat, best, time, state) and exit"), "DIR"),
       duration("checkpoint-every", "10s", 0.01, 86400, "each search's longest time between checkpoints"),
       flag("skip-missing", "skip a target whose from= file is missing (with a note) instead of refusing the list"),
       with_env(flag("quiet,q", "no line per event"), "-"),
       catalog_dir_flag(),    // from=catalogue starts, and each search's recipe table and ansätze
       known_rings_param(),   // the rank to beat of a target without beat= or reach=
       best_known_param()},   // --catalog's INDEX.md
      "FILE",
      "TDISC_CAMPAIGN_"};
  return t;
}

namespace {

constexpr double kMaxCampaignSeconds = 30 * 86400.0;

double campaign_budget(const params::Settings& o) {
  auto s = params::duration_seconds(o.text("time"));
  if (!s || *s <= 0 || *s > kMaxCampaignSeconds)
    throw UsageError("--time: \"" + o.text("time") + "\" is not a duration from 1s to 30d (e.g. 90s, 10m, 2h)");
  return *s;
}

int print_status(const std::string& dir) {
  auto s = campaign::read_state(dir);
  if (!s) throw UsageError("--status: " + dir + " holds no campaign (no campaign.json)");
  std::cout << "campaign " << dir << " (" << s->targets_file << "), seed " << s->seed << ", "
            << report::seconds_text(s->elapsed) << " of " << report::seconds_text(s->budget) << " over "
            << s->sessions << " session" << (s->sessions == 1 ? "" : "s") << "\n"
            << campaign::status_table(*s);
  return kOk;
}

std::string command_text(const Args& args) {
  std::string text = "tdisc campaign";
  for (const std::string& a : args) text += " " + a;
  return text;
}

// A directory that is neither new, empty nor a campaign's is refused: nothing of someone else's is written over.
void check_campaign_dir(const std::string& dir) {
  if (!fs::exists(dir)) return;
  if (!fs::is_directory(dir)) throw UsageError("--dir: " + dir + " is not a directory");
  if (fs::exists(campaign::state_path(dir)) || fs::is_empty(dir)) return;
  throw UsageError("--dir: " + dir + " is not empty and holds no campaign.json; give a new directory");
}

// The state to continue (same targets, same seed) or a fresh one.
campaign::CampaignState starting_state(const params::Settings& o, const std::vector<campaign::CampaignTarget>& targets,
                                       const std::string& file, const std::string& dir) {
  if (auto s = campaign::read_state(dir)) {
    campaign::check_same_targets(*s, targets, file);
    if (o.has("seed") && o.seed("seed") != s->seed)
      throw UsageError("--seed " + std::to_string(o.seed("seed")) + ": the campaign in " + dir + " has seed " +
                       std::to_string(s->seed) + "; leave --seed out to continue it, or give another --dir");
    return *s;
  }
  return campaign::fresh_state(targets, dir, o.has("seed") ? o.seed("seed") : search::random_seed());
}

int run(const params::Settings& o, const Args& args) {
  if (o.positional().size() != 1) throw UsageError("campaign: give one targets FILE (or --status DIR)");
  const std::string file = o.positional()[0];
  const double budget = campaign_budget(o);
  const CatalogueFiles catalogue = catalogue_files(o);
  campaign::TargetSources sources;
  sources.known_path = catalogue.rings;
  sources.known = read_known_table(sources.known_path);
  sources.start_catalogue = catalogue.dir;
  sources.skip_missing = o.flag("skip-missing");
  const campaign::TargetList list = campaign::read_targets(file, sources);
  for (const std::string& note : list.notes) std::cerr << "tdisc: note: " << note << "\n";
  if (list.targets.empty()) throw InputError(file, 0, "every target was skipped; nothing to run");
  const std::string dir = o.has("dir") ? o.text("dir") : "runs/campaign-" + fs::path(file).stem().string();

  campaign::CampaignConfig config;
  config.targets_file = file;
  config.dir = dir;
  config.budget = budget;
  config.checkpoint_seconds = o.number("checkpoint-every");
  config.quiet = o.flag("quiet");
  config.catalogue_dir = catalogue.dir;
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  config.threads = o.integer("threads") ? static_cast<int>(o.integer("threads")) : cores;
  if (o.has("catalog"))
    config.filing = campaign::Filing{o.text("catalog"), catalogue.sota, catalogue.rings, dir, file,
                                     command_text(args), 0};
  // The state to start from, checked and ready (rank 0's under mpirun).
  auto prepare = [&] {
    check_campaign_dir(dir);
    campaign::CampaignState state = starting_state(o, list.targets, file, dir);
    state.targets_file = file;
    state.catalog = o.has("catalog") ? o.text("catalog") : "";
    state.command = args;
    std::cout << "tdisc campaign: " << list.targets.size() << " target" << (list.targets.size() == 1 ? "" : "s") << " from "
              << file << ", " << config.threads << " thread" << (config.threads == 1 ? "" : "s") << ", budget "
              << report::seconds_text(budget) << " (" << report::seconds_text(state.elapsed) << " spent), seed " << state.seed
              << "\n  directory: " << dir << (state.sessions ? " (continuing)" : "")
              << "\n  catalogue: " << (config.filing ? config.filing->catalog : std::string("none (run directories only)")) << "\n"
              << std::flush;
    return state;
  };
  if (search::mpi::launched()) return campaign::run_under_mpi(config, list.targets, prepare, o.integer("threads") == 0, std::cout);
  campaign::CampaignState state = prepare();
  search::RunLock lock(dir);  // one campaign at a time in DIR
  if (config.filing) config.filing->campaign_seed = state.seed;
  campaign::Runner runner(config, list.targets, state, std::cout);
  const campaign::CampaignState end = runner.run();
  std::cout << campaign::status_table(end);
  for (const campaign::TargetState& t : end.targets)
    if (t.status != campaign::Status::reached) return kNoTarget;
  return kOk;
}

}  // namespace

int cmd_campaign(const Args& args) {
  params::Settings o = parse_options(campaign_table(), args);
  if (o.help) return std::cout << params::help_text(campaign_table()), kOk;
  if (o.has("status")) return print_status(o.text("status"));
  return run(o, args);
}

}  // namespace tdisc::cli
