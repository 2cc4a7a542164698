// The live progress line of a search: redrawn in place on a terminal (elapsed, current and best
// rank, flips/s, restarts, lift attempts, residual), a plain log line every few seconds otherwise.
#pragma once
#include <map>
#include <string>

namespace tdisc::search {

struct ProgressView {
  double elapsed = 0;  // seconds
  int best_rank = 0;   // lowest verified rank (0: none yet)
  int target_rank = 0;
  double rate = 0;     // flips (or moves) per second over the last interval
  std::string rate_name = "flips/s";  // empty: the engine counts no moves, no rate is shown
  std::map<std::string, double> counters;
};

// One line, no newline: "[   12.3s] rank 25 · best 24 → 23 · 5.21M flips/s · restarts 3 · lifts 1/4";
// an MPI run adds "· 4 ranks (slowest 2: 1.20M/s)" (totals are over all ranks).
std::string progress_line(const ProgressView& v);
std::string human_count(double x);    // 5210000 → "5.21M"
std::string human_seconds(double s);  // 75 → "1m15s"

}  // namespace tdisc::search
