// A reply's way in: extraction, then validation; a check that meets a field of a type it did not
// expect is one failed call ("schema"), never an exception out of the session.
#include "src/llm/reply.hpp"

#include "decomposition/json_input.hpp"
#include "src/llm/json_extract.hpp"

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
    out.why = "a field of an unexpected type: " + json_library_message(e);
    return out;
  }
  if (!out.check.proposal) {
    out.failure = "schema";
    out.why = out.check.summary();
  }
  return out;
}

}  // namespace tdisc::llm
