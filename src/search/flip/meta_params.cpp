// The meta walk's parameters: defaults, checks (a precise message per problem, nothing clamped).
#include "src/search/flip/meta_params.hpp"

namespace tdisc::search::flip {

nlohmann::json default_meta_params() {
  MetaParams d;
  return {{"catalogue", d.catalogue}, {"meta_slice", d.slice}, {"meta_project_depth", d.project_depth},
          {"meta_best_start", d.best_start}, {"meta_detour", d.detour}};
}

bool is_meta_key(const std::string& key) { return default_meta_params().contains(key); }

std::vector<std::string> check_meta_params(const nlohmann::json& p) {
  std::vector<std::string> out;
  if (!p.is_object()) return {"meta parameters must be a JSON object"};
  if (!p.contains("catalogue") || !p["catalogue"].is_string() || p["catalogue"].get<std::string>().empty())
    out.push_back("catalogue: the folder of catalogued schemes to start from must be given (a path)");
  if (p.contains("meta_slice") && (!p["meta_slice"].is_number() || p["meta_slice"].get<double>() <= 0 ||
                                   p["meta_slice"].get<double>() > 86400))
    out.push_back("meta_slice: must be a number of seconds in (0, 86400]");
  if (p.contains("meta_project_depth") &&
      (!p["meta_project_depth"].is_number_integer() || p["meta_project_depth"].get<long>() < 1 ||
       p["meta_project_depth"].get<long>() > 6))
    out.push_back("meta_project_depth: must be an integer in 1..6");
  if (p.contains("meta_best_start") && (!p["meta_best_start"].is_number() || p["meta_best_start"].get<double>() < 0 ||
                                        p["meta_best_start"].get<double>() > 1))
    out.push_back("meta_best_start: must be a number in 0..1");
  if (p.contains("meta_detour") && (!p["meta_detour"].is_number() || p["meta_detour"].get<double>() < 0 ||
                                    p["meta_detour"].get<double>() > 1))
    out.push_back("meta_detour: must be a number in 0..1");
  return out;
}

MetaParams parse_meta_params(const nlohmann::json& p) {
  MetaParams m;
  m.catalogue = p.value("catalogue", m.catalogue);
  m.slice = p.value("meta_slice", m.slice);
  m.project_depth = p.value("meta_project_depth", m.project_depth);
  m.best_start = p.value("meta_best_start", m.best_start);
  m.detour = p.value("meta_detour", m.detour);
  return m;
}

nlohmann::json flip_part(const nlohmann::json& params) {
  nlohmann::json out = nlohmann::json::object();
  for (auto& [k, v] : params.items())
    if (!is_meta_key(k)) out[k] = v;
  return out;
}

}  // namespace tdisc::search::flip
