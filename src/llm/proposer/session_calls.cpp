// The model's side of the pipeline: keep up to K calls in flight while spending is allowed and an
// answer could still be evaluated; take finished calls in, validate them (nothing unvalidated is
// kept, nothing is executed), and record outcome, tokens and cost.
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <fstream>

#include "base/error.hpp"
#include "base/io.hpp"
#include "base/utf8.hpp"
#include "decomposition/constructions.hpp"
#include "decomposition/json_input.hpp"
#include "src/llm/proposer/session.hpp"
#include "src/llm/redact.hpp"
#include "src/llm/reply.hpp"
#include "src/search/events.hpp"

namespace tdisc::llm {

using nlohmann::json;

namespace {

constexpr long kSchemeProposalMaxRank = 64;  // direct schemes only for small formats (prompt size)
constexpr size_t kFailuresKept = 32, kNearMissesKept = 16;

std::string failure_kind(const ChatResult& r) {
  if (r.status == CallStatus::timeout) return "timeout";
  if (r.status == CallStatus::quota) return "quota";
  if (r.status == CallStatus::transport) return "connection";
  if (r.status == CallStatus::bad_response) return "bad_response";
  return "http";
}

}  // namespace

bool Session::spending_allowed() const {
  if (!stop_calling_.empty()) return false;
  if (settings_.max_calls > 0 && calls_ >= settings_.max_calls) return false;
  if (settings_.max_tokens > 0 && prompt_tokens_ + completion_tokens_ >= settings_.max_tokens) return false;
  if (settings_.max_cost > 0 && cost_ >= settings_.max_cost) return false;
  return true;
}

// An answer is worth waiting for (and a retry worth making) while the budget can still evaluate it.
bool Session::answer_usable() const {
  return !reporter_.stop_requested() && seconds_left() > std::min(1.0, schedule_.eval_seconds);
}

// Proposals already waiting for the search threads count against K: asking for more than can be
// evaluated would only build prompts from an older database (and log calls out of order). So do
// answers not yet read: one that finished after receive() may be a quota error that ends the calls.
void Session::top_up() {
  auto room = [&] { return pool_->unread() + static_cast<int>(ready_.size()) < pool_->capacity(); };
  while (room() && spending_allowed() && answer_usable()) pool_->submit(next_ticket());
  report_spending();
}

RequestTicket Session::next_ticket() {
  RequestTicket t;
  int island = db_.next_island();
  const Program* parent = db_.choose_parent(island, rng_);
  t.call = static_cast<int>(++calls_);
  t.kind = choose_kind();
  t.model = choose_model();
  t.parent = parent ? parent->id : -1;
  t.parent_fitness = parent ? parent->score.fitness : -1e18;
  PromptInput in;
  in.target = config_.target;
  in.kind = t.kind;
  in.engines = engines_;
  in.parent = parent;
  in.inspirations = db_.inspirations(parent, settings_.inspirations, rng_);
  size_t shown = static_cast<size_t>(settings_.failures_shown);
  for (size_t i = failures_.size() > shown ? failures_.size() - shown : 0; i < failures_.size(); ++i)
    in.failures.push_back(failures_[i]);
  in.near_misses = near_misses_;
  in.best_recipes = db_.best_programs(settings_.inspirations);
  in.best_rank = reporter_.best_rank();
  in.max_budget_seconds = schedule_.eval_seconds;
  in.max_seeds = schedule_.max_seeds;
  if (t.kind == "scheme") in.parent_scheme = parent_scheme();
  t.request.model = t.model;
  t.request.messages = build_prompt(in);
  t.request.schema = t.kind == "scheme" ? scheme_schema() : recipe_schema(engines_);
  t.request.schema_name = "tdisc_" + t.kind;
  t.request.max_tokens = settings_.call_max_tokens;
  t.request.temperature = settings_.temperature;
  t.sent_at = elapsed();
  reporter_.event({{"event", search::events::kLlmRequest}, {"call", t.call}, {"model", t.model}, {"kind", t.kind},
                   {"parent", t.parent}, {"at", t.sent_at}, {"in_flight", pool_->in_flight() + 1}});
  return t;
}

void Session::receive() {
  while (auto f = pool_->take()) handle(std::move(*f));
  report_spending();
}

// One finished call: count its tokens and cost, then either queue its validated proposal for the
// search threads or log why it failed (and show that to the next prompt).
void Session::handle(FinishedRequest f) {
  const ChatResult& r = f.result;
  const RequestTicket& t = f.ticket;
  prompt_tokens_ += r.prompt_tokens;
  completion_tokens_ += r.completion_tokens;
  double cost = (r.prompt_tokens * settings_.price_in + r.completion_tokens * settings_.price_out) / 1e6;
  cost_ += cost;
  json messages = json::array();
  for (const auto& m : t.request.messages) messages.push_back({{"role", m.role}, {"content", m.content}});
  json record = {{"event", search::events::kLlmCall}, {"call", t.call}, {"model", t.model}, {"kind", t.kind}, {"parent", t.parent},
                 {"status", status_name(r.status)}, {"http_status", r.http_status}, {"attempts", r.attempts},
                 {"seconds", r.seconds}, {"sent_at", t.sent_at}, {"finished_at", f.finished_at},
                 {"prompt_tokens", r.prompt_tokens}, {"completion_tokens", r.completion_tokens}, {"cost_usd", cost},
                 {"messages", messages}, {"response", utf8_excerpt(r.content, kReplyExcerptBytes)}};
  auto fail = [&](const std::string& kind, const std::string& why) {
    note_failure(t.call, kind, why);
    record["outcome"] = kind;
    record["error"] = why;
    log_call(record);
  };
  if (!r.ok()) {
    if (r.status == CallStatus::quota || r.http_status == 401 || r.http_status == 403)
      stop_calling_ = r.error;  // will not fix itself: search on with the built-in engines
    return fail(failure_kind(r), r.error);
  }
  ReplyProposal p = proposal_of_reply(r.content, rules());
  if (!p.check.errors.empty()) record["errors"] = p.check.errors;
  if (!p.failure.empty()) return fail(p.failure, p.why);
  record["outcome"] = "accepted";
  record["proposal"] = logged_proposal(*p.value);
  ready_.push_back({std::move(*p.check.proposal), t, std::move(record)});
}

void Session::report_spending() {
  reporter_.set("llm_calls", static_cast<double>(calls_));
  reporter_.set("llm_in_flight", static_cast<double>(pool_ ? pool_->in_flight() : 0));
  reporter_.set("llm_tokens", static_cast<double>(prompt_tokens_ + completion_tokens_));
  reporter_.set("llm_cost", cost_);
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
  if (!best_scheme_) {
    best_scheme_ = tdisc::classical_scheme(config_.target.format);
    best_scheme_->ring = config_.target.ring;
  }
  return &*best_scheme_;
}

void Session::note_failure(int call, const std::string& kind, const std::string& reason) {
  failures_.push_back({call, kind, reason});
  while (failures_.size() > kFailuresKept) failures_.pop_front();
}

// Runs that ended without the target: their residual and rounded fraction, and for proposed
// schemes the Brent equations that fail, so that the model sees where the search stands.
void Session::note_near_misses(const Evaluation& ev, const std::string& source) {
  for (const auto& run : ev.runs) {
    if (run.time_to_target >= 0 || (run.residual < 0 && ev.failing_equations.empty())) continue;
    NearMiss m;
    m.source = source;
    m.residual = run.residual;
    m.exact_fraction = run.exact_fraction;
    m.best_rank = run.best_rank;
    m.failing = ev.failing_equations;
    near_misses_.push_back(m);
  }
  while (near_misses_.size() > kNearMissesKept) near_misses_.pop_front();  // the most recent stay
}

void Session::log_call(json record) {
  if (!settings_.run_dir.empty()) {
    try {
      const int fd = open_append_nofollow(settings_.run_dir + "/calls.jsonl");  // a link is refused
      (void)write_all(fd, record.dump(-1, ' ', false, json::error_handler_t::replace) + "\n");
      ::close(fd);
    } catch (const InputError& e) {  // the events keep the summary and say why the full record is missing
      record["calls_jsonl"] = e.located();
    }
    record.erase("messages");  // the full exchange lives in calls.jsonl; events keep the summary
    record.erase("response");
  }
  reporter_.event(record);
}

}  // namespace tdisc::llm
