// A run directory's run.json read back for --resume: what the run asked for, validated.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "src/search/engine.hpp"

namespace tdisc::search {

// What run.json asked for, validated (a foreign or damaged run.json is an InputError, exit 2).
struct RunRequest {
  Target target;
  std::string engine;
  int threads = 1;
  unsigned long long seed = 0;
  nlohmann::json params = nlohmann::json::object();
};
RunRequest read_run_request(const std::string& dir);

}  // namespace tdisc::search
