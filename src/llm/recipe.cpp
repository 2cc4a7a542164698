// Version-1 strategy recipes: validation against the engines' own parameter tables (types from
// default_params(), ranges from validate_params()), the defaults, and the strict JSON Schema.
#include "src/llm/recipe.hpp"

#include <algorithm>
#include <sstream>

#include "base/utf8.hpp"

namespace tdisc::llm {

using nlohmann::json;

namespace {

std::string shown(const json& v) {
  std::string s = v.dump();
  return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// Empty when `value` has the JSON type of `example` (an integer is accepted where a real is expected).
std::string type_mismatch(const json& example, const json& value) {
  if (example.is_number_integer()) return value.is_number_integer() ? "" : "must be an integer";
  if (example.is_number()) return value.is_number() ? "" : "must be a number";
  if (example.is_boolean()) return value.is_boolean() ? "" : "must be true or false";
  if (example.is_string()) return value.is_string() ? "" : "must be a string";
  if (example.is_array()) return value.is_array() ? "" : "must be an array";
  if (example.is_object()) return value.is_object() ? "" : "must be an object";
  return "";
}

void check_version(const json& j, std::vector<std::string>& errors) {
  if (!j.contains("version")) return;  // a missing version means version 1
  if (!j["version"].is_number_integer()) errors.push_back("version: must be the integer 1, got " + shown(j["version"]));
  else if (j["version"].get<long>() != kProposalVersion)
    errors.push_back("version: unsupported version " + shown(j["version"]) + " (this tdisc reads version 1)");
}

// Merges the proposal's params over the engine defaults, collecting type and name errors.
json merged_params(const json& defaults, const json& given, const std::string& engine, std::vector<std::string>& errors) {
  json merged = defaults;
  if (given.is_null()) return merged;
  if (!given.is_object()) {
    errors.push_back("recipe.params: must be an object, got " + shown(given));
    return merged;
  }
  std::vector<std::string> known;
  for (auto it = defaults.begin(); it != defaults.end(); ++it) known.push_back(it.key());
  for (auto it = given.begin(); it != given.end(); ++it) {
    std::string at = "recipe.params." + it.key();
    if (!defaults.contains(it.key())) {
      errors.push_back(at + ": unknown parameter of engine " + engine + " (known: " + joined(known) + ")");
      continue;
    }
    if (std::string why = type_mismatch(defaults[it.key()], it.value()); !why.empty()) {
      errors.push_back(at + ": " + why + ", got " + shown(it.value()));
      continue;
    }
    merged[it.key()] = it.value();
  }
  return merged;
}

void check_budget(const json& j, const ProposalRules& rules, Recipe& r, std::vector<std::string>& errors) {
  if (j.contains("budget_seconds") && !j["budget_seconds"].is_null()) {
    const json& b = j["budget_seconds"];
    if (!b.is_number()) errors.push_back("recipe.budget_seconds: must be a number, got " + shown(b));
    else if (b.get<double>() <= 0 || b.get<double>() > rules.max_budget_seconds)
      errors.push_back("recipe.budget_seconds: " + shown(b) + " is out of range (0, " +
                       shown(rules.max_budget_seconds) + "]");
    else r.budget_seconds = b.get<double>();
  }
  if (j.contains("seeds") && !j["seeds"].is_null()) {
    const json& s = j["seeds"];
    if (!s.is_number_integer()) errors.push_back("recipe.seeds: must be an integer, got " + shown(s));
    else if (s.get<long>() < 1 || s.get<long>() > rules.max_seeds)
      errors.push_back("recipe.seeds: " + shown(s) + " is out of range [1, " + std::to_string(rules.max_seeds) + "]");
    else r.seeds = s.get<int>();
  }
}

}  // namespace

json Recipe::to_json() const {
  return {{"version", kProposalVersion}, {"kind", "recipe"},  {"engine", engine},
          {"params", params},            {"budget_seconds", budget_seconds}, {"seeds", seeds},
          {"rationale", rationale}};
}

std::string ProposalCheck::summary() const {
  std::string s;
  for (const auto& e : errors) s += (s.empty() ? "" : "; ") + e;
  return s;
}

// A recipe names nothing beyond its schema's keys: a misspelt key would otherwise be ignored silently.
static void check_recipe_keys(const json& j, std::vector<std::string>& errors) {
  static const std::vector<std::string> known = {"version", "kind", "engine", "params", "budget_seconds", "seeds", "rationale"};
  for (auto it = j.begin(); it != j.end(); ++it)
    if (std::find(known.begin(), known.end(), it.key()) == known.end())
      errors.push_back("recipe." + it.key() + ": unknown key (known: " + joined(known) + ")");
}

ProposalCheck check_recipe(const json& j, const ProposalRules& rules) {
  ProposalCheck out;
  check_version(j, out.errors);
  check_recipe_keys(j, out.errors);
  Recipe r;
  r.budget_seconds = std::min(10.0, rules.max_budget_seconds);
  if (!j.contains("engine") || !j["engine"].is_string()) {
    out.errors.push_back("recipe.engine: missing or not a string (one of: " + joined(rules.engines) + ")");
    return out;
  }
  r.engine = j["engine"].get<std::string>();
  if (std::find(rules.engines.begin(), rules.engines.end(), r.engine) == rules.engines.end()) {
    out.errors.push_back("recipe.engine: \"" + r.engine + "\" is not available (one of: " + joined(rules.engines) + ")");
    return out;
  }
  auto engine = search::make_engine(r.engine);
  if (!engine) {
    out.errors.push_back("recipe.engine: \"" + r.engine + "\" is not built into this tdisc");
    return out;
  }
  r.params = merged_params(engine->default_params(), j.value("params", json()), r.engine, out.errors);
  check_budget(j, rules, r, out.errors);
  if (j.contains("rationale") && j["rationale"].is_string()) r.rationale = utf8_excerpt(j["rationale"].get_ref<const std::string&>(), kMaxRationaleBytes);
  if (!out.errors.empty()) return out;
  for (const auto& e : engine->validate_params(r.params))  // the engine's own words, located in the recipe
    out.errors.push_back(e.rfind("params.", 0) == 0 ? "recipe." + e : "recipe.params: " + e);
  if (!out.errors.empty()) return out;
  out.proposal = Proposal{"recipe", r, std::nullopt, r.rationale};
  return out;
}

ProposalCheck check_proposal(const json& j, const ProposalRules& rules) {
  if (!j.is_object()) return {std::nullopt, {"proposal: must be a JSON object"}};
  std::string kind = j.contains("kind") && j["kind"].is_string() ? j["kind"].get<std::string>() : "recipe";
  if (std::find(rules.kinds.begin(), rules.kinds.end(), kind) == rules.kinds.end())
    return {std::nullopt, {"kind: \"" + kind + "\" is not accepted here (accepted: " + joined(rules.kinds) + ")"}};
  return kind == "scheme" ? check_scheme_proposal(j, rules) : check_recipe(j, rules);
}

Recipe default_recipe(const std::string& engine, double budget_seconds) {
  Recipe r;
  r.engine = engine;
  auto e = search::make_engine(engine);
  r.params = e ? e->default_params() : json::object();
  r.budget_seconds = budget_seconds;
  r.rationale = "the engine's defaults";
  return r;
}

json schema_of(const json& example) {
  if (example.is_boolean()) return {{"type", "boolean"}};
  if (example.is_number_integer()) return {{"type", "integer"}};
  if (example.is_number()) return {{"type", "number"}};
  if (example.is_string()) return {{"type", "string"}};
  if (example.is_array())
    return {{"type", "array"}, {"items", example.empty() ? json{{"type", "number"}} : schema_of(example[0])}};
  if (example.is_object()) {
    json props = json::object(), required = json::array();
    for (auto it = example.begin(); it != example.end(); ++it) {
      props[it.key()] = schema_of(it.value());
      required.push_back(it.key());
    }
    return {{"type", "object"}, {"properties", props}, {"required", required}, {"additionalProperties", false}};
  }
  return {{"type", {"string", "null"}}};
}

json recipe_schema(const std::vector<std::string>& engines) {
  json variants = json::array();
  for (const auto& name : engines)
    if (auto e = search::make_engine(name)) variants.push_back(schema_of(e->default_params()));
  json params = variants.size() == 1 ? variants[0] : json{{"anyOf", variants}};
  return {{"type", "object"},
          {"properties",
           {{"version", {{"type", "integer"}, {"enum", {kProposalVersion}}}},
            {"kind", {{"type", "string"}, {"enum", {"recipe"}}}},
            {"engine", {{"type", "string"}, {"enum", engines}}},
            {"params", params},
            {"budget_seconds", {{"type", "number"}}},
            {"seeds", {{"type", "integer"}}},
            {"rationale", {{"type", "string"}}}}},
          {"required", {"version", "kind", "engine", "params", "budget_seconds", "seeds", "rationale"}},
          {"additionalProperties", false}};
}

std::string cell_of_recipe(const Recipe& r) {
  std::string lattice = "-";
  for (const char* key : {"lattice", "walk_ring", "ring", "field"})
    if (r.params.contains(key) && r.params[key].is_string()) {
      lattice = r.params[key].get<std::string>();
      break;
    }
  return r.engine + "/" + lattice;
}

std::string cell_of(const Proposal& p) { return p.kind == "scheme" ? "scheme/direct" : cell_of_recipe(p.recipe); }

}  // namespace tdisc::llm
