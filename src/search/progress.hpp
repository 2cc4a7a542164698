// What a search shows while it runs, and the sink it is shown through. The orchestrator fills a
// ProgressView twice a second and hands it to the sink its caller supplied (the command line's
// progress line, src/cli/progress.hpp); the search library itself prints nothing.
#pragma once
#include <map>
#include <string>

namespace tdisc::search {

struct ProgressView {
  double elapsed = 0;  // seconds, earlier sessions of a resumed run included
  double session = 0;  // seconds of this session
  int best_rank = 0;   // lowest verified rank (0: none yet)
  int target_rank = 0;
  std::map<std::string, double> counters;  // the engine's counters (Reporter::add/set)
};

// The walk count of engines that count moves ("flips", else "moves") and the unit of its rate;
// unit "" for engines that count none (the numeric engine counts restarts).
struct WalkCount {
  double moves = 0;
  std::string unit;  // "flips/s", "moves/s" or ""
};
inline WalkCount walk_count(const std::map<std::string, double>& counters) {
  if (auto it = counters.find("flips"); it != counters.end()) return {it->second, "flips/s"};
  if (auto it = counters.find("moves"); it != counters.end()) return {it->second, "moves/s"};
  return {};
}

class ProgressSink {
public:
  virtual ~ProgressSink() = default;
  virtual void update(const ProgressView& view) = 0;  // from the orchestrator's watcher thread
  virtual void finish() {}                            // the search ended (clear a redrawn line)
};

}  // namespace tdisc::search
