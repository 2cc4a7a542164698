// The meta walk's parameters: one table (base/params/table.hpp) for defaults, ranges and help;
// nothing out of range is clamped.
#include "src/search/flip/meta_params.hpp"

namespace tdisc::search::flip {

const params::Table& meta_table() {
  using namespace params;
  static const Table t{
      "meta", "", "Meta flips (Kauers–Wood 2025): starts carried into the target format from catalogued neighbours\n"
      "(extend, project, merge, product, detour), then the flip engine's walks (its parameters apply too).",
      {bound(text("catalogue", nullptr, "folder of catalogued schemes the starts come from (tdisc search: --catalog-dir)"), field(&MetaParams::catalogue)),
       number("meta_slice", field(&MetaParams::slice), 0.01, 86400, "seconds of flip walk from one start before the next round"),
       integer("meta_project_depth", field(&MetaParams::project_depth), 1, 6, "a projection removes at most this many indices in all"),
       number("meta_best_start", field(&MetaParams::best_start), 0, 1, "chance that a fresh round (after the first) takes the lowest-rank start"),
       number("meta_detour", field(&MetaParams::detour), 0, 1, "chance that a round (after the first) is a detour from the best scheme so far")},
      "",
      ""};
  return t;
}

nlohmann::json default_meta_params() { return params::defaults(meta_table()); }

bool is_meta_key(const std::string& key) { return meta_table().find(key) != nullptr; }

std::vector<std::string> check_meta_params(const nlohmann::json& p) {
  if (!p.is_object()) return {"meta parameters must be a JSON object"};
  nlohmann::json mine = nlohmann::json::object();
  for (auto& [k, v] : p.items())
    if (is_meta_key(k)) mine[k] = v;
  std::vector<std::string> out = params::check_object(meta_table(), mine, "params.");
  if (!mine.contains("catalogue") || !mine["catalogue"].is_string() || mine["catalogue"].get<std::string>().empty())
    out.push_back("params.catalogue: the folder of catalogued schemes to start from must be given (a path)");
  return out;
}

params::Bound<MetaParams> bind_meta_params(const nlohmann::json& p) {
  nlohmann::json mine = nlohmann::json::object();
  for (auto& [k, v] : p.items())
    if (is_meta_key(k)) mine[k] = v;
  return params::bind<MetaParams>(meta_table(), mine, "");
}

nlohmann::json flip_part(const nlohmann::json& params) {
  nlohmann::json out = nlohmann::json::object();
  for (auto& [k, v] : params.items())
    if (!is_meta_key(k)) out[k] = v;
  return out;
}

}  // namespace tdisc::search::flip
