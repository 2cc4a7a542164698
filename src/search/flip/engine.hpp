// The flip-graph engine ("flip"; Kauers–Moosbauer 2022, plus transitions of Arai–Ichikawa–Hukushima
// 2024): its parameters (params.hpp), the lanes it plans (lanes.hpp), and the walk it runs.
#pragma once
#include "src/search/engine.hpp"
#include "src/search/flip/lanes.hpp"
#include "src/search/flip/params.hpp"

namespace tdisc::search::flip {

class FlipEngine final : public Engine {
public:
  std::string name() const override { return "flip"; }
  const params::Table* param_table() const override;
  nlohmann::json default_params() const override;
  std::vector<std::string> validate_params(const nlohmann::json& params) const override;
  // bind_flip_params, kept for resolve() and run() while their config.params are these.
  void bind_params(const nlohmann::json& params, const std::string& where) override;
  // One block per planned lane (plain, z3, s3, …), each with its bound parameters.
  std::vector<ResolvedParams> resolve(const EngineConfig& config) const override;
  // Refuses formats with a factor of more than 256 entries and starts of PairIndex::kMaxTerms terms
  // or more, then runs the lanes side by side.
  void run(const EngineConfig& config, Reporter& reporter) override;

private:
  // The lanes and their parameters: typed copies of what bind_params bound where config.params are
  // what it bound, else of config.params bound now (one bind either way).
  std::vector<PlannedLane> planned(const EngineConfig& config) const;

  params::BoundOnce<FlipParams> bound_;
};

}  // namespace tdisc::search::flip
