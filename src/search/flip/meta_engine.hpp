// The meta engine ("meta", tdisc search --meta; Kauers–Wood 2025): flip walks started from catalogued
// schemes of neighbouring formats carried over by meta moves (meta_moves.hpp), in rounds of one
// start each. Its parameters: meta_params.hpp (its rows) and params.hpp (the walk's).
#pragma once
#include "base/params/bind.hpp"
#include "src/search/engine.hpp"
#include "src/search/flip/meta_params.hpp"
#include "src/search/flip/params.hpp"

namespace tdisc::search::flip {

class MetaEngine final : public Engine {
public:
  std::string name() const override { return "meta"; }
  const params::Table* param_table() const override;
  nlohmann::json default_params() const override;
  std::vector<std::string> validate_params(const nlohmann::json& params) const override;
  // validate_params, then one bind of the meta rows and one of the walk's flip rows, kept for resolve()
  // and run() while their params are these.
  void bind_params(const nlohmann::json& params, const std::string& where) override;
  // The meta rows (the catalogue is the run's unless given), then the walk every round runs.
  std::vector<ResolvedParams> resolve(const EngineConfig& config) const override;
  // Refuses --resume and --from (the starts come from the catalogue), then runs rounds until the
  // run stops: a start (the best first, later a random one or a detour from the best so far), a walk.
  void run(const EngineConfig& config, Reporter& reporter) override;

private:
  // What bind_params bound where config.params are what it bound, else bound here (once each).
  params::Bound<MetaParams> meta_for(const EngineConfig& config) const;
  params::Bound<FlipParams> walk_for(const EngineConfig& config) const;
  params::BoundOnce<MetaParams> bound_meta_;
  params::BoundOnce<FlipParams> bound_walk_;
};

}  // namespace tdisc::search::flip
