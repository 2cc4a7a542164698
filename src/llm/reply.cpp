// A reply's way in: extraction, then validation; a check that meets a field of a type it did not
// expect is one failed call ("schema"), never an exception out of the session.
#include "src/llm/reply.hpp"

#include "base/utf8.hpp"
#include "decomposition/json_input.hpp"
#include "src/llm/json_extract.hpp"
#include "src/llm/redact.hpp"

namespace tdisc::llm {

ReplyProposal proposal_of_reply(const std::string& content, const ProposalRules& rules) {
  ReplyProposal out;
  Extracted x = extract_json(content);
  if (!x.value) {
    out.failure = "invalid_json";
    out.why = x.why_not;
    return out;
  }
  out.value = std::move(x.value);
  try {
    out.check = check_proposal(*out.value, rules);
  } catch (const nlohmann::json::exception& e) {
    out.check = ProposalCheck{};
    out.failure = "schema";
    out.why = utf8_excerpt("a field of an unexpected type: " + json_library_message(e), kErrorExcerptBytes);
    return out;
  }
  if (!out.check.proposal) {  // logged and shown to the next prompt: bounded like any excerpt of a reply
    if (out.check.errors.size() > kLoggedErrors) out.check.errors.resize(kLoggedErrors);
    for (std::string& e : out.check.errors) e = utf8_excerpt(e, kErrorExcerptBytes / 4);
    out.failure = "schema";
    out.why = utf8_excerpt(out.check.summary(), kErrorExcerptBytes);
  }
  return out;
}

nlohmann::json logged_proposal(const nlohmann::json& value) {
  const std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (text.size() <= kReplyExcerptBytes) return value;
  return {{"excerpt", utf8_excerpt(text, kReplyExcerptBytes)}, {"bytes", text.size()}};
}

}  // namespace tdisc::llm
