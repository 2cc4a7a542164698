// The live progress line of tdisc search (src/cli/progress.hpp): what a flip walk, a numeric run and an
// MPI run show.
#include <catch2/catch.hpp>

#include "src/cli/progress.hpp"

using namespace tdisc::cli;
using tdisc::search::ProgressView;

TEST_CASE("the progress line of a flip walk shows rank, best, flips/s, restarts and lifts", "[fast]") {
  ProgressView v;
  v.elapsed = 75;
  v.best_rank = 50;
  v.target_rank = 49;
  v.counters = {{"rank", 51}, {"flips", 1e9}, {"restarts", 3}, {"lift_attempts", 4}, {"lifts", 1}};
  const std::string line = progress_line(v, 6.2e6, "flips/s");
  CHECK(line == "[   1m15s] rank 51 · best 50 → 49 · 6.20M flips/s · restarts 3 · lifts 1/4");
}

TEST_CASE("the progress line of a numeric run shows restarts, residual and exact share, no rate", "[fast]") {
  ProgressView v;
  v.elapsed = 12.5;
  v.best_rank = 0;
  v.target_rank = 48;
  v.counters = {{"restarts", 710}, {"residual", 1.07}, {"exact_fraction", 0.25}};
  const std::string line = progress_line(v, 0, "");
  CHECK(line == "[   12.5s] best - → 48 · restarts 710 · residual 1.07 · exact 25%");
}

TEST_CASE("the progress line of a GPU numeric run adds the near-misses handed to the CPU", "[fast]") {
  ProgressView v;
  v.elapsed = 60;
  v.best_rank = 0;
  v.target_rank = 23;
  v.counters = {{"restarts", 8338}, {"near_misses", 1361}, {"residual", 1.8e-5}};
  const std::string line = progress_line(v, 0, "");
  CHECK(line.find("restarts 8.3k · near-misses 1.4k · residual 1.8e-05") != std::string::npos);
}

TEST_CASE("the progress line of an MPI run names the ranks and the slowest one", "[fast]") {
  ProgressView v;
  v.elapsed = 10;
  v.best_rank = 50;
  v.target_rank = 49;
  v.counters = {{"flips", 3e7}, {"ranks", 4}, {"slowest_rank", 2}, {"slowest_rate", 6.5e5}};
  CHECK(progress_line(v, 3e6, "flips/s") == "[   10.0s] best 50 → 49 · 3.00M flips/s · 4 ranks (slowest 2: 650.0k/s)");
}
