// Work other ranks do for rank 0 when its engine has none of its own to split (the llm engine: one
// seed of a proposal's evaluation per job). A kind names a runner, registered at start-up by the
// module that owns the work (src/llm), so src/search needs no knowledge of it.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "src/search/engine.hpp"

namespace tdisc::search::mpi {

// Runs one job on this rank; offers go through `reporter` (to rank 0, which verifies them).
using JobRunner = nlohmann::json (*)(const nlohmann::json& job, Reporter& reporter);

// Engines whose other ranks serve jobs instead of running the engine themselves ("llm").
bool serves_jobs(const std::string& engine);

void register_job(const std::string& kind, JobRunner runner);
JobRunner find_job(const std::string& kind);  // nullptr when unknown

}  // namespace tdisc::search::mpi
