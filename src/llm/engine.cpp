// The "llm" Engine: validates its settings, then runs a Session (proposer/session.cpp). Registered by
// the CLI at start-up so that `tdisc search --engine llm` finds it.
#include "src/llm/engine.hpp"

#include "base/error.hpp"
#include "src/llm/evaluator.hpp"
#include "src/llm/proposer/session.hpp"
#include "src/llm/proposer/settings.hpp"
#include "src/search/mpi/jobs.hpp"

namespace tdisc::llm {

const params::Table* LlmEngine::param_table() const { return &llm_table(); }

nlohmann::json LlmEngine::default_params() const { return {{"llm", llm_default_params()}}; }

std::vector<std::string> LlmEngine::validate_params(const nlohmann::json& params) const { return validate_llm_params(params); }

void LlmEngine::bind_params(const nlohmann::json& params, const std::string& where) {
  bound_.keep(params, bind_llm_settings(params, where));
}

// What bind_params bound where params are what it bound, else params checked and bound here (once).
params::Bound<LlmSettings> LlmEngine::settings_for(const nlohmann::json& params) const {
  return bound_.for_params(params, [](const nlohmann::json& p) { return bind_llm_settings(p); });
}

std::vector<search::ResolvedParams> LlmEngine::resolve(const search::EngineConfig& config) const {
  return {{"", settings_for(config.params).settings, "", 0}};
}

void LlmEngine::run(const search::EngineConfig& config, search::Reporter& reporter) {
  Session(config, reporter, settings_for(config.params).value).run();
}

void register_llm_engine() {
  search::register_engine("llm", []() -> std::unique_ptr<search::Engine> { return std::make_unique<LlmEngine>(); });
  search::mpi::register_job("llm_seed", run_seed_job);  // under mpirun, the other ranks run proposals' seeds
}

}  // namespace tdisc::llm
