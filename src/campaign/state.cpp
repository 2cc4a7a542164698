// campaign.json read and written (atomically), and the derived per-target seeds.
#include "src/campaign/state.hpp"

#include <filesystem>

#include "base/error.hpp"
#include "base/io.hpp"
#include "decomposition/scheme.hpp"
#include "generated/tdisc_version.hpp"

namespace tdisc::campaign {

namespace {
constexpr const char* kStatusNames[] = {"waiting", "running", "paused", "reached", "spent", "failed"};

Status status_of(const std::string& name, const std::string& path) {
  for (int k = 0; k < 6; ++k)
    if (name == kStatusNames[k]) return static_cast<Status>(k);
  throw InputError(path, 0, "not a campaign state (unknown target status \"" + name + "\")");
}

nlohmann::json rank_json(int rank) { return rank == INT_MAX ? nlohmann::json(nullptr) : nlohmann::json(rank); }
int rank_of(const nlohmann::json& j) { return j.is_number_integer() ? j.get<int>() : INT_MAX; }
}  // namespace

const char* status_name(Status s) { return kStatusNames[static_cast<int>(s)]; }
bool finished(Status s) { return s == Status::reached || s == Status::spent || s == Status::failed; }

unsigned long long target_seed(unsigned long long campaign_seed, int index) {
  unsigned long long z = campaign_seed + 0x9E3779B97F4A7C15ULL * static_cast<unsigned long long>(index + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

CampaignState fresh_state(const std::vector<CampaignTarget>& targets, const std::string& dir, unsigned long long seed) {
  CampaignState s;
  s.seed = seed;
  for (size_t k = 0; k < targets.size(); ++k) {
    const CampaignTarget& t = targets[k];
    TargetState ts;
    ts.key = t.key();
    ts.name = t.name(static_cast<int>(k));
    ts.line = t.line;
    ts.format = t.format.str();
    ts.ring = ring_name(t.ring);
    ts.beat = t.beat;
    ts.reach = t.reach;
    ts.start_rank = t.start_rank > 0 ? t.start_rank : INT_MAX;
    ts.run_dir = dir + "/" + ts.name;
    ts.seed = target_seed(seed, static_cast<int>(k));
    s.targets.push_back(ts);
  }
  return s;
}

nlohmann::json target_json(const TargetState& t) {
  return {{"key", t.key}, {"name", t.name}, {"line", t.line}, {"format", t.format}, {"ring", t.ring},
          {"beat", t.beat}, {"reach", t.reach}, {"status", status_name(t.status)},
          {"best_rank", rank_json(t.best_rank)}, {"start_rank", rank_json(t.start_rank)}, {"seconds", t.seconds}, {"run_dir", t.run_dir},
          {"seed", t.seed}, {"filed_rank", rank_json(t.filed_rank)}, {"filed", t.filed}, {"note", t.note}};
}

TargetState target_from_json(const nlohmann::json& t, const std::string& path) {
  TargetState ts;
  try {
    ts.key = t.at("key").get<std::string>();
    ts.name = t.at("name").get<std::string>();
    ts.line = t.value("line", 0);
    ts.format = t.value("format", "");
    ts.ring = t.value("ring", "");
    ts.beat = t.value("beat", 0);
    ts.reach = t.value("reach", 0);
    ts.status = status_of(t.at("status").get<std::string>(), path);
    ts.best_rank = rank_of(t.value("best_rank", nlohmann::json()));
    ts.start_rank = rank_of(t.value("start_rank", nlohmann::json()));
    ts.seconds = t.value("seconds", 0.0);
    ts.run_dir = t.at("run_dir").get<std::string>();
    ts.seed = t.at("seed").get<unsigned long long>();
    ts.filed_rank = rank_of(t.value("filed_rank", nlohmann::json()));
    ts.filed = t.value("filed", "");
    ts.note = t.value("note", "");
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path, 0, std::string("not a campaign state (") + e.what() + "); refusing to run over it");
  }
  return ts;
}

nlohmann::json state_json(const CampaignState& s) {
  nlohmann::json targets = nlohmann::json::array();
  for (const TargetState& t : s.targets) targets.push_back(target_json(t));
  return {{"format", "tdisc-campaign"}, {"version", 1}, {"targets_file", s.targets_file}, {"seed", s.seed},
          {"elapsed", s.elapsed}, {"budget_seconds", s.budget}, {"sessions", s.sessions}, {"catalog", s.catalog},
          {"command", s.command}, {"tool", TDISC_TOOL}, {"updated", utc_now()}, {"targets", targets}};
}

CampaignState state_from_json(const nlohmann::json& j, const std::string& path) {
  if (!j.is_object() || j.value("format", "") != "tdisc-campaign" || j.value("version", 0) != 1)
    throw InputError(path, 0, "not a campaign state (\"format\": \"tdisc-campaign\", version 1); refusing to run over it");
  CampaignState s;
  try {
    s.targets_file = j.value("targets_file", "");
    s.seed = j.at("seed").get<unsigned long long>();
    s.elapsed = j.value("elapsed", 0.0);
    s.budget = j.value("budget_seconds", 0.0);
    s.sessions = j.value("sessions", 0);
    s.catalog = j.value("catalog", "");
    s.command = j.value("command", nlohmann::json::array());
    for (const nlohmann::json& t : j.at("targets")) s.targets.push_back(target_from_json(t, path));
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path, 0, std::string("not a campaign state (") + e.what() + "); refusing to run over it");
  }
  return s;
}

std::string state_path(const std::string& dir) { return dir + "/campaign.json"; }

std::optional<CampaignState> read_state(const std::string& dir) {
  const std::string path = state_path(dir);
  if (!std::filesystem::exists(path)) return std::nullopt;
  const std::string text = read_text_file(path, InputKind::run_file);
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) throw InputError(path, 0, "not JSON; refusing to run over it (move it away to start afresh)");
  return state_from_json(j, path);
}

void write_state(const std::string& dir, const CampaignState& s) { write_file_atomic(state_path(dir), state_json(s).dump(1) + "\n"); }

void check_same_targets(const CampaignState& s, const std::vector<CampaignTarget>& targets, const std::string& file) {
  const std::string where = file + " (resuming the campaign of its --dir)";
  if (s.targets.size() != targets.size())
    throw InputError(where, 0, "lists " + std::to_string(targets.size()) + " targets, the campaign state " +
                                   std::to_string(s.targets.size()) + "; give another --dir for another list");
  for (size_t k = 0; k < targets.size(); ++k)
    if (s.targets[k].key != targets[k].key())
      throw InputError(file, targets[k].line, "target " + std::to_string(k + 1) + " is " + targets[k].key() +
                                                  ", the campaign state's is " + s.targets[k].key +
                                                  "; give another --dir for another list");
}

}  // namespace tdisc::campaign
