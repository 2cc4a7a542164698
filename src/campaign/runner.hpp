// The campaign loop: starts a `tdisc search` child per target with its share of the threads, watches
// their run directories, files every verified improvement, gives a finished target's threads to the
// others, and keeps DIR/campaign.json current (docs/campaign.md).
#pragma once
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "src/campaign/harvest.hpp"
#include "src/campaign/state.hpp"
#include "src/campaign/targets.hpp"

namespace tdisc::campaign {

struct CampaignConfig {
  std::string targets_file;
  std::string dir;                 // the campaign directory: campaign.json, a run directory per target, logs/
  int threads = 1;
  double budget = 600;             // --time: the campaign's wall-clock seconds over all its sessions
  double checkpoint_seconds = 10;  // each search's --checkpoint-every
  double rebalance_min = 15;       // no rebalance when less campaign time than this is left
  std::optional<Filing> filing;    // --catalog: where improvements go; nullopt: run directories only
  std::string catalogue_dir;       // --catalog-dir, passed on to each new search (its recipe table, ansätze); "": theirs
  bool quiet = false;
  int mpi_rank = -1;               // under mpirun: this process's rank (said in each line), else -1
};

// Which targets this process runs (all, or under mpirun those of its rank), and where their states
// go besides campaign.json (rank 0 gathers them). Empty functions: a single process.
struct Sharing {
  std::function<bool(int target)> mine;
  std::function<void(const TargetState&, int target, const std::optional<VerifiedBest>& to_file)> report;
  std::function<void()> poll;      // called every turn of the loop (rank 0: messages of the others)
  bool keeps_state = true;         // writes campaign.json (rank 0)
};

class Runner {
public:
  Runner(CampaignConfig config, std::vector<CampaignTarget> targets, CampaignState state, std::ostream& out, Sharing sharing = {});
  // Runs until every target of this process is finished, the campaign's time is spent, or a signal;
  // returns the final state (also in campaign.json).
  CampaignState run();
  // A target's state as another rank reports it (rank 0 under mpirun); files `to_file` when given.
  void merge(int target, const TargetState& reported, const std::optional<VerifiedBest>& to_file);
  const CampaignState& state() const { return state_; }

private:
  struct Child {
    int target = 0;
    int pid = 0;
    int threads = 0;
    double started = 0;       // session seconds at start
    double base_seconds = 0;  // the target's seconds before this child
    bool interrupted = false;
  };
  double session() const;
  double left() const;                      // campaign seconds left
  std::optional<double> share_left(int k) const;
  bool mine(int k) const;
  void recover();                           // after a kill: run directories say what was done
  void launch(int k, int threads);
  std::vector<std::string> search_args(int k, int threads, double seconds) const;
  void plan();                              // start what may start; rebalance when threads are idle
  void settle(const Child& c, int code);    // a child ended
  void harvest(int k);                      // a new verified best in k's run directory: note and file it
  void file(int k, const VerifiedBest& b);
  void tick_seconds();
  void save(bool force = false);
  void say(int k, const std::string& what) const;
  void changed(int k, const std::optional<VerifiedBest>& to_file = std::nullopt);

  CampaignConfig config_;
  std::vector<CampaignTarget> targets_;
  CampaignState state_;
  std::ostream& out_;
  Sharing sharing_;
  std::vector<Child> children_;
  double start_ = 0, elapsed_before_ = 0, last_save_ = -1, last_harvest_ = -1;
};

// Whether a verified rank of t goes to the catalogue: it reaches the target or beats the best known, and
// is lower than what was filed before.
bool fileable(const TargetState& t, int rank);

// The status table of a campaign state: target, ring, rank to beat, target rank, best, time, state.
std::string status_table(const CampaignState& s);

}  // namespace tdisc::campaign
