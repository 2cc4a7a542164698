// tdisc evolve --size NxMxP --rank R [--ring RING] [--params JSON] [--generations G] [--population P]
// [--seed S] [--time T] [--out DIR]: evolves numeric-engine recipes (AlphaEvolve's terms, culling, Adam
// settings) over a MAP-Elites database, each scored by a short in-process run on the same seed.
#include <cstdlib>
#include <iomanip>
#include <iostream>

#include "base/error.hpp"
#include "decomposition/format.hpp"
#include "decomposition/ring.hpp"
#include "src/cli/commands.hpp"
#include "src/cli/options.hpp"
#include "src/cli/tables.hpp"
#include "src/llm/evolve_proposer.hpp"
#include "src/search/evolve/evolve.hpp"
#include "src/search/numeric/batch_device.hpp"

namespace tdisc::cli {

namespace {

using namespace params;

const Table kEvolveOptions{
    "evolve",
    "tdisc evolve --size NxMxP --rank R [--ring RING] [--params JSON] [--generations G] [--population P] [--seed S] [--time T] [--out DIR]",
    "Evolves recipes of the numeric engine (seed-space Adam settings and AlphaEvolve's terms: noise,\n"
    "hallucination, soft clip, discretisation, large-value penalty, culling). Generation 0 is --params and\n"
    "mutations of it; later generations mutate and cross the elites of a MAP-Elites database whose cells\n"
    "are the families of terms switched on. Each recipe runs --time with keep_going on --seed (the same\n"
    "restarts for every recipe) and scores numerical plus exact finds per second, ties broken by the best\n"
    "residual. DIR/evolve.json holds every evaluation; the best recipe is printed as a --params string.\n"
    "With --llm-url (an OpenAI-compatible endpoint), an LLM proposes part of each later generation: it\n"
    "sees the genes and the elites and answers with changes to the best recipe; tdisc mutates the rest.",
    {with_metavar(text("size", nullptr, "format: 4x4, 2x4x5 (required)"), "NxMxP"),
     with_metavar(integer("rank", nullptr, 1, 1e6, "target rank (required)"), "R"),
     with_metavar(choice("ring", "Q", {"ZT", "Z", "Q", "QI", "GF2", "GF3"}, "ring the finds must be valid over"), "RING"),
     with_metavar(text("params", "{}", "the base recipe: numeric-engine parameters as JSON (an ansatz, usually)"), "JSON"),
     integer("generations", 3, 1, 1e6, "generations"),
     integer("population", 8, 1, 1e6, "recipes scored per generation"),
     seed("seed", 1, "the run seed of every evaluation, and of the evolution's draws"),
     duration("time", 10, 0.1, 1e7, "budget of one evaluation"),
     integer("threads", 2, 1, 4096, "host threads of each evaluation"),
     with_metavar(text("device", "auto", "cpu, cuda or auto (cuda where a GPU is present); --params' device wins"), "DEV"),
     with_metavar(text("out,o", "runs/evolve", "run directory (evolve.json)"), "DIR"),
     with_metavar(text("llm-url", nullptr, "an OpenAI-compatible endpoint that proposes recipes too (e.g. http://127.0.0.1:8080/v1)"), "URL"),
     with_metavar(text("llm-model", "", "the model to ask"), "MODEL"),
     with_metavar(text("llm-key-env", "", "environment variable holding the API key"), "VAR")},
    "",
    "TDISC_EVOLVE_"};

nlohmann::json base_params(const Settings& o) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(o.text("params"));
  } catch (const nlohmann::json::exception& e) {
    throw UsageError("--params: not JSON: " + std::string(e.what()));
  }
  if (!j.is_object()) throw UsageError("--params: engine parameters must be a JSON object");
  const std::string device = o.text("device");
  if (device != "auto" && device != "cpu" && device != "cuda") throw UsageError("--device: \"" + device + "\" is not cpu, cuda or auto");
  if (!j.contains("device")) j["device"] = device == "auto" ? (search::numeric::cuda_device_count() > 0 ? "cuda" : "cpu") : device;
  return j;
}

search::evolve::EvolveConfig config_from(const Settings& o) {
  search::evolve::EvolveConfig c;
  const auto f = parse_format(o.text("size"));
  if (!f) throw UsageError("--size: \"" + o.text("size") + "\" is not a format (e.g. 4x4, 2x4x5)");
  if (!o.has("rank")) throw UsageError("evolve: --rank R is required");
  c.trial.target = {*f, static_cast<int>(o.integer("rank")), *parse_ring(o.text("ring"))};
  c.trial.threads = static_cast<int>(o.integer("threads"));
  c.trial.seed = o.seed("seed");
  c.trial.seconds = o.number("time");
  c.seed = o.seed("seed");
  c.generations = static_cast<int>(o.integer("generations"));
  c.population = static_cast<int>(o.integer("population"));
  c.base = base_params(o);
  c.out_dir = o.text("out");
  if (o.has("llm-url")) {
    llm::EvolveProposerConfig p;
    p.client.base_url = o.text("llm-url");
    if (const std::string var = o.text("llm-key-env"); !var.empty())
      if (const char* key = std::getenv(var.c_str())) p.client.api_key = key;
    p.model = o.text("llm-model");
    p.target = c.trial.target.format.str() + " rank " + std::to_string(c.trial.target.rank) + " over " +
               std::string(ring_name(c.trial.target.ring));
    p.log = [](const std::string& line) { std::cout << "  " << line << "\n" << std::flush; };
    c.proposer = llm::evolve_proposer(std::move(p));
  }
  return c;
}

}  // namespace

const params::Table& evolve_table() { return kEvolveOptions; }

int cmd_evolve(const Args& args) {
  Settings o = parse_options(kEvolveOptions, args);
  if (o.help) {
    std::cout << params::help_text(kEvolveOptions);
    return kOk;
  }
  if (!o.has("size")) throw UsageError("evolve: --size NxMxP is required");
  search::evolve::EvolveConfig c = config_from(o);
  std::cout << "tdisc evolve: " << c.trial.target.format.str() << " rank " << c.trial.target.rank << " over "
            << ring_name(c.trial.target.ring) << ", " << c.generations << " generations × " << c.population
            << " recipes of " << c.trial.seconds << " s, seed " << c.trial.seed << "\n  run directory: " << c.out_dir
            << "\n" << std::flush;
  c.progress = [](const search::evolve::Scored& s, bool elite) {
    std::cout << "  [g" << s.generation << " #" << s.id << " " << s.origin << "] " << std::setprecision(3)
              << s.rate() << " finds/s (" << s.numerical << " numerical, " << s.exact << " exact, " << s.restarts
              << " restarts, " << s.culled << " culled), best residual " << s.residual << (elite ? "  elite of " : "  ")
              << (elite ? search::evolve::cell_of(s.params) : "") << "\n" << std::flush;
  };
  const search::evolve::EvolveResult r = search::evolve::evolve(c);
  const search::evolve::Scored* best = r.elites.best();
  std::cout << "best recipe: " << best->rate() << " finds/s (cell " << search::evolve::cell_of(best->params)
            << ")\n  --params '" << best->params.dump() << "'\n  wrote " << c.out_dir << "/evolve.json\n";
  return kOk;
}

}  // namespace tdisc::cli
