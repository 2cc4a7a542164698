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

class ProgressSink {
public:
  virtual ~ProgressSink() = default;
  virtual void update(const ProgressView& view) = 0;  // from the orchestrator's watcher thread
  virtual void finish() {}                            // the search ended (clear a redrawn line)
};

}  // namespace tdisc::search
