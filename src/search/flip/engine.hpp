// The flip-graph engine ("flip"; Kauers–Moosbauer 2022, plus transitions of Arai–Ichikawa–Hukushima
// 2024): its parameters (params.hpp), the lanes it plans (lanes.hpp), and the walk it runs.
#pragma once
#include "src/search/engine.hpp"

namespace tdisc::search::flip {

class FlipEngine final : public Engine {
public:
  std::string name() const override { return "flip"; }
  const params::Table* param_table() const override;
  nlohmann::json default_params() const override;
  std::vector<std::string> validate_params(const nlohmann::json& params) const override;
  // One block per planned lane (plain, z3, s3, …), each with its bound parameters.
  std::vector<ResolvedParams> resolve(const EngineConfig& config) const override;
  // Refuses formats with a factor of more than 256 entries and starts of PairIndex::kMaxTerms terms
  // or more, then runs the lanes side by side.
  void run(const EngineConfig& config, Reporter& reporter) override;
};

}  // namespace tdisc::search::flip
