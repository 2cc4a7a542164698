// From a model's text to a validated proposal, as the session takes every reply in: the JSON object
// is extracted (json_extract.hpp), then checked as a version-1 recipe or scheme (recipe.hpp). Nothing
// of the reply is kept unless it passed; nothing is ever run as code.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "src/llm/recipe.hpp"

namespace tdisc::llm {

struct ReplyProposal {
  std::optional<nlohmann::json> value;  // the extracted object (logged with an accepted proposal)
  ProposalCheck check;                  // check.proposal is set when the reply was accepted
  std::string failure;                  // "invalid_json" or "schema" when it was not; "" when accepted
  std::string why;                      // what was wrong, for the log and the next prompt
};

ReplyProposal proposal_of_reply(const std::string& content, const ProposalRules& rules);

}  // namespace tdisc::llm
