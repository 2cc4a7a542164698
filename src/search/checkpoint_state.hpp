// What an engine throws when the state it reads back from a checkpoint is one it cannot have
// written: the orchestrator refuses the checkpoint, naming its file (exit 2), as it does a state
// field of the wrong JSON type (src/search/orchestrator.cpp).
#pragma once
#include <stdexcept>

namespace tdisc::search {

// A term of the wrong shape, a coefficient that is no small integer, terms a walker cannot take.
struct BadCheckpointState : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace tdisc::search
