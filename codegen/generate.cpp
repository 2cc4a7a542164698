// Reads, checks, plans and emits (see generate.hpp).
#include "codegen/generate.hpp"

#include "base/error.hpp"
#include "codegen/emit.hpp"
#include "decomposition/native.hpp"
#include "generated/tdisc_version.hpp"

namespace tdisc::codegen {

Generated generate(const std::vector<Scheme>& levels, const std::vector<std::string>& labels, const Target& t,
                   const std::string& name_space, const std::string& runtime_include) {
  Generated g;
  Answer a = can_generate(levels, t);
  if (!a.ok) {
    g.why_not = a.why_not;
    return g;
  }
  g.plan = make_plan(levels, t);
  std::vector<SourceInfo> info;
  for (size_t l = 0; l < levels.size(); ++l) {
    const Scheme& s = levels[l];
    info.push_back({labels[l], scheme_sha256(s),
                    s.format.str() + " rank " + std::to_string(s.rank()) + " " + std::string(ring_name(s.ring))});
  }
  g.text = emit(g.plan, info, {name_space, TDISC_TOOL, runtime_include});
  for (size_t s = 0; s < g.plan.stages.size(); ++s) {
    const Stage& st = g.plan.stages[s];
    g.summary += (s ? "; " : "") + std::string("stage ") + std::to_string(s) + ": " + st.format.str() + " rank " +
                 std::to_string(st.rank) + " (" + std::to_string(st.levels) + " level(s)), additions A " +
                 std::to_string(st.a_prog.additions()) + " B " + std::to_string(st.b_prog.additions()) + " C " +
                 std::to_string(st.c_prog.additions()) + ", workspace blocks A " + std::to_string(st.a_slots()) +
                 " B " + std::to_string(st.b_slots()) + " P " + std::to_string(st.rank);
  }
  return g;
}

Generated generate(const Request& r) {
  if (r.schemes.empty()) throw UsageError("no SCHEME given");
  const int levels = r.levels > 0 ? r.levels : static_cast<int>(r.schemes.size());
  if (static_cast<int>(r.schemes.size()) > levels)
    throw UsageError(std::to_string(r.schemes.size()) + " schemes given for " + std::to_string(levels) + " level(s)");
  std::vector<Scheme> read;
  for (const std::string& p : r.schemes) read.push_back(read_native(p));
  std::vector<Scheme> per_level;
  std::vector<std::string> labels;
  for (int l = 0; l < levels; ++l) {
    const size_t i = std::min(static_cast<size_t>(l), read.size() - 1);
    per_level.push_back(read[i]);
    labels.push_back(r.schemes[i]);
  }
  return generate(per_level, labels, r.target, r.name_space, r.runtime_include);
}

}  // namespace tdisc::codegen
