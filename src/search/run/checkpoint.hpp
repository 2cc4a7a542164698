// checkpoint.json of a run directory: the check that it is a tdisc checkpoint of this run's engine,
// and what an engine throws when the state it reads back from one is a state it cannot have
// written: the orchestrator refuses the checkpoint, naming its file (exit 2), as it does a state
// field of the wrong JSON type (src/search/orchestrator.cpp).
#pragma once
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace tdisc::search {

// A term of the wrong shape, a coefficient that is no small integer, terms a walker cannot take.
struct BadCheckpointState : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws InputError for a checkpoint.json that is not a tdisc checkpoint of `engine`.
void check_checkpoint(const nlohmann::json& c, const std::string& path, const std::string& engine);

}  // namespace tdisc::search
