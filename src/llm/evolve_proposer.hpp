// The LLM as an optional proposer for `tdisc evolve` (src/search/evolve): it is shown the target, the
// evolvable genes (key, range, typical value, whether 0 turns the term off) and the database's elites
// with their rates, and answers {"recipes": [{key: value, …}, …]}, each a change of a few genes.
// Every proposal is merged onto the best elite's recipe, its values clamped to the genes' ranges and
// unknown keys dropped; evolve validates it again before scoring it. A failed call or an unreadable
// reply proposes nothing (the generation is filled by tdisc's own mutation) and is logged.
#pragma once
#include <functional>
#include <string>

#include "src/llm/client.hpp"
#include "src/search/evolve/evolve.hpp"

namespace tdisc::llm {

struct EvolveProposerConfig {
  ClientConfig client;
  std::string model;
  std::string target;  // "4x4x4 rank 48 over QI", for the prompt
  std::function<void(const std::string&)> log;  // one line per call: what came back, or why nothing did
};

search::evolve::Proposer evolve_proposer(EvolveProposerConfig config);

// The parsing half, exposed for tests: the reply's recipes merged onto `best` (see above).
std::vector<nlohmann::json> recipes_from_reply(const std::string& reply, const nlohmann::json& best, int count,
                                               std::string& why_not);

}  // namespace tdisc::llm
