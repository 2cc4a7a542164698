// The first message rank 0 sends every other rank: the engine, its configuration (the same for all
// ranks before rank_config.hpp makes it the rank's own), the rank's share of a resumed state and the
// MPI settings; or, when rank 0 failed before the search began, only the exit code.
#pragma once
#include <optional>
#include <string>

#include "src/search/engine.hpp"
#include "src/search/mpi/settings.hpp"

namespace tdisc::search::mpi {

struct Setup {
  std::string engine;
  EngineConfig config;  // resume: this rank's state (none: start fresh)
  Settings settings;
  std::optional<int> cancelled;  // rank 0 stopped before the search: exit with this code
};

std::string setup_text(const Setup& s);
Setup parse_setup(const std::string& text);

}  // namespace tdisc::search::mpi
