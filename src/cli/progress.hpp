// The live views of a running `tdisc search`: the progress line, redrawn in place on a terminal
// (elapsed, current and best rank, flips/s, restarts, lift attempts, residual), a plain log line every
// few seconds otherwise; and with --report the run's page, rewritten after every checkpoint.
#pragma once
#include <functional>
#include <string>

#include "src/report/html.hpp"
#include "src/search/progress.hpp"

namespace tdisc::cli {

// One line, no newline: "[   12.3s] rank 25 · best 24 → 23 · 5.21M flips/s · restarts 3 · lifts 1/4";
// an MPI run adds "· 4 ranks (slowest 2: 1.20M/s)" (totals are over all ranks).
// rate_name empty: the engine counts no moves and no rate is shown.
std::string progress_line(const search::ProgressView& v, double rate, const std::string& rate_name);
std::string human_count(double x);    // 5210000 → "5.21M"
using report::seconds_text;           // 75 → "1m15s": one duration format for the CLI and the reports

// The sink `tdisc search` hands the orchestrator: stderr, redrawn every update on a terminal, one
// line every 5 s otherwise; the rate is flips (or moves) per second since the last line.
class TerminalProgress : public search::ProgressSink {
public:
  TerminalProgress();
  void update(const search::ProgressView& v) override;
  void finish() override;

private:
  bool tty_;
  double last_print_ = -1e9, last_moves_ = 0, last_t_ = 0;
};

// search --report: rewrites RUN_DIR/report.html (atomically, so a browser tab on it can be refreshed
// during the run); the search calls it after every checkpoint and once at the end.
std::function<void()> report_writer(const std::string& run_dir);

}  // namespace tdisc::cli
