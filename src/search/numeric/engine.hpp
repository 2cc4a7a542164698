// The numeric engine ("numeric"): ALS / Levenberg–Marquardt from random starts (or inside an ansatz),
// lattice rounding, exact repair and verification; restarts spread across CPU threads or batched on
// a GPU (batch_engine.hpp, seed_batch.hpp). Its parameters: params.hpp.
#pragma once
#include "src/search/engine.hpp"

namespace tdisc::search::numeric {

class NumericEngine final : public Engine {
public:
  std::string name() const override { return "numeric"; }
  const params::Table* param_table() const override;
  nlohmann::json default_params() const override;
  std::vector<std::string> validate_params(const nlohmann::json& params) const override;
  std::vector<ResolvedParams> resolve(const EngineConfig& config) const override;
  void run(const EngineConfig& config, Reporter& reporter) override;
};

}  // namespace tdisc::search::numeric
