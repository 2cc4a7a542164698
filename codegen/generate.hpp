// From scheme files to generated source: reads the level schemes (the last one repeats down to
// --levels), asks can_generate, plans and emits. Used by `tdisc codegen` and `tdisc bench`.
#pragma once
#include <string>
#include <vector>

#include "codegen/plan.hpp"

namespace tdisc::codegen {

struct Request {
  std::vector<std::string> schemes;  // native files, outermost level first
  int levels = 0;                    // 0: one level per file
  Target target;
  std::string name_space = "tdisc_gen";
  bool thin = false;                 // the stages alone, for any T (EmitOptions)
};

struct Generated {
  std::string text;      // the source, empty when refused
  std::string why_not;   // can_generate's reason when refused
  std::string summary;   // one line: stages, ranks, additions
  Plan plan;
};

// Throws InputError for unreadable or malformed files; a scheme that cannot be generated is a
// refusal (why_not), not an exception.
Generated generate(const Request& r);
// Same from schemes already in memory (tests); paths label the banner.
Generated generate(const std::vector<Scheme>& levels, const std::vector<std::string>& labels, const Target& t,
                   const std::string& name_space, bool thin = false);

}  // namespace tdisc::codegen
