// The MPI side of a campaign (mpi_share.hpp): setup from rank 0, reports to rank 0, goodbyes.
#include "src/campaign/mpi_share.hpp"

#include <iostream>
#include <thread>

#include "base/error.hpp"
#include "decomposition/native.hpp"
#include "src/search/mpi/channel.hpp"
#include "src/search/mpi/rank_config.hpp"
#include "src/search/mpi/world.hpp"
#include "src/search/run/lock.hpp"

namespace tdisc::campaign {

namespace mpi = search::mpi;

namespace {

constexpr double kSetupSeconds = 120;

// Rank 0: the state, sent to every other rank (or the error that ends them all).
CampaignState lead_setup(mpi::Channel& ch, const mpi::World& w, const std::function<CampaignState()>& lead_state) {
  try {
    CampaignState s = lead_state();
    for (int r = 1; r < w.size; ++r) ch.post(r, mpi::kSetup, nlohmann::json{{"state", state_json(s)}}.dump());
    return s;
  } catch (const std::exception& e) {
    for (int r = 1; r < w.size; ++r) ch.post(r, mpi::kSetup, nlohmann::json{{"error", e.what()}}.dump());
    ch.drain(5);
    throw;
  }
}

CampaignState follower_setup(mpi::Channel& ch) {
  auto m = ch.wait(mpi::kSetup, 0, kSetupSeconds);
  if (!m) throw UsageError("campaign: no setup from rank 0 within 120 s");
  const nlohmann::json j = nlohmann::json::parse(m->body);
  if (j.contains("error")) throw UsageError("campaign: rank 0 could not start: " + j["error"].get<std::string>());
  return state_from_json(j.at("state"), "campaign.json (from rank 0)");
}

nlohmann::json report_json(const TargetState& t, int k, const std::optional<VerifiedBest>& to_file) {
  nlohmann::json j = {{"target", k}, {"state", target_json(t)}};
  if (to_file) j["scheme"] = native_text(to_file->scheme), j["file"] = to_file->file, j["rank"] = to_file->rank;
  return j;
}

// Rank 0: a report of another rank merged into the state (its scheme re-verified when filed).
void merge_report(Runner& runner, const std::string& body) {
  const nlohmann::json j = nlohmann::json::parse(body);
  std::optional<VerifiedBest> to_file;
  if (j.contains("scheme"))
    to_file = VerifiedBest{j.at("rank").get<int>(), j.at("file").get<std::string>(), parse_native(j.at("scheme").get<std::string>(), j.at("file").get<std::string>())};
  runner.merge(j.at("target").get<int>(), target_from_json(j.at("state"), "a report from another rank"), to_file);
}

}  // namespace

int run_under_mpi(CampaignConfig config, const std::vector<CampaignTarget>& targets,
                  const std::function<CampaignState()>& lead_state, bool threads_auto, std::ostream& out) {
  const mpi::World w = mpi::init();
  int code = 0;
  {
    mpi::Channel ch;
    const CampaignState state = w.rank == 0 ? lead_setup(ch, w, lead_state) : follower_setup(ch);
    std::optional<search::RunLock> lock;
    if (w.rank == 0) lock.emplace(config.dir);
    if (threads_auto) config.threads = mpi::threads_per_rank(static_cast<int>(std::thread::hardware_concurrency()), w);
    if (config.filing) config.filing->campaign_seed = state.seed;
    config.mpi_rank = w.rank;
    Runner* lead = nullptr;
    int byes = 0;
    Sharing sharing;
    sharing.mine = [w](int k) { return k % w.size == w.rank; };
    sharing.keeps_state = w.rank == 0;
    if (w.rank == 0) {
      sharing.poll = [&] {
        while (auto m = ch.poll()) {
          if (m->tag == mpi::kReport && lead) merge_report(*lead, m->body);
          if (m->tag == mpi::kBye) ++byes;
        }
      };
    } else {
      sharing.report = [&](const TargetState& t, int k, const std::optional<VerifiedBest>& f) { ch.post(0, mpi::kReport, report_json(t, k, f).dump()); };
      sharing.poll = [&] { ch.drain(0); };
    }
    Runner runner(config, targets, state, out, sharing);
    lead = &runner;
    const CampaignState end = runner.run();
    if (w.rank == 0) {
      while (byes < w.size - 1) {  // the others end when their targets do or the budget does
        sharing.poll();
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
      out << status_table(runner.state());
      for (const TargetState& t : runner.state().targets)
        if (t.status != Status::reached) code = 3;
    } else {
      ch.post(0, mpi::kBye, "{}");
      ch.drain(30);
    }
  }
  mpi::finalize();
  return code;
}

}  // namespace tdisc::campaign
