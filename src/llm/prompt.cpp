// Builds the messages of one call. The system message fixes the answer format (version-1 JSON, no
// code); the user message carries the state of the search, as in AlphaEvolve's prompt sampler.
#include "src/llm/prompt.hpp"

#include <climits>
#include <sstream>

#include "decomposition/native.hpp"
#include "decomposition/json_input.hpp"

namespace tdisc::llm {

using nlohmann::json;

namespace {

const char* kSystem =
    "You design search strategies for tdisc, a tool that finds low-rank decompositions of the "
    "matrix multiplication tensor (fast matrix multiplication schemes). You never write code. You answer "
    "with exactly one JSON object (version 1) that follows the schema given; tdisc validates it, runs it "
    "with its own engines under a time budget and scores it from exactly verified schemes only.";

std::string target_text(const search::Target& t) {
  std::ostringstream s;
  s << "Task: find a scheme of rank " << t.rank << " for <" << t.format.n << "," << t.format.m << "," << t.format.p
    << "> (A is " << t.format.n << "x" << t.format.m << ", B is " << t.format.m << "x" << t.format.p
    << "), valid over the ring " << ring_name(t.ring) << ". The classical algorithm has rank "
    << t.format.classical_rank() << ". Trace form: C[i][k] = sum_r W_r[k][i] <U_r,A> <V_r,B>, factors "
    << "flattened row-major (U: i*m+j, V: j*p+k, W: k*n+i).\n";
  return s.str();
}

std::string program_text(const Program& p) {
  std::ostringstream s;
  s << "  program " << p.id << " (" << p.cell << ", " << p.origin << "): score " << p.score.note
    << " (fitness " << static_cast<long>(p.score.fitness) << ")\n";
  if (p.kind == "recipe") s << "  " << p.body.dump() << "\n";
  return s.str();
}

std::string engines_text(const std::vector<std::string>& engines) {
  std::ostringstream s;
  s << "Engines you may choose, with their parameters and defaults:\n";
  for (const auto& name : engines)
    if (auto e = search::make_engine(name)) s << "- " << name << ": " << e->default_params().dump() << "\n";
  return s.str();
}

std::string recipe_instructions(const PromptInput& in) {
  std::ostringstream s;
  s << "Answer with a recipe: {\"version\":1, \"kind\":\"recipe\", \"engine\": one of the engines, "
    << "\"params\": the parameters to change (others keep their defaults; unknown names and wrong types are "
    << "rejected), \"budget_seconds\": seconds per seed in (0, " << in.max_budget_seconds << "], \"seeds\": 1.."
    << in.max_seeds << ", \"rationale\": one sentence}. Score: reaching the target rank in more seeds and in "
    << "less time is best; otherwise a lower verified rank. Change a few things relative to the parent and say why.\n";
  return s.str();
}

std::string scheme_instructions(const PromptInput& in) {
  std::ostringstream s;
  s << "Answer with a scheme: {\"version\":1, \"kind\":\"scheme\", \"mode\": \"factors\" or \"edits\", "
    << "\"u\",\"v\",\"w\": for factors, arrays of rows of coefficient strings (\"1\", \"-1\", \"1/2\", \"i\"), one row per "
    << "term, row lengths " << in.target.format.a_size() << ", " << in.target.format.b_size() << ", "
    << in.target.format.c_size() << " (else null), \"edits\": for edits, a list of {\"op\": \"replace\"|\"add\"|\"drop\", "
    << "\"term\": index in the parent, \"u\",\"v\",\"w\": new rows or null} (else null), \"rationale\"}. "
    << "It is verified exactly; invalid schemes are scored by their Brent residual.\n";
  if (in.parent_scheme) {
    s << "Parent scheme (rank " << in.parent_scheme->rank() << ", terms numbered from 0):\n";
    json j = json::parse(native_text(*in.parent_scheme));
    s << "u = " << j["u"].dump() << "\nv = " << j["v"].dump() << "\nw = " << j["w"].dump() << "\n";
  }
  return s.str();
}

std::string near_miss_text(const NearMiss& m) {
  std::ostringstream s;
  s << "- " << m.source << ":";
  if (m.best_rank != INT_MAX) s << " verified rank " << m.best_rank << ";";
  if (m.residual >= 0) s << " Brent residual " << m.residual << ";";
  if (m.exact_fraction >= 0) s << " " << static_cast<int>(100 * m.exact_fraction) << "% of coefficients rounded exactly;";
  if (!m.failing.empty()) s << " " << m.failing;
  s << "\n";
  return s.str();
}

}  // namespace

nlohmann::json NearMiss::to_json() const {
  return {{"source", source}, {"residual", json_double(residual)}, {"exact_fraction", json_double(exact_fraction)},
          {"best_rank", best_rank == INT_MAX ? json() : json(best_rank)}, {"failing", failing}};
}

NearMiss NearMiss::from_json(const nlohmann::json& j) {
  NearMiss m;
  m.source = j.value("source", "");
  m.residual = read_json_double(j, "residual", -1.0);
  m.exact_fraction = read_json_double(j, "exact_fraction", -1.0);
  m.best_rank = j.contains("best_rank") && j["best_rank"].is_number_integer() ? j["best_rank"].get<int>() : INT_MAX;
  m.failing = j.value("failing", "");
  return m;
}

std::vector<Message> build_prompt(const PromptInput& in) {
  std::ostringstream u;
  u << target_text(in.target);
  if (in.best_rank != INT_MAX) u << "Best verified rank so far: " << in.best_rank << ".\n";
  u << "\n" << engines_text(in.engines) << "\n";
  if (!in.best_recipes.empty()) {
    u << "Best programs so far (database scores):\n";
    for (const Program* p : in.best_recipes) u << program_text(*p);
    u << "\n";
  }
  if (!in.near_misses.empty()) {
    u << "Latest runs that ended without the target (residuals, failing Brent equations):\n";
    for (const auto& m : in.near_misses) u << near_miss_text(m);
    u << "\n";
  }
  if (in.parent) u << "Parent (improve on it):\n" << program_text(*in.parent) << "\n";
  if (!in.inspirations.empty()) {
    u << "Other programs for inspiration:\n";
    for (const Program* p : in.inspirations) u << program_text(*p);
    u << "\n";
  }
  if (!in.failures.empty()) {
    u << "Recent failures (avoid repeating them):\n";
    for (const auto& f : in.failures) u << "- call " << f.call << ", " << f.kind << ": " << f.reason << "\n";
    u << "\n";
  }
  u << (in.kind == "scheme" ? scheme_instructions(in) : recipe_instructions(in));
  return {{"system", kSystem}, {"user", u.str()}};
}

}  // namespace tdisc::llm
