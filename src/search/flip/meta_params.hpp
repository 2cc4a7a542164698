// The meta walk's own parameters (beside the flip walk's, which it passes on to every round).
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/params/bind.hpp"
#include "base/params/table.hpp"

namespace tdisc::search::flip {

struct MetaParams {
  std::string catalogue;    // folder of catalogued schemes the starts come from (required)
  double slice = 5.0;       // seconds of flip walk from one start before the next round
  int project_depth = 2;    // a projection removes at most this many indices in all
  double best_start = 0.5;  // chance that a fresh round (after the first) takes the lowest-rank start again
  double detour = 0.5;      // chance that a round (after the first) is a detour from the best scheme so far
};

// Every meta parameter: default, range, help ("catalogue" has no default: the CLI fills it).
const params::Table& meta_table();
nlohmann::json default_meta_params();
bool is_meta_key(const std::string& key);
// One message per problem with the meta keys; the other keys are the flip engine's to check.
std::vector<std::string> check_meta_params(const nlohmann::json& params);
// The meta keys of params through the table's binders (the flip keys are the walk's).
params::Bound<MetaParams> bind_meta_params(const nlohmann::json& params);
// params without the meta keys: what each round's flip walk gets.
nlohmann::json flip_part(const nlohmann::json& params);

}  // namespace tdisc::search::flip
