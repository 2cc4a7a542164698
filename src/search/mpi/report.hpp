// The message a follower rank sends rank 0 several times a second: its heartbeat, and everything
// its engine said since the last one (offers, events, counter changes, its latest checkpoint state).
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "decomposition/scheme.hpp"

namespace tdisc::search::mpi {

struct Offer {
  Scheme scheme;
  std::string method;
};

struct Report {
  std::vector<Offer> offers;
  std::vector<nlohmann::json> events;
  std::map<std::string, double> added;  // counter deltas since the last report
  std::map<std::string, double> set;    // counters' latest values
  std::optional<nlohmann::json> checkpoint;  // the engine's latest state
  bool done = false;                    // the engine has ended (its final state is in checkpoint)

  std::string text() const;
  static Report parse(const std::string& text);  // throws InputError on a malformed message
  void merge(Report later);                      // later news on top of this
};

}  // namespace tdisc::search::mpi
