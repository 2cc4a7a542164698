// The loop of the "llm" engine, a ladder: ask the model when spending is allowed, else fall back to
// the parent's recipe with a fresh seed (the built-in engines keep searching whatever the endpoint
// does); evaluate; store in the database; log the call; checkpoint when due.
#include "src/llm/proposer/session.hpp"

#include <algorithm>
#include <climits>
#include <fstream>
#include <sstream>
#include <thread>

#include "decomposition/io.hpp"
#include "decomposition/native.hpp"
#include "src/llm/json_extract.hpp"

namespace tdisc::llm {

using nlohmann::json;

namespace {

constexpr long kSchemeProposalMaxRank = 64;  // direct schemes only for small formats (prompt size)
constexpr size_t kFailuresKept = 32;

// Built-in engines this build can run, restricted to `wanted` when it is not empty.
std::vector<std::string> available_engines(const std::vector<std::string>& wanted) {
  std::vector<std::string> out;
  for (const auto& name : search::engine_names())
    if (name != "llm" && search::make_engine(name) &&
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

Scheme classical_scheme(Format f, Ring ring) {
  Scheme s = Scheme::zeros(f, static_cast<int>(f.classical_rank()), ring);
  int r = 0;
  for (int i = 0; i < f.n; ++i)
    for (int j = 0; j < f.m; ++j)
      for (int k = 0; k < f.p; ++k, ++r) {
        s.u(r, f.a_index(i, j)) = 1;
        s.v(r, f.b_index(j, k)) = 1;
        s.w(r, f.c_index(k, i)) = 1;
      }
  return s;
}

std::string failure_kind(const ChatResult& r) {
  if (r.status == CallStatus::timeout) return "timeout";
  if (r.status == CallStatus::quota) return "quota";
  if (r.status == CallStatus::transport) return "connection";
  if (r.status == CallStatus::bad_response) return "bad_response";
  return "http";
}

}  // namespace

Session::Session(const search::EngineConfig& config, search::Reporter& reporter, LlmSettings settings)
    : config_(config), reporter_(reporter), settings_(std::move(settings)), engines_(available_engines(settings_.engines)),
      client_(client_config(settings_)), db_(database_config(settings_)), rng_(config.seed),
      t0_(std::chrono::steady_clock::now()) {}

double Session::seconds_left() const {
  if (config_.seconds <= 0) return 0;
  double used = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  return std::max(1e-3, config_.seconds - used);
}

ProposalRules Session::rules() const {
  ProposalRules r;
  r.target = config_.target;
  r.engines = engines_;
  r.kinds = settings_.proposals;
  r.max_budget_seconds = settings_.eval_seconds;
  r.max_seeds = settings_.max_seeds;
  r.parent = best_scheme_ ? &*best_scheme_ : nullptr;
  return r;
}

void Session::run() {
  if (engines_.empty()) {
    reporter_.event({{"event", "llm_error"}, {"message", "no built-in engine is available to run recipes"}});
    return;
  }
  if (config_.resume) restore(*config_.resume);
  if (config_.start && !best_scheme_) best_scheme_ = config_.start;
  if (db_.size() == 0) seed_population();
  while (!reporter_.stop_requested()) {
    auto t = std::chrono::steady_clock::now();
    step();
    if (reporter_.checkpoint_due()) save(false);
    if (std::chrono::steady_clock::now() - t < std::chrono::milliseconds(10))
      std::this_thread::sleep_for(std::chrono::milliseconds(10));  // never spin
  }
  save(true);
}

void Session::seed_population() {
  for (const auto& name : engines_) {
    if (reporter_.stop_requested()) return;
    Proposal p{"recipe", default_recipe(name, settings_.eval_seconds), std::nullopt, "defaults"};
    Evaluation ev = evaluate(p);
    store(p, ev, nullptr, db_.next_island(), "default", -1);
  }
}

void Session::step() {
  ++iteration_;
  int island = db_.next_island();
  const Program* parent = db_.choose_parent(island, rng_);
  int parent_id = parent ? parent->id : -1;
  double parent_fitness = parent ? parent->score.fitness : -1e18;
  std::optional<Proposal> proposal;
  json record;
  std::string origin = "llm";
  if (spending_allowed()) {
    Asked a = ask(parent, choose_kind());
    proposal = a.proposal;
    record = a.record;
  }
  if (!proposal) {
    proposal = fallback(db_.find(parent_id));
    origin = "fallback";
  }
  Evaluation ev = evaluate(*proposal);
  int call = record.is_null() ? -1 : record.value("call", -1);
  int id = store(*proposal, ev, db_.find(parent_id), island, origin, origin == "llm" ? call : -1);
  if (!record.is_null()) {
    record["program"] = id;
    record["score"] = ev.score.to_json();
    if (origin == "llm" && ev.score.fitness <= parent_fitness)
      note_failure(call, "no_progress", "scored " + ev.score.note + ", not better than parent " + std::to_string(parent_id));
    log_call(record);
  }
}

Proposal Session::fallback(const Program* parent) {
  if (parent && parent->kind == "recipe") {
    ProposalCheck c = check_recipe(parent->body, rules());
    if (c.proposal) return *c.proposal;
  }
  const std::string& engine = engines_[static_cast<size_t>(iteration_) % engines_.size()];
  return Proposal{"recipe", default_recipe(engine, settings_.eval_seconds), std::nullopt, "defaults"};
}

bool Session::spending_allowed() const {
  if (!stop_calling_.empty()) return false;
  if (settings_.max_calls > 0 && calls_ >= settings_.max_calls) return false;
  if (settings_.max_tokens > 0 && prompt_tokens_ + completion_tokens_ >= settings_.max_tokens) return false;
  return true;
}

std::string Session::choose_model() {
  std::vector<double> w;
  for (const auto& m : settings_.models) w.push_back(m.weight);
  std::discrete_distribution<size_t> pick(w.begin(), w.end());
  return settings_.models[pick(rng_)].name;
}

std::string Session::choose_kind() {
  std::vector<std::string> kinds;
  for (const auto& k : settings_.proposals)
    if (k != "scheme" || config_.target.format.classical_rank() <= kSchemeProposalMaxRank) kinds.push_back(k);
  if (kinds.empty()) return "recipe";
  return kinds[std::uniform_int_distribution<size_t>(0, kinds.size() - 1)(rng_)];
}

const Scheme* Session::parent_scheme() {
  if (!best_scheme_) best_scheme_ = classical_scheme(config_.target.format, config_.target.ring);
  return &*best_scheme_;
}

Session::Asked Session::ask(const Program* parent, const std::string& kind) {
  PromptInput in;
  in.target = config_.target;
  in.kind = kind;
  in.engines = engines_;
  in.parent = parent;
  in.inspirations = db_.inspirations(parent, settings_.inspirations, rng_);
  for (size_t i = failures_.size() > static_cast<size_t>(settings_.failures_shown) ? failures_.size() - settings_.failures_shown : 0;
       i < failures_.size(); ++i)
    in.failures.push_back(failures_[i]);
  in.best_rank = reporter_.best_rank();
  in.max_budget_seconds = settings_.eval_seconds;
  in.max_seeds = settings_.max_seeds;
  if (kind == "scheme") in.parent_scheme = parent_scheme();
  ChatRequest req;
  req.model = choose_model();
  req.messages = build_prompt(in);
  req.schema = kind == "scheme" ? scheme_schema() : recipe_schema(engines_);
  req.schema_name = "tdisc_" + kind;
  req.max_tokens = settings_.call_max_tokens;
  req.temperature = settings_.temperature;
  int call = static_cast<int>(++calls_);
  ChatResult r = client_.complete(req, [this] { return reporter_.stop_requested(); });
  prompt_tokens_ += r.prompt_tokens;
  completion_tokens_ += r.completion_tokens;
  double cost = (r.prompt_tokens * settings_.price_in + r.completion_tokens * settings_.price_out) / 1e6;
  cost_ += cost;
  reporter_.set("llm_calls", static_cast<double>(calls_));
  reporter_.set("llm_tokens", static_cast<double>(prompt_tokens_ + completion_tokens_));
  json messages = json::array();
  for (const auto& m : req.messages) messages.push_back({{"role", m.role}, {"content", m.content}});
  Asked a;
  a.record = {{"event", "llm_call"}, {"call", call}, {"model", req.model}, {"kind", kind},
              {"parent", parent ? parent->id : -1}, {"status", status_name(r.status)}, {"http_status", r.http_status},
              {"attempts", r.attempts}, {"seconds", r.seconds}, {"prompt_tokens", r.prompt_tokens},
              {"completion_tokens", r.completion_tokens}, {"cost_usd", cost}, {"messages", messages},
              {"response", r.content}};
  if (!r.ok()) {
    std::string fk = failure_kind(r);
    if (r.status == CallStatus::quota || r.http_status == 401 || r.http_status == 403)
      stop_calling_ = r.error;  // will not fix itself: search on with the built-in engines
    note_failure(call, fk, r.error);
    a.record["outcome"] = fk;
    a.record["error"] = r.error;
    return a;
  }
  Extracted x = extract_json(r.content);
  if (!x.value) {
    note_failure(call, "invalid_json", x.why_not);
    a.record["outcome"] = "invalid_json";
    a.record["error"] = x.why_not;
    return a;
  }
  ProposalCheck c = check_proposal(*x.value, rules());
  if (!c.proposal) {
    note_failure(call, "schema", c.summary());
    a.record["outcome"] = "schema";
    a.record["error"] = c.summary();
    a.record["errors"] = c.errors;
    return a;
  }
  a.record["outcome"] = "accepted";
  a.record["proposal"] = *x.value;
  a.proposal = c.proposal;
  return a;
}

Evaluation Session::evaluate(const Proposal& p) {
  EvalContext ctx;
  ctx.target = config_.target;
  ctx.threads = config_.threads;
  ctx.seed = config_.seed + 7919ULL * static_cast<unsigned long long>(iteration_);
  ctx.start = config_.start;
  ctx.seconds_left = seconds_left();
  Evaluation ev = p.kind == "scheme" ? evaluate_scheme(*p.scheme, ctx, reporter_, settings_.repair_seconds)
                                     : evaluate_recipe(p.recipe, ctx, reporter_);
  if (ev.best && (!best_scheme_ || ev.best->rank() < best_scheme_->rank())) best_scheme_ = ev.best;
  return ev;
}

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
                   {"call", call}, {"fitness", ev.score.fitness}, {"note", ev.score.note}});
  return id;
}

void Session::note_failure(int call, const std::string& kind, const std::string& reason) {
  failures_.push_back({call, kind, reason});
  while (failures_.size() > kFailuresKept) failures_.pop_front();
}

void Session::log_call(json record) {
  if (!settings_.run_dir.empty()) {
    std::ofstream out(settings_.run_dir + "/calls.jsonl", std::ios::app);
    out << record.dump() << "\n";
    record.erase("messages");  // the full exchange lives in calls.jsonl; events keep the summary
    record.erase("response");
  }
  reporter_.event(record);
}

json Session::state() const {
  std::ostringstream rng;
  rng << rng_;
  json failures = json::array();
  for (const auto& f : failures_) failures.push_back({{"call", f.call}, {"kind", f.kind}, {"reason", f.reason}});
  return {{"engine", "llm"}, {"version", 1}, {"database", db_.to_json()}, {"rng", rng.str()}, {"calls", calls_},
          {"prompt_tokens", prompt_tokens_}, {"completion_tokens", completion_tokens_}, {"cost_usd", cost_},
          {"iteration", iteration_}, {"failures", failures},
          {"best_scheme", best_scheme_ ? json::parse(native_text(*best_scheme_)) : json()}};
}

void Session::save(bool final_save) {
  json s = state();
  reporter_.checkpoint(s);
  if (!settings_.run_dir.empty()) write_file_atomic(settings_.run_dir + "/llm-database.json", s.dump(1));
  if (final_save)
    reporter_.event({{"event", "llm_summary"}, {"calls", calls_}, {"prompt_tokens", prompt_tokens_},
                     {"completion_tokens", completion_tokens_}, {"cost_usd", cost_}, {"programs", db_.size()},
                     {"migrations", db_.migrations()}, {"stopped_calling", stop_calling_}});
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
  for (const auto& f : s.value("failures", json::array()))
    failures_.push_back({f.value("call", -1), f.value("kind", ""), f.value("reason", "")});
  if (s.contains("best_scheme") && s["best_scheme"].is_object())
    best_scheme_ = parse_native(s["best_scheme"].dump(), "checkpoint:best_scheme");
}

}  // namespace tdisc::llm
