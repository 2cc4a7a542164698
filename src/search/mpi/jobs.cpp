// The table of job runners by kind (see jobs.hpp).
#include "src/search/mpi/jobs.hpp"

#include <map>
#include <mutex>

namespace tdisc::search::mpi {

namespace {

std::map<std::string, JobRunner>& table() {
  static std::map<std::string, JobRunner> t;
  return t;
}

std::mutex& table_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

bool serves_jobs(const std::string& engine) { return engine == "llm"; }

void register_job(const std::string& kind, JobRunner runner) {
  std::lock_guard lock(table_mutex());
  table()[kind] = runner;
}

JobRunner find_job(const std::string& kind) {
  std::lock_guard lock(table_mutex());
  auto it = table().find(kind);
  return it == table().end() ? nullptr : it->second;
}

}  // namespace tdisc::search::mpi
