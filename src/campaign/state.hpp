// DIR/campaign.json: what a campaign has done, per target (status, best verified rank, seconds spent,
// run directory, seed, what was filed), written to a temporary name and renamed; read back when the
// same campaign is started again after an end or a kill -9 (docs/campaign.md).
#pragma once
#include <climits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/campaign/targets.hpp"

namespace tdisc::campaign {

// waiting: never started; running: a search works on it (after a kill: it did); paused: stopped by the
// campaign (its time, or a rebalance of threads) and continues from its run directory next time.
enum class Status { waiting, running, paused, reached, spent, failed };
const char* status_name(Status s);
bool finished(Status s);  // reached, spent or failed: never started again

struct TargetState {
  std::string key, name;   // CampaignTarget::key() and name(index)
  int line = 0;
  std::string format, ring;
  int beat = 0, reach = 0;
  Status status = Status::waiting;
  int best_rank = INT_MAX;  // lowest verified rank in its run directory (INT_MAX: none yet)
  int start_rank = INT_MAX; // CampaignTarget::start_rank (INT_MAX: unknown): how close best came, from where
  double seconds = 0;       // wall-clock seconds its searches ran, over all sessions
  std::string run_dir;
  unsigned long long seed = 0;
  int filed_rank = INT_MAX; // lowest rank offered to the catalogue
  std::string filed;        // its file there (or the file that has as good)
  std::string note;         // why it failed, or the last word on it
};

struct CampaignState {
  std::string targets_file;
  unsigned long long seed = 0;
  double elapsed = 0;       // the campaign's wall-clock seconds over all sessions
  double budget = 0;        // --time of the last session, in seconds
  int sessions = 0;
  std::string catalog;      // where improvements are filed ("" for none)
  nlohmann::json command = nlohmann::json::array();
  std::vector<TargetState> targets;
};

// The fresh state of a target list: every target waiting, seeds derived from the campaign's seed.
CampaignState fresh_state(const std::vector<CampaignTarget>& targets, const std::string& dir, unsigned long long seed);
// A target's seed: a splitmix64 step of the campaign seed and its index (independent of the others).
unsigned long long target_seed(unsigned long long campaign_seed, int index);

nlohmann::json state_json(const CampaignState& s);
nlohmann::json target_json(const TargetState& t);
TargetState target_from_json(const nlohmann::json& j, const std::string& path);
// Throws InputError(path, 0, …) for a file that is not a campaign state.
CampaignState state_from_json(const nlohmann::json& j, const std::string& path);

std::string state_path(const std::string& dir);  // DIR/campaign.json
std::optional<CampaignState> read_state(const std::string& dir);
void write_state(const std::string& dir, const CampaignState& s);  // atomically

// The targets file read again must list the same targets in the same order (key by key); throws
// InputError naming the first difference otherwise, so that a resumed campaign never mixes two.
void check_same_targets(const CampaignState& s, const std::vector<CampaignTarget>& targets, const std::string& file);

}  // namespace tdisc::campaign
