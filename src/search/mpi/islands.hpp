// The island model across ranks (Kauers–Moosbauer's pools, one per rank): every `period` seconds a
// walk's pool goes to the next rank of a ring and the previous rank's pool comes in, without blocking
// the walkers (they leave and collect mail; the pump thread posts and receives).
#pragma once
#include <chrono>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "src/search/mpi/channel.hpp"
#include "src/search/mpi/world.hpp"

namespace tdisc::search::mpi {

class Islands {
public:
  Islands(const World& w, double period_seconds, int migrants)
      : world_(w), period_(period_seconds), migrants_(migrants) {}
  // Engine side (any walker thread).
  bool due(const std::string& walk) const;
  // Leaves the walk's pool (lowest rank first; empty: unchanged since the last exchange, nothing is
  // sent) and collects what arrived. At most `migrants` states go out.
  std::vector<nlohmann::json> exchange(const std::string& walk, const nlohmann::json& pool);
  // Pump side.
  void send(Channel& channel);        // posts the pools left since the last call to the next rank
  void receive(const Message& m);     // a kMigrants message
  nlohmann::json stats() const;       // pools sent and received, states received

private:
  using Clock = std::chrono::steady_clock;
  World world_;
  double period_;
  int migrants_;
  mutable std::mutex mutex_;
  std::map<std::string, Clock::time_point> last_;  // per walk: when it last exchanged
  std::map<std::string, nlohmann::json> outbox_;    // per walk: its latest pool, not yet posted
  std::map<std::string, std::vector<nlohmann::json>> inbox_;
  long sent_ = 0, received_ = 0, states_in_ = 0;
};

}  // namespace tdisc::search::mpi
