// The progress line of an MPI search: counters summed over ranks (the orchestrator's own totals),
// counters that are levels combined over ranks (lowest rank and residual, highest exact fraction),
// and the slowest rank with its rate, so one straggler shows in the line of the whole job.
#pragma once
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "src/search/engine.hpp"

namespace tdisc::search::mpi {

class ProgressTotals {
public:
  explicit ProgressTotals(int ranks);
  void record(int rank, const std::map<std::string, double>& added, const std::map<std::string, double>& set);
  // Sets "ranks", "slowest_rank", "slowest_rate" and the combined levels on the orchestrator.
  void publish(Reporter& base);

private:
  std::mutex mutex_;
  std::vector<std::map<std::string, double>> sums_, levels_;
  std::vector<double> last_sum_;
  double last_t_ = -1;
};

}  // namespace tdisc::search::mpi
