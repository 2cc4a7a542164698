// Pool migration around a ring of ranks (see islands.hpp). A ring keeps each rank's traffic constant
// as ranks are added (one pool out, one in, per period); docs/mpi.md discusses other topologies.
#include "src/search/mpi/islands.hpp"

namespace tdisc::search::mpi {

bool Islands::due(const std::string& walk) const {
  if (period_ <= 0 || world_.size < 2) return false;
  std::lock_guard lock(mutex_);
  auto it = last_.find(walk);
  return it == last_.end() || std::chrono::duration<double>(Clock::now() - it->second).count() >= period_;
}

std::vector<nlohmann::json> Islands::exchange(const std::string& walk, const nlohmann::json& pool) {
  std::lock_guard lock(mutex_);
  last_[walk] = Clock::now();
  if (!pool.empty()) {
    auto& out = outbox_[walk];
    out = nlohmann::json::array();
    for (size_t i = 0; i < pool.size() && i < static_cast<size_t>(migrants_); ++i) out.push_back(pool[i]);
  }
  std::vector<nlohmann::json> arrived;
  arrived.swap(inbox_[walk]);
  return arrived;
}

void Islands::send(Channel& channel) {
  std::map<std::string, nlohmann::json> out;
  {
    std::lock_guard lock(mutex_);
    out.swap(outbox_);
  }
  const int next = (world_.rank + 1) % world_.size;
  for (auto& [walk, pool] : out) {
    channel.post(next, kMigrants, nlohmann::json{{"walk", walk}, {"pool", pool}}.dump());
    ++sent_;
  }
}

void Islands::receive(const Message& m) {
  const nlohmann::json j = nlohmann::json::parse(m.body);
  std::lock_guard lock(mutex_);
  auto& box = inbox_[j.at("walk").get<std::string>()];
  box.clear();  // only the newest pool of the neighbour matters
  for (const auto& t : j.at("pool")) box.push_back(t);
  ++received_;
  states_in_ += static_cast<long>(j.at("pool").size());
}

nlohmann::json Islands::stats() const {
  std::lock_guard lock(mutex_);
  return {{"pools_sent", sent_}, {"pools_received", received_}, {"states_received", states_in_}};
}

}  // namespace tdisc::search::mpi
