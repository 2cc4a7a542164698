// What the llm engine keeps: programs in the database (with their call and origin), the checkpoint
// state (database, generator, spending, failures, near-misses, best scheme) and its restoration.
#include <sstream>

#include "base/io.hpp"
#include "decomposition/native.hpp"
#include "src/llm/proposer/session.hpp"

namespace tdisc::llm {

using nlohmann::json;

int Session::store(const Proposal& p, const Evaluation& ev, const Program* parent, int island, const std::string& origin, int call) {
  Program prog;
  prog.parent = parent ? parent->id : -1;
  prog.island = island;
  prog.cell = cell_of(p);
  prog.kind = p.kind;
  prog.body = p.kind == "scheme" ? json::parse(native_text(*p.scheme)) : p.recipe.to_json();
  prog.score = ev.score;
  prog.origin = origin;
  prog.call = call;
  int id = db_.add(prog);
  reporter_.event({{"event", "llm_program"}, {"id", id}, {"cell", prog.cell}, {"origin", origin}, {"island", prog.island},
                   {"call", call}, {"fitness", ev.score.fitness}, {"note", ev.score.note}, {"at", elapsed()}});
  return id;
}

json Session::state() const {
  std::ostringstream rng;
  rng << rng_;
  json failures = json::array();
  for (const auto& f : failures_) failures.push_back({{"call", f.call}, {"kind", f.kind}, {"reason", f.reason}});
  json near = json::array();
  for (const auto& m : near_misses_) near.push_back(m.to_json());
  return {{"engine", "llm"}, {"version", 1}, {"database", db_.to_json()}, {"rng", rng.str()}, {"calls", calls_},
          {"prompt_tokens", prompt_tokens_}, {"completion_tokens", completion_tokens_}, {"cost_usd", cost_},
          {"iteration", iteration_}, {"evaluations", evaluations_}, {"failures", failures}, {"near_misses", near},
          {"best_scheme", best_scheme_ ? json::parse(native_text(*best_scheme_)) : json()}};
}

void Session::save(bool final_save) {
  json s = state();
  reporter_.checkpoint(s);
  if (!settings_.run_dir.empty()) write_file_atomic(settings_.run_dir + "/llm-database.json", s.dump(1, ' ', false, json::error_handler_t::replace));
  if (final_save)
    reporter_.event({{"event", "llm_summary"}, {"calls", calls_}, {"evaluations", evaluations_},
                     {"prompt_tokens", prompt_tokens_}, {"completion_tokens", completion_tokens_}, {"cost_usd", cost_},
                     {"programs", db_.size()}, {"migrations", db_.migrations()}, {"stopped_calling", stop_calling_},
                     {"schedule", schedule_.describe()}});
}

void Session::restore(const json& state_in) {
  const json& s = state_in.contains("database") ? state_in : state_in.value("llm", state_in);
  if (!s.contains("database")) return;
  db_ = Database::from_json(s["database"]);
  std::istringstream rng(s.value("rng", ""));
  if (!s.value("rng", "").empty()) rng >> rng_;
  calls_ = s.value("calls", 0L);
  prompt_tokens_ = s.value("prompt_tokens", 0L);
  completion_tokens_ = s.value("completion_tokens", 0L);
  cost_ = s.value("cost_usd", 0.0);
  iteration_ = s.value("iteration", 0L);
  evaluations_ = s.value("evaluations", iteration_);
  for (const auto& f : s.value("failures", json::array()))
    failures_.push_back({f.value("call", -1), f.value("kind", ""), f.value("reason", "")});
  for (const auto& m : s.value("near_misses", json::array())) near_misses_.push_back(NearMiss::from_json(m));
  if (s.contains("best_scheme") && s["best_scheme"].is_object())
    best_scheme_ = parse_native(s["best_scheme"].dump(), "checkpoint:best_scheme");
}

}  // namespace tdisc::llm
