// The numeric engine: many independent restarts (each seeded from (seed, index)) spread across
// CPU threads, or batched on a GPU (batch_engine.cpp); every result verified exactly before it is offered.
#include "src/search/numeric/engine.hpp"

#include <algorithm>
#include <thread>

#include "base/error.hpp"
#include "src/search/numeric/batch_engine.hpp"
#include "src/search/numeric/params.hpp"
#include "src/search/numeric/run.hpp"
#include "src/search/numeric/seed_batch.hpp"

namespace tdisc::search::numeric {

const params::Table* NumericEngine::param_table() const { return &numeric_table(); }

nlohmann::json NumericEngine::default_params() const { return default_params_json(); }

std::vector<std::string> NumericEngine::validate_params(const nlohmann::json& p) const { return validate(p); }

void NumericEngine::bind_params(const nlohmann::json& params, const std::string& where) {
  bound_.keep(params, bind_numeric_params(params, where));
}

params::Bound<Params> NumericEngine::resolved(const EngineConfig& config) const {
  params::Bound<Params> b = bound_.for_params(config.params, [](const nlohmann::json& p) { return bind_numeric_params(p); });
  derive_for_target(b, config.target);
  return b;
}

std::vector<ResolvedParams> NumericEngine::resolve(const EngineConfig& config) const { return {{"", resolved(config).settings, "", 0}}; }

// The parameters are bound once (bind_params, or here) and handed to the run typed.
void NumericEngine::run(const EngineConfig& config, Reporter& reporter) {
  TDISC_REQUIRE(config.target.rank > 0, "target rank must be positive");
  Run run(config, reporter, resolved(config).value);
  // Seed-space restarts (an ansatz) have their own device path: Adam per block (seed_batch.cpp).
  if (run.parameters().device == Device::Cuda) return run.seed_space() ? run_ansatz_on_cuda(run) : run_on_cuda(run);
  run.announce({{"device", "cpu"}});
  const int threads = std::max(1, config.threads);
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) pool.emplace_back([&run] { run.worker(); });
  run.worker();
  for (auto& t : pool) t.join();
  run.finish();
}

}  // namespace tdisc::search::numeric
