// From a model's text to a validated proposal, as the session takes every reply in: the JSON object
// is extracted (json_extract.hpp), then checked as a version-1 recipe or scheme (recipe.hpp). Nothing
// of the reply is kept unless it passed; nothing is ever run as code.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <cstddef>
#include <string>

#include "src/llm/recipe.hpp"

namespace tdisc::llm {

// Errors of one refused proposal kept for the log and the next prompt (each cut to a quarter of
// kErrorExcerptBytes, their summary in `why` to kErrorExcerptBytes): a reply of 100,000 unknown keys
// has as many errors.
constexpr size_t kLoggedErrors = 20;

struct ReplyProposal {
  std::optional<nlohmann::json> value;  // the extracted object (logged with an accepted proposal)
  ProposalCheck check;                  // check.proposal is set when the reply was accepted
  std::string failure;                  // "invalid_json" or "schema" when it was not; "" when accepted
  std::string why;                      // what was wrong, for the log and the next prompt
};

ReplyProposal proposal_of_reply(const std::string& content, const ProposalRules& rules);

// What the logs (events.jsonl, calls.jsonl) keep of an accepted proposal: the object itself when its
// text fits kReplyExcerptBytes, else {"excerpt": its text's first kReplyExcerptBytes cut on a
// character boundary, "bytes": its size}. A reply of 16 MB made event lines that tdisc report skips
// and that the torn-line repair of --resume refuses.
nlohmann::json logged_proposal(const nlohmann::json& value);

}  // namespace tdisc::llm
