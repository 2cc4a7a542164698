// The llm-reply target: the fuzz input is the body of a server's HTTP reply, taken the whole way an
// LLM run takes it, without a network: the client reads it as a 2xx chat completion and as an error
// body (chat_result: parsing, key redaction, bounded excerpts), the session extracts and checks the
// proposal (proposal_of_reply), and a proposed scheme goes through the evaluator's exact check
// (evaluate_scheme, no repair). A refusal is a failed call; anything else is a finding: an exception,
// the key in what would be logged, an excerpt over its bound or not UTF-8, a proposal beyond the rules.
#include <cstdint>
#include <string>

#include "base/utf8.hpp"
#include "decomposition/constructions.hpp"
#include "src/llm/client.hpp"
#include "src/llm/evaluator.hpp"
#include "src/llm/redact.hpp"
#include "src/llm/reply.hpp"
#include "tests/fuzz/targets/fuzz_one.hpp"
#include "tests/llm/null_reporter.hpp"

namespace tdisc::fuzz {

namespace {

using llm::ChatResult;

const std::string kKey = "sk-fuzz-SECRET-key-0123456789";  // what a server might echo back
const char* const kTarget = "llm-reply";
constexpr size_t kSuffix = 48;  // utf8_excerpt appends "… (N bytes in all)" to what it cut

// The outer end of an evaluation: takes every verified offer, never stops or checkpoints.
using Sink = test::NullReporter;

// What a session logs of a call (calls.jsonl, events.jsonl): the content's excerpt and the error.
void check_loggable(const ChatResult& r) {
  const std::string excerpt = utf8_excerpt(r.content, llm::kReplyExcerptBytes);
  for (const std::string* text : {&excerpt, &r.error}) {
    if (text->find(kKey) != std::string::npos) finding(kTarget, "the API key survives in what is logged");
    if (utf8_invalid_at(*text) != std::string::npos) finding(kTarget, "a logged excerpt is not valid UTF-8");
  }
  if (excerpt.size() > llm::kReplyExcerptBytes + kSuffix) finding(kTarget, "a reply excerpt passes its bound");
  if (r.error.size() > llm::kErrorExcerptBytes + kSuffix) finding(kTarget, "an error excerpt passes its bound");
  if (!r.ok() && r.error.empty()) finding(kTarget, "a failed call without a reason");
}

// The target of the fuzzed run: 2x2x2 over Q (fractions and complex text are read, not refused), rank
// 7, the classical scheme as the parent of edits, the two engines a recipe may name.
llm::ProposalRules rules_of(const Scheme& parent) {
  llm::ProposalRules rules;
  rules.target = {Format{2, 2, 2}, 7, Ring::Q};
  rules.engines = {"flip", "numeric"};
  rules.kinds = {"recipe", "scheme"};
  rules.max_budget_seconds = 5;
  rules.max_seeds = 2;
  rules.parent = &parent;
  return rules;
}

void check_proposal_bounds(const llm::Proposal& p, const llm::ProposalRules& rules) {
  if (p.kind == "recipe") {
    const llm::Recipe& r = p.recipe;
    if (r.budget_seconds <= 0 || r.budget_seconds > rules.max_budget_seconds || r.seeds < 1 || r.seeds > rules.max_seeds)
      finding(kTarget, "an accepted recipe's budget or seeds are outside the rules");
    if (r.engine != "flip" && r.engine != "numeric") finding(kTarget, "an accepted recipe names an engine not offered");
    return;
  }
  if (!p.scheme) finding(kTarget, "an accepted scheme proposal without a scheme");
  const long max_rank = 2 * rules.target.format.classical_rank();
  if (p.scheme->format != rules.target.format || p.scheme->rank() < 1 || p.scheme->rank() > max_rank)
    finding(kTarget, "an accepted scheme is outside the target's format or rank bound");
}

void evaluate(const llm::Proposal& p, const llm::ProposalRules& rules) {
  if (p.kind != "scheme") return;  // a recipe runs an engine for seconds: its checks are the proposal's
  Sink sink;
  llm::EvalContext ctx;
  ctx.target = rules.target;
  llm::Evaluation ev = llm::evaluate_scheme(*p.scheme, ctx, sink, 0);
  if (ev.best && ev.best->rank() > p.scheme->rank()) finding(kTarget, "the evaluator returned a larger scheme than proposed");
}

}  // namespace

void llm_reply_one(const uint8_t* data, size_t size) {
  const std::string body(reinterpret_cast<const char*>(data), size);
  static const Scheme parent = [] {
    Scheme s = classical_scheme(Format{2, 2, 2});
    s.ring = Ring::Q;
    return s;
  }();
  const llm::ProposalRules rules = rules_of(parent);
  for (const long status : {200L, 401L, 500L}) {  // a completion, then the body as an error
    llm::RetryOutcome out;
    out.reply.status = status;
    out.reply.body = body;
    out.attempts = 1;
    ChatResult r;
    try {
      r = llm::chat_result(out, kKey);
    } catch (const std::exception& e) {
      finding(kTarget, std::string("the client threw on a reply: ") + e.what());
    }
    check_loggable(r);
    if (!r.ok()) continue;
    if (status != 200) finding(kTarget, "an error status read as a completion");
    llm::ReplyProposal p;
    try {
      p = llm::proposal_of_reply(r.content, rules);
    } catch (const std::exception& e) {
      finding(kTarget, std::string("the proposal checks threw: ") + e.what());
    }
    if (p.failure.empty() != p.check.proposal.has_value()) finding(kTarget, "a reply both accepted and refused");
    if (!p.failure.empty()) {
      if (p.why.empty()) finding(kTarget, "a refused reply without a reason");
      if (p.why.size() > llm::kErrorExcerptBytes + kSuffix || p.check.errors.size() > llm::kLoggedErrors)
        finding(kTarget, "what is logged of a refused reply passes its bound");
      continue;
    }
    const nlohmann::json logged = llm::logged_proposal(*p.value);
    const size_t kept = logged == *p.value ? p.value->dump().size() : logged["excerpt"].get_ref<const std::string&>().size();
    if (kept > llm::kReplyExcerptBytes + kSuffix || p.check.proposal->rationale.size() > llm::kMaxRationaleBytes + kSuffix ||
        p.check.proposal->recipe.rationale.size() > llm::kMaxRationaleBytes + kSuffix)
      finding(kTarget, "what is logged or kept of an accepted proposal passes its bound");
    check_proposal_bounds(*p.check.proposal, rules);
    try {
      evaluate(*p.check.proposal, rules);
    } catch (const std::exception& e) {
      finding(kTarget, std::string("the evaluator threw on an accepted scheme: ") + e.what());
    }
  }
}

}  // namespace tdisc::fuzz
