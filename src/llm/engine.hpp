// The "llm" engine: an LLM proposes strategy recipes (or schemes), tdisc's own engines run them,
// exact verification scores them, and a program database feeds the next prompt (AlphaEvolve 2025).
#pragma once
#include <memory>

#include "src/search/engine.hpp"

namespace tdisc::llm {

std::unique_ptr<search::Engine> make_llm_engine();
// Registers "llm" with search::register_engine; called once from the CLI's main().
void register_llm_engine();

}  // namespace tdisc::llm
