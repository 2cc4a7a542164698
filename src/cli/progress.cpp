// The progress line of `tdisc search` (progress.hpp): its formatting and the terminal sink.
#include "src/cli/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "src/report/pages.hpp"

namespace tdisc::cli {

std::string human_count(double x) {
  char buf[32];
  if (x >= 1e9) std::snprintf(buf, sizeof buf, "%.2fG", x / 1e9);
  else if (x >= 1e6) std::snprintf(buf, sizeof buf, "%.2fM", x / 1e6);
  else if (x >= 1e3) std::snprintf(buf, sizeof buf, "%.1fk", x / 1e3);
  else std::snprintf(buf, sizeof buf, "%.0f", x);
  return buf;
}

std::string progress_line(const search::ProgressView& v, double rate, const std::string& rate_name) {
  auto get = [&](const char* k) -> double {
    auto it = v.counters.find(k);
    return it == v.counters.end() ? NAN : it->second;
  };
  char head[64];
  std::snprintf(head, sizeof head, "[%8s]", seconds_text(v.elapsed).c_str());
  std::string line = head;
  if (double r = get("rank"); !std::isnan(r)) line += " rank " + std::to_string(static_cast<int>(r)) + " ·";
  line += " best " + (v.best_rank > 0 ? std::to_string(v.best_rank) : std::string("-")) + " → " + std::to_string(v.target_rank);
  if (!rate_name.empty()) line += " · " + human_count(rate) + " " + rate_name;
  if (double r = get("restarts"); !std::isnan(r)) line += " · restarts " + human_count(r);
  if (double n = get("near_misses"); !std::isnan(n)) line += " · near-misses " + human_count(n);  // GPU batch
  if (double a = get("lift_attempts"); !std::isnan(a)) {
    double ok = get("lifts");
    line += " · lifts " + std::to_string(static_cast<long>(std::isnan(ok) ? 0 : ok)) + "/" + std::to_string(static_cast<long>(a));
  }
  if (double r = get("residual"); !std::isnan(r)) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " · residual %.3g", r);
    line += buf;
  }
  if (double c = get("llm_calls"); !std::isnan(c)) {
    char buf[96];
    double out = get("llm_in_flight"), tok = get("llm_tokens"), usd = get("llm_cost");
    std::snprintf(buf, sizeof buf, " · llm %.0f calls (%.0f out), %s tok, $%.2f", c, std::isnan(out) ? 0 : out,
                  human_count(std::isnan(tok) ? 0 : tok).c_str(), std::isnan(usd) ? 0 : usd);
    line += buf;
  }
  if (double n = get("ranks"); !std::isnan(n) && n > 1) {  // MPI: totals over ranks, and the slowest one
    line += " · " + std::to_string(static_cast<int>(n)) + " ranks";
    if (double k = get("slowest_rank"); !std::isnan(k))
      line += " (slowest " + std::to_string(static_cast<int>(k)) + ": " + human_count(get("slowest_rate")) + "/s)";
  }
  if (double x = get("exact_fraction"); !std::isnan(x)) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " · exact %.0f%%", 100 * x);
    line += buf;
  }
  return line;
}

TerminalProgress::TerminalProgress() : tty_(isatty(STDERR_FILENO)) {}

void TerminalProgress::update(const search::ProgressView& v) {
  if (v.session - last_print_ < (tty_ ? 0.5 : 5.0)) return;
  const search::WalkCount walk = search::walk_count(v.counters);
  const double rate = (walk.moves - last_moves_) / std::max(1e-9, v.session - last_t_);
  last_moves_ = walk.moves, last_t_ = v.session, last_print_ = v.session;
  const std::string line = progress_line(v, rate, walk.unit);
  if (tty_) std::cerr << "\r\033[K" << line << std::flush;
  else std::cerr << line << "\n";
}

void TerminalProgress::finish() {
  if (tty_) std::cerr << "\r\033[K" << std::flush;
}

std::function<void()> report_writer(const std::string& run_dir) {
  return [run_dir] { report::write_run_report(run_dir, run_dir + "/report.html"); };
}

}  // namespace tdisc::cli
