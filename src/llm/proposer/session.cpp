// The pipeline of the "llm" engine, a ladder run by the evaluating thread: take in finished calls,
// keep K calls in flight, then evaluate — a validated proposal as soon as one is waiting, else the
// parent's recipe with a fresh seed, cut short when a call comes back (AlphaEvolve 2025: sampling
// and evaluation overlap; nothing the model says is executed, only validated recipes are run).
#include "src/llm/proposer/session.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <climits>
#include <limits>

#include "decomposition/constructions.hpp"
#include "src/search/events.hpp"

namespace tdisc::llm {

using nlohmann::json;

namespace {

// Built-in engines this build can run, restricted to `wanted` when it is not empty.
std::vector<std::string> available_engines(const std::vector<std::string>& wanted) {
  std::vector<std::string> out;
  for (const auto& name : search::engine_names())
    if (name != "llm" && name != "meta" && search::make_engine(name) &&  // meta needs a catalogue, which recipes do not carry
        (wanted.empty() || std::find(wanted.begin(), wanted.end(), name) != wanted.end()))
      out.push_back(name);
  return out;
}

ClientConfig client_config(const LlmSettings& s) {
  ClientConfig c;
  c.base_url = s.url;
  const char* key = std::getenv(s.key_env.c_str());
  c.api_key = key ? key : "";  // kept in memory only
  c.timeout_s = s.timeout_s;
  c.retry.max_attempts = s.retries;
  c.retry.base_delay_s = s.retry_base_s;
  return c;
}

DatabaseConfig database_config(const LlmSettings& s) {
  DatabaseConfig d;
  d.islands = s.islands;
  d.migrate_every = s.migrate_every;
  d.exploit = s.exploit;
  return d;
}

// The outer reporter, except that a finished call also asks the evaluation to stop: a fallback
// evaluation yields to a proposal the moment one arrives.
class YieldingReporter : public search::ForwardingReporter {
public:
  YieldingReporter(search::Reporter& outer, const RequestPool& pool) : ForwardingReporter(outer), pool_(pool) {}
  bool stop_requested() const override {
    if (base().stop_requested()) return true;
    if (pool_.has_finished()) yielded_ = true;
    return yielded_;
  }
  bool checkpoint_due() const override { return false; }
  void checkpoint(const json&) override {}
  bool yielded() const { return yielded_; }

private:
  const RequestPool& pool_;
  mutable std::atomic<bool> yielded_{false};  // engines poll from every walker thread
};

}  // namespace

Session::Session(const search::EngineConfig& config, search::Reporter& reporter, LlmSettings settings)
    : config_(config), reporter_(reporter), settings_(std::move(settings)),
      schedule_(make_schedule(config.seconds, settings_.eval_seconds, settings_.concurrency, settings_.max_seeds)),
      engines_(available_engines(settings_.engines)), client_(client_config(settings_)), db_(database_config(settings_)),
      rng_(config.seed), t0_(std::chrono::steady_clock::now()) {}

double Session::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
}

double Session::seconds_left() const {
  if (config_.seconds <= 0) return std::numeric_limits<double>::infinity();
  return std::max(0.0, config_.seconds - elapsed());
}

ProposalRules Session::rules() const {
  ProposalRules r;
  r.target = config_.target;
  r.engines = engines_;
  r.kinds = settings_.proposals;
  r.max_budget_seconds = schedule_.eval_seconds;
  r.max_seeds = schedule_.max_seeds;
  r.parent = best_scheme_ ? &*best_scheme_ : nullptr;
  return r;
}

void Session::run() {
  if (engines_.empty()) {
    reporter_.event({{"event", search::events::kLlmError}, {"message", "no built-in engine is available to run recipes"}});
    return;
  }
  if (config_.resume) restore(*config_.resume);
  if (config_.start && !best_scheme_) best_scheme_ = config_.start;
  reporter_.event({{"event", search::events::kLlmSchedule}, {"schedule", schedule_.describe()}, {"concurrency", schedule_.concurrency},
                   {"eval_seconds", schedule_.eval_seconds}, {"max_seeds", schedule_.max_seeds}});
  pool_ = std::make_unique<RequestPool>(client_, schedule_.concurrency, [this] { return !answer_usable(); });
  top_up();  // the first requests go out now, while the default recipes are evaluated
  if (db_.size() == 0) seed_population();
  while (!reporter_.stop_requested()) step();
  pool_->shut_down();
  receive();  // calls cut short by the end of the run are logged too
  save(true);
}

void Session::seed_population() {
  for (const auto& name : engines_) {
    if (reporter_.stop_requested()) return;
    Proposal p{"recipe", default_recipe(name, schedule_.eval_seconds), std::nullopt, "defaults"};
    Evaluation ev = evaluate(p, reporter_);
    store(p, ev, nullptr, db_.next_island(), "default", -1);
    receive();
    top_up();
  }
}

void Session::step() {
  ++iteration_;
  receive();
  top_up();
  if (!ready_.empty()) evaluate_ready();
  else evaluate_fallback();
  checkpoint_if_due();
}

void Session::evaluate_ready() {
  Ready r = std::move(ready_.front());
  ready_.pop_front();
  Evaluation ev = evaluate(r.proposal, reporter_);
  const Program* parent = db_.find(r.ticket.parent);
  int island = parent ? parent->island : db_.next_island();
  int id = store(r.proposal, ev, parent, island, "llm", r.ticket.call);
  r.record["program"] = id;
  r.record["score"] = ev.score.to_json();
  r.record["evaluated_at"] = elapsed();
  if (ev.score.fitness <= r.ticket.parent_fitness)
    note_failure(r.ticket.call, "no_progress",
                 "scored " + ev.score.note + ", not better than parent " + std::to_string(r.ticket.parent));
  note_near_misses(ev, "call " + std::to_string(r.ticket.call));
  log_call(r.record);
}

// The parent's recipe with a fresh seed keeps the search threads busy while the model thinks. A
// run cut short by an arriving proposal is not scored (its time would mislead the database), but
// whatever it verified was offered already.
void Session::evaluate_fallback() {
  int island = db_.next_island();
  const Program* parent = db_.choose_parent(island, rng_);
  int parent_id = parent ? parent->id : -1;
  Proposal p = fallback(parent);
  YieldingReporter yielding(reporter_, *pool_);
  Evaluation ev = evaluate(p, yielding);
  if (yielding.yielded() && !reporter_.stop_requested()) {
    reporter_.event({{"event", search::events::kLlmFallbackYielded}, {"parent", parent_id}, {"at", elapsed()}});
    return;
  }
  store(p, ev, db_.find(parent_id), island, "fallback", -1);
  note_near_misses(ev, "fallback of program " + std::to_string(parent_id));
}

void Session::checkpoint_if_due() {
  if (reporter_.checkpoint_due()) save(false);
}

Proposal Session::fallback(const Program* parent) {
  if (parent && parent->kind == "recipe") {
    ProposalCheck c = check_recipe(parent->body, rules());
    if (c.proposal) return *c.proposal;
  }
  const std::string& engine = engines_[static_cast<size_t>(iteration_) % engines_.size()];
  return Proposal{"recipe", default_recipe(engine, schedule_.eval_seconds), std::nullopt, "defaults"};
}

Evaluation Session::evaluate(const Proposal& p, search::Reporter& reporter) {
  EvalContext ctx;
  ctx.target = config_.target;
  ctx.threads = config_.threads;
  ctx.seed = config_.seed + 7919ULL * static_cast<unsigned long long>(evaluations_++);  // the first is the seed itself
  ctx.start = config_.start;
  double left = seconds_left();
  ctx.seconds_left = std::isinf(left) ? 0 : std::max(1e-3, left);
  Evaluation ev = p.kind == "scheme" ? evaluate_scheme(*p.scheme, ctx, reporter, settings_.repair_seconds)
                                     : evaluate_recipe(p.recipe, ctx, reporter);
  if (ev.best && (!best_scheme_ || ev.best->rank() < best_scheme_->rank())) best_scheme_ = ev.best;
  reporter_.set("llm_evaluations", static_cast<double>(evaluations_));
  return ev;
}

}  // namespace tdisc::llm
