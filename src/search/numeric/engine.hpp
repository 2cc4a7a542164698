// The numeric engine ("numeric"): ALS / Levenberg–Marquardt from random starts (or inside an ansatz),
// lattice rounding, exact repair and verification; restarts spread across CPU threads or batched on
// a GPU (batch_engine.hpp, seed_batch.hpp). Its parameters: params.hpp.
#pragma once
#include "src/search/engine.hpp"
#include "src/search/numeric/params.hpp"

namespace tdisc::search::numeric {

class NumericEngine final : public Engine {
public:
  std::string name() const override { return "numeric"; }
  const params::Table* param_table() const override;
  nlohmann::json default_params() const override;
  std::vector<std::string> validate_params(const nlohmann::json& params) const override;
  // bind_numeric_params, kept for resolve() and run() while their config.params are these.
  void bind_params(const nlohmann::json& params, const std::string& where) override;
  std::vector<ResolvedParams> resolve(const EngineConfig& config) const override;
  void run(const EngineConfig& config, Reporter& reporter) override;

private:
  // A copy of what bind_params bound where config.params are what it bound (else config.params
  // bound now), with the rules for the target applied.
  params::Bound<Params> resolved(const EngineConfig& config) const;

  params::BoundOnce<Params> bound_;
};

}  // namespace tdisc::search::numeric
