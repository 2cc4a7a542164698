// The "llm" engine: an LLM proposes strategy recipes (or schemes), tdisc's own engines run them,
// exact verification scores them, and a program database feeds the next prompt (AlphaEvolve 2025).
// It lives outside src/search, so it registers itself: register_llm_engine().
#pragma once
#include "base/params/bind.hpp"
#include "src/llm/proposer/settings.hpp"
#include "src/search/engine.hpp"

namespace tdisc::llm {

class LlmEngine final : public search::Engine {
public:
  std::string name() const override { return "llm"; }
  const params::Table* param_table() const override;
  nlohmann::json default_params() const override;  // {"llm": its settings}
  std::vector<std::string> validate_params(const nlohmann::json& params) const override;
  // bind_llm_settings (the check and the one bind), kept for resolve() and run() while their params are these.
  void bind_params(const nlohmann::json& params, const std::string& where) override;
  std::vector<search::ResolvedParams> resolve(const search::EngineConfig& config) const override;
  // Runs a Session (proposer/session.hpp): prompts, proposals evaluated by the other engines, the database.
  void run(const search::EngineConfig& config, search::Reporter& reporter) override;

private:
  params::Bound<LlmSettings> settings_for(const nlohmann::json& params) const;
  params::BoundOnce<LlmSettings> bound_;
};

// Registers "llm" with search::register_engine (and its MPI job); called once from the CLI's main().
void register_llm_engine();

}  // namespace tdisc::llm
