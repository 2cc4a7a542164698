#include "src/search/request.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <thread>

#include "base/error.hpp"
#include "base/io.hpp"
#include "decomposition/json_input.hpp"
#include "generated/tdisc_version.hpp"
#include "src/search/run/lock.hpp"
#include "src/search/run/request_file.hpp"
#include "src/search/run/resume.hpp"

namespace tdisc::search {

unsigned long long random_seed() {
  return std::random_device{}() ^ (static_cast<unsigned long long>(std::random_device{}()) << 32);
}

std::string machine_text() {
  char host[256] = "unknown";
  ::gethostname(host, sizeof host - 1);
  return std::string(host) + ", " + std::to_string(std::thread::hardware_concurrency()) + " cores";
}

nlohmann::json request_json(const nlohmann::json& command, const SearchPlan& plan, const SearchRequest& r) {
  return {{"format", "tdisc-run"}, {"version", 1}, {"command", command},
          {"target", {{"size", plan.target.format.str()}, {"rank", plan.target.rank},
                      {"ring", std::string(ring_name(plan.target.ring))}}},
          {"engine", plan.engine}, {"threads", r.threads}, {"seconds", r.seconds}, {"seed", r.seed},
          {"params", r.params}, {"from", r.start ? r.start->provenance.source : ""}, {"tool", TDISC_TOOL},
          {"machine", machine_text()}};
}

nlohmann::json planned_params(const SearchPlan& plan, const nlohmann::json& given) {
  nlohmann::json p = plan.defaults.is_object() ? plan.defaults : nlohmann::json::object();
  if (given.is_object()) p.update(given);
  p.update(plan.params);
  return p;
}

int planned_threads(const SearchPlan& plan, int given, int cores) {
  return given != 0 ? given : plan.threads.value_or(std::max(1, cores));
}

void record_plan(nlohmann::json& request, const SearchPlan& plan) {
  if (!plan.route.empty()) request["route"] = plan.route;
  request["recipe"] = {{"id", plan.recipe}, {"why", plan.recipe_why}, {"row", plan.recipe_row}};
  if (!plan.lanes.empty()) request["recipe"]["lanes"] = lane_recipes_json(plan.lanes);
}

namespace {

// A portfolio's recipe lanes as run.json recorded them (recipe.lanes), so a resumed run that died
// before its first checkpoint plans the same lanes; a checkpoint carries each lane's own.
std::vector<LaneRecipe> recorded_lane_recipes(const std::string& dir) {
  const std::string path = dir + "/run.json";
  const nlohmann::json run = parse_json_input(read_text_file(path, InputKind::run_file), path, "a tdisc run file");
  if (!run.is_object() || !run.contains("recipe") || !run["recipe"].is_object()) return {};
  return lane_recipes_from_json(run["recipe"].value("lanes", nlohmann::json()), path);
}

}  // namespace

Continuation continue_run(const std::string& dir) {
  if (!std::filesystem::exists(dir)) throw UsageError("--resume: " + dir + " does not exist (give a run directory, the --out of a search)");
  if (!std::filesystem::is_directory(dir)) throw UsageError("--resume: " + dir + " is not a directory");
  const RunRequest asked = read_run_request(dir);
  ResumePoint point;
  {
    RunLock lock(dir);  // held while the directory is checked and repaired; the orchestrator retakes it
    ResumePoint found = resume_point(dir, asked.engine, asked.target.ring);
    point = std::move(found);
    if (!lock.note().empty()) point.notes.insert(point.notes.begin(), lock.note());
  }
  Continuation c;
  c.request.target = asked.target;
  c.request.engine = asked.engine;
  c.request.threads = asked.threads;
  c.request.seed = asked.seed;
  c.request.params = asked.params;
  c.request.lane_recipes = recorded_lane_recipes(dir);
  c.request.out_dir = dir;
  // The LLM engine keeps its database and transcript in the run directory: the one being resumed,
  // never the path run.json recorded (relative to another working directory, or anywhere at all).
  if (asked.engine == "llm" || c.request.params.contains("llm")) {
    if (!c.request.params["llm"].is_object()) c.request.params["llm"] = nlohmann::json::object();
    c.request.params["llm"]["run_dir"] = dir;
  }
  if (!point.has_checkpoint && point.best) c.request.start = point.best;
  c.checkpoint = std::move(point.checkpoint);
  c.notes = std::move(point.notes);
  return c;
}

}  // namespace tdisc::search
