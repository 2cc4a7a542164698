// The "llm" Engine: validates its settings, then runs a Session (session.cpp). Registered by the
// CLI at start-up so that `tdisc search --engine llm` finds it.
#include "src/llm/engine.hpp"

#include "base/error.hpp"
#include "src/llm/evaluator.hpp"
#include "src/llm/proposer/session.hpp"
#include "src/llm/proposer/settings.hpp"
#include "src/search/mpi/jobs.hpp"

namespace tdisc::llm {

namespace {

class LlmEngine : public search::Engine {
public:
  std::string name() const override { return "llm"; }
  const params::Table* param_table() const override { return &llm_table(); }
  nlohmann::json default_params() const override { return {{"llm", llm_default_params()}}; }
  std::vector<std::string> validate_params(const nlohmann::json& params) const override {
    return validate_llm_params(params);
  }
  std::vector<search::ResolvedParams> resolve(const search::EngineConfig& config) const override {
    return {{"", resolve_llm_settings(config.params).settings}};
  }
  void run(const search::EngineConfig& config, search::Reporter& reporter) override {
    auto errors = validate_llm_params(config.params);
    if (!errors.empty()) {
      std::string all;
      for (const auto& e : errors) all += (all.empty() ? "" : "; ") + e;
      throw UsageError(all);
    }
    Session(config, reporter, read_llm_settings(config.params)).run();
  }
};

}  // namespace

std::unique_ptr<search::Engine> make_llm_engine() { return std::make_unique<LlmEngine>(); }

void register_llm_engine() {
  search::register_engine("llm", make_llm_engine);
  search::mpi::register_job("llm_seed", run_seed_job);  // under mpirun, the other ranks run proposals' seeds
}

}  // namespace tdisc::llm
