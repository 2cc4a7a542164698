// Rank 0 of an MPI search: it owns the run directory (the orchestrator runs here only), sends every
// other rank its setup and share of a resumed state, relays their offers to the orchestrator (which
// verifies each before anything is written), merges their states into one checkpoint, totals their
// counters, watches their heartbeats, and at the end tells them the exit code.
#pragma once
#include <memory>

#include "src/search/engine.hpp"
#include "src/search/mpi/settings.hpp"
#include "src/search/mpi/world.hpp"

namespace tdisc::search::mpi {

class Lead {
public:
  explicit Lead(const World& w);
  ~Lead();
  const World& world() const;
  // The engine the orchestrator runs: `inner` on rank 0, the other ranks driven alongside it.
  std::unique_ptr<Engine> wrap(std::unique_ptr<Engine> inner, const Settings& s);
  // After the orchestrator: every rank exits with `code`; returns it.
  int close(int code);
  // An error on rank 0 before the search started: the others exit quietly with `code`.
  void cancel(int code);

  struct Hub;

private:
  std::shared_ptr<Hub> hub_;
};

}  // namespace tdisc::search::mpi
