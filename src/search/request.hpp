// How a search run starts or continues, shared by tdisc search (src/cli/cmd_search.cpp) and the
// Python package's tdisc.search (python/src/search.cpp): the seed when none is given, what run.json
// records, and a run directory's request read back for --resume / resume=.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "src/search/orchestrator.hpp"
#include "src/search/plan.hpp"

namespace tdisc::search {

// A random seed (printed and stored by the caller, so the run can be repeated).
unsigned long long random_seed();
// "host, N cores": where a run's numbers come from.
std::string machine_text();
// run.json's body: the command that asked (the CLI's arguments, or the Python call), the target the
// plan settled on, the engine, threads, budget, seed, parameters, start, tool and machine.
nlohmann::json request_json(const nlohmann::json& command, const SearchPlan& plan, const SearchRequest& r);

// The engine parameters a plan runs with: its defaults (the table row's, the ansatz route's),
// overridden key by key by the caller's (--params, params=), then its shorthands (--symmetry,
// --lattice, --device), which win over both. tdisc search and tdisc.search give the same answer.
nlohmann::json planned_params(const SearchPlan& plan, const nlohmann::json& given);
// The threads a plan runs with: the caller's (0: none given), else the table row's, else one per core.
int planned_threads(const SearchPlan& plan, int given, int cores);
// run.json's record of the plan: "recipe" ({"id", "why", "row"}) and "route" when there is one.
void record_plan(nlohmann::json& request, const SearchPlan& plan);

// A run directory to continue: its request (target, engine, threads, seed, parameters from run.json;
// out_dir set; the best scheme as start when the run died before its first checkpoint) and the
// checkpoint to resume from. Checked and repaired under the run's lock (src/search/run/);
// throws UsageError when dir is not a directory, InputError for a run.json or checkpoint not this run's.
struct Continuation {
  SearchRequest request;
  nlohmann::json checkpoint;
  std::vector<std::string> notes;  // files skipped and why, a stale lock taken over
};
Continuation continue_run(const std::string& dir);

}  // namespace tdisc::search
