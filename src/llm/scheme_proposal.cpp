// The second kind of proposal: the model writes a scheme itself, as factors or as edits (replace,
// add, drop terms) to the parent scheme. Shapes and coefficients are checked here; validity is the
// exact verifier's job (evaluator.cpp), never the model's claim.
#include <algorithm>
#include <set>

#include "base/utf8.hpp"
#include "decomposition/json_input.hpp"
#include "decomposition/scheme_limits.hpp"
#include "src/llm/recipe.hpp"

namespace tdisc::llm {

using nlohmann::json;

namespace {

constexpr int kMaxRankFactor = 2;  // a proposal may not exceed twice the classical rank
constexpr size_t kMaxErrors = 20;  // errors reported of one proposal: enough for the next prompt

std::optional<Coeff> coeff_of(const json& v) {
  if (v.is_string() && v.get_ref<const std::string&>().size() > kMaxCoefficientChars) return std::nullopt;  // not parsed: quadratic
  if (v.is_string()) return Coeff::parse(v.get<std::string>());
  if (v.is_number_integer()) return json_integer_coeff(v);
  if (v.is_number()) return Coeff::from_double(v.get<double>());
  return std::nullopt;
}

// One factor row of `width` coefficients; errors name the path ("scheme.u[3][1]").
std::optional<std::vector<Coeff>> row_of(const json& row, int width, const std::string& at, std::vector<std::string>& errors) {
  if (!row.is_array()) {
    errors.push_back(at + ": must be an array of " + std::to_string(width) + " coefficients");
    return std::nullopt;
  }
  if (static_cast<int>(row.size()) != width) {
    errors.push_back(at + ": has " + std::to_string(row.size()) + " coefficients, expected " + std::to_string(width));
    return std::nullopt;
  }
  std::vector<Coeff> out;
  for (size_t i = 0; i < row.size(); ++i) {
    auto c = coeff_of(row[i]);
    if (!c) {
      errors.push_back(at + "[" + std::to_string(i) + "]: " + json_excerpt(row[i]) + " is not a coefficient (\"1\", \"-1/2\", \"1+i\")");
      return std::nullopt;
    }
    out.push_back(*c);
  }
  return out;
}

void set_row(CoeffMatrix& m, int r, const std::vector<Coeff>& row) {
  for (size_t c = 0; c < row.size(); ++c) m(r, static_cast<long>(c)) = row[c];
}

struct Term {
  std::vector<Coeff> u, v, w;
};

std::vector<Term> terms_of(const Scheme& s) {
  std::vector<Term> t(static_cast<size_t>(s.rank()));
  for (int r = 0; r < s.rank(); ++r) {
    for (long c = 0; c < s.u.cols(); ++c) t[r].u.push_back(s.u(r, c));
    for (long c = 0; c < s.v.cols(); ++c) t[r].v.push_back(s.v(r, c));
    for (long c = 0; c < s.w.cols(); ++c) t[r].w.push_back(s.w(r, c));
  }
  return t;
}

Scheme scheme_of(const std::vector<Term>& terms, Format f, Ring ring) {
  Scheme s = Scheme::zeros(f, static_cast<int>(terms.size()), ring);
  for (size_t r = 0; r < terms.size(); ++r) {
    set_row(s.u, static_cast<int>(r), terms[r].u);
    set_row(s.v, static_cast<int>(r), terms[r].v);
    set_row(s.w, static_cast<int>(r), terms[r].w);
  }
  return s;
}

std::optional<Scheme> factors_of(const json& j, Format f, Ring ring, long max_rank, std::vector<std::string>& errors) {
  const int widths[3] = {f.a_size(), f.b_size(), f.c_size()};
  const char* names[3] = {"u", "v", "w"};
  std::vector<std::vector<std::vector<Coeff>>> rows(3);
  for (int k = 0; k < 3; ++k) {
    std::string at = std::string("scheme.") + names[k];
    if (!j.contains(names[k]) || !j[names[k]].is_array()) {
      errors.push_back(at + ": missing; mode \"factors\" needs u, v and w as arrays of rows");
      continue;
    }
    if (j[names[k]].size() > static_cast<size_t>(max_rank)) {  // refused before a row is allocated
      errors.push_back(at + ": " + std::to_string(j[names[k]].size()) + " rows, more than the largest rank accepted (" +
                       std::to_string(max_rank) + ")");
      return std::nullopt;
    }
    for (size_t r = 0; r < j[names[k]].size() && errors.size() < kMaxErrors; ++r)
      if (auto row = row_of(j[names[k]][r], widths[k], at + "[" + std::to_string(r) + "]", errors)) rows[k].push_back(*row);
  }
  if (!errors.empty()) return std::nullopt;
  if (rows[0].size() != rows[1].size() || rows[1].size() != rows[2].size()) {
    errors.push_back("scheme: u, v and w have " + std::to_string(rows[0].size()) + ", " + std::to_string(rows[1].size()) +
                     " and " + std::to_string(rows[2].size()) + " rows; they must have one row per term each");
    return std::nullopt;
  }
  std::vector<Term> terms;
  for (size_t r = 0; r < rows[0].size(); ++r) terms.push_back({rows[0][r], rows[1][r], rows[2][r]});
  return scheme_of(terms, f, ring);
}

// Applies replace/add edits in order and drops last, all by the parent's term numbers.
std::optional<Scheme> edited(const json& edits, const Scheme& parent, Ring ring, long max_rank, std::vector<std::string>& errors) {
  if (!edits.is_array() || edits.empty()) {
    errors.push_back("scheme.edits: mode \"edits\" needs a non-empty array of {op, term, u, v, w}");
    return std::nullopt;
  }
  if (edits.size() > static_cast<size_t>(max_rank + parent.rank())) {  // each edit adds at most one term
    errors.push_back("scheme.edits: " + std::to_string(edits.size()) + " edits, more than " +
                     std::to_string(max_rank + parent.rank()) + " (the largest rank accepted plus the parent's)");
    return std::nullopt;
  }
  Format f = parent.format;
  std::vector<Term> terms = terms_of(parent);
  std::set<int> drops;
  for (size_t e = 0; e < edits.size() && errors.size() < kMaxErrors; ++e) {
    std::string at = "scheme.edits[" + std::to_string(e) + "]";
    const json& ed = edits[e];
    std::string op = ed.is_object() && ed.contains("op") && ed["op"].is_string() ? ed["op"].get<std::string>() : "";
    if (op != "replace" && op != "add" && op != "drop") {
      errors.push_back(at + ".op: must be \"replace\", \"add\" or \"drop\"");
      continue;
    }
    int term = -1;
    if (op != "add") {
      if (!ed.contains("term") || !ed["term"].is_number_integer() || ed["term"].get<long>() < 0 ||
          ed["term"].get<long>() >= parent.rank()) {
        errors.push_back(at + ".term: must be a term number in [0, " + std::to_string(parent.rank() - 1) + "]");
        continue;
      }
      term = ed["term"].get<int>();
    }
    if (op == "drop") {
      drops.insert(term);
      continue;
    }
    Term t = op == "add" ? Term{std::vector<Coeff>(f.a_size()), std::vector<Coeff>(f.b_size()), std::vector<Coeff>(f.c_size())}
                         : terms[static_cast<size_t>(term)];
    const std::pair<const char*, std::vector<Coeff>*> parts[3] = {{"u", &t.u}, {"v", &t.v}, {"w", &t.w}};
    for (const auto& [name, target] : parts) {
      bool given = ed.contains(name) && !ed[name].is_null();
      if (!given && op == "add") errors.push_back(at + "." + name + ": \"add\" needs all of u, v and w");
      if (!given) continue;
      if (auto row = row_of(ed[name], static_cast<int>(target->size()), at + "." + name, errors)) *target = *row;
    }
    if (op == "add") terms.push_back(t);
    else terms[static_cast<size_t>(term)] = t;
  }
  if (!errors.empty()) return std::nullopt;
  std::vector<Term> kept;
  for (size_t r = 0; r < terms.size(); ++r)
    if (!drops.count(static_cast<int>(r))) kept.push_back(terms[r]);
  return scheme_of(kept, f, ring);
}

}  // namespace

ProposalCheck check_scheme_proposal(const json& j, const ProposalRules& rules) {
  ProposalCheck out;
  if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<long>() != kProposalVersion)
    out.errors.push_back("version: must be 1 (this tdisc reads version 1)");
  Format f = rules.target.format;
  std::string mode = j.contains("mode") && j["mode"].is_string() ? j["mode"].get<std::string>() : "";
  std::optional<Scheme> s;
  const long max_rank = kMaxRankFactor * f.classical_rank();
  if (mode == "factors") s = factors_of(j, f, rules.target.ring, max_rank, out.errors);
  else if (mode == "edits" && !rules.parent) out.errors.push_back("scheme.mode: \"edits\" needs a parent scheme, and there is none yet");
  else if (mode == "edits") s = edited(j.value("edits", json()), *rules.parent, rules.target.ring, max_rank, out.errors);
  else out.errors.push_back("scheme.mode: must be \"factors\" or \"edits\", got " + json_excerpt(j.value("mode", json())));
  if (!out.errors.empty() || !s) return out;
  if (s->rank() < 1 || s->rank() > max_rank) {
    out.errors.push_back("scheme: rank " + std::to_string(s->rank()) + " is out of range [1, " + std::to_string(max_rank) + "]");
    return out;
  }
  if (s->format != f) {
    out.errors.push_back("scheme: format " + s->format.str() + " is not the target " + f.str());
    return out;
  }
  std::string rationale = j.contains("rationale") && j["rationale"].is_string()
                              ? utf8_excerpt(j["rationale"].get_ref<const std::string&>(), kMaxRationaleBytes) : "";
  out.proposal = Proposal{"scheme", Recipe{}, s, rationale};
  return out;
}

json scheme_schema() {
  json row = {{"type", {"array", "null"}}, {"items", {{"type", "string"}}}};
  json rows = {{"type", {"array", "null"}}, {"items", {{"type", "array"}, {"items", {{"type", "string"}}}}}};
  json edit = {{"type", "object"},
               {"properties", {{"op", {{"type", "string"}, {"enum", {"replace", "add", "drop"}}}},
                               {"term", {{"type", "integer"}}}, {"u", row}, {"v", row}, {"w", row}}},
               {"required", {"op", "term", "u", "v", "w"}},
               {"additionalProperties", false}};
  return {{"type", "object"},
          {"properties", {{"version", {{"type", "integer"}, {"enum", {kProposalVersion}}}},
                          {"kind", {{"type", "string"}, {"enum", {"scheme"}}}},
                          {"mode", {{"type", "string"}, {"enum", {"factors", "edits"}}}},
                          {"u", rows}, {"v", rows}, {"w", rows},
                          {"edits", {{"type", {"array", "null"}}, {"items", edit}}},
                          {"rationale", {{"type", "string"}}}}},
          {"required", {"version", "kind", "mode", "u", "v", "w", "edits", "rationale"}},
          {"additionalProperties", false}};
}

}  // namespace tdisc::llm
