// Helpers for tests: where the fixtures are, temporary folders, and running the tdisc binary.
#pragma once
#include <string>

#include "decomposition/scheme.hpp"

namespace tdisc::test {

std::string fixture(const std::string& relative);   // tests/data/<relative> (published schemes, each source with its licence)
std::string source_path(const std::string& relative);  // <repo>/<relative>
std::string temp_dir(const std::string& tag);
std::string slurp(const std::string& path);          // whole file as text ("" when unreadable)        // fresh, empty folder under /tmp

struct RunResult {
  int code = -1;
  std::string out, err;
};
// Runs "tdisc ARGS" through /bin/sh and captures stdout, stderr and the exit code.
RunResult run_tdisc(const std::string& args);

// Classical ⟨n,m,p⟩ scheme of rank nmp (for tests that need a valid starting point).
Scheme classical(Format f);
// Strassen's 2x2:7 in trace form.
Scheme strassen();

}  // namespace tdisc::test
