// What --resume continues from: the checkpoint (checked, run/checkpoint.hpp) reconciled with the
// best files that verify, after repairing what a kill -9 leaves torn. What is proved wins over what
// is claimed.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "decomposition/ring.hpp"
#include "decomposition/scheme.hpp"

namespace tdisc::search {

// What --resume continues from. The checkpoint must be a tdisc-checkpoint of the run's engine (a
// foreign one is refused, never resumed over); the best rank is the lowest of the best-r<R>.json
// files that parse and verify over the run's ring, whatever the checkpoint says (a kill can fall
// between a best file and the next checkpoint, or before the first checkpoint).
struct ResumePoint {
  nlohmann::json checkpoint;       // validated, best_rank/best_file replaced by the verified ones
  bool has_checkpoint = false;     // false: killed before the first checkpoint
  std::optional<Scheme> best;      // the verified best scheme, if any (the walk restarts from it
                                   // when there is no checkpoint state)
  std::vector<std::string> notes;  // files skipped and why, disagreements with the checkpoint
};

// Throws InputError (exit 2) for a checkpoint that is not this run's, leaving the directory as it is;
// otherwise repairs what a kill leaves torn (temporaries, a half line of events.jsonl). The caller
// holds the RunLock.
ResumePoint resume_point(const std::string& dir, const std::string& engine, Ring ring);

}  // namespace tdisc::search
