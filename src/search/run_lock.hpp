// The lock and the resume point of a run directory: one process at a time works in a run
// directory (DIR/lock: "pid host"), and --resume continues from what is proved, not what is claimed.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "decomposition/ring.hpp"
#include "decomposition/scheme.hpp"
#include "src/search/engine.hpp"

namespace tdisc::search {

// DIR/lock, created exclusively (DIR is created when missing). A lock left by a process that is gone (same host, pid not alive)
// is stale and taken over; a live one, or one from another host, is refused with a UsageError that
// names the holder. Removed by the destructor when it is still ours.
class RunLock {
public:
  explicit RunLock(const std::string& dir);
  ~RunLock();
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;
  const std::string& note() const { return note_; }  // "took over a stale lock (pid 123 on h)" or ""

private:
  std::string path_, ours_, note_;
};

// "pid host" of this process, as written into a lock.
std::string lock_owner_text();

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
// What run.json asked for, validated (a foreign or damaged run.json is an InputError, exit 2).
struct RunRequest {
  Target target;
  std::string engine;
  int threads = 1;
  unsigned long long seed = 0;
  nlohmann::json params = nlohmann::json::object();
};
RunRequest read_run_request(const std::string& dir);

// Throws InputError for a checkpoint.json that is not a tdisc checkpoint of `engine`.
void check_checkpoint(const nlohmann::json& c, const std::string& path, const std::string& engine);

}  // namespace tdisc::search
