// The run directory of a search: run.json (what was asked), best-r<R>.json (each verified
// improvement, native), events.jsonl (one JSON object a line), checkpoint.json (atomic).
#pragma once
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "decomposition/scheme.hpp"

namespace tdisc::search {

// MPI runs (src/search/mpi/): every event names the rank it comes from ("mpi_rank"). The process default is set
// once (rank 0, the directory's owner); the thread relaying another rank's messages sets its own.
// -1 (the default of a single-process run): events carry no rank.
void set_event_rank(int rank);
void set_thread_event_rank(int rank);

// A fresh run (not --resume) may write into a missing or empty directory, or into a tdisc run
// directory (one holding run.json, events.jsonl or lock); anything else is refused with UsageError, so
// that best-r*.json and checkpoint.json never overwrite someone else's files.
void check_out_dir(const std::string& dir);
// runs/<format>-r<R>-<UTC timestamp>: where a search writes when it is given no directory (tdisc
// search without --out, tdisc.search without out=).
std::string default_run_dir(const Format& f, int rank);

class RunDir {
public:
  // Creates the folder (and parents) when missing; never deletes anything in it. events.jsonl is
  // opened without following a symbolic link (a link is refused).
  explicit RunDir(std::string path);
  ~RunDir();
  RunDir(const RunDir&) = delete;
  RunDir& operator=(const RunDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

  void write_request(const nlohmann::json& request) const;          // run.json
  std::optional<nlohmann::json> read_request() const;
  std::string write_best(const Scheme& s) const;                   // best-r<R>.json; returns its path
  void append_event(nlohmann::json event);                          // adds "t" (UTC) when absent
  void write_checkpoint(const nlohmann::json& checkpoint) const;   // checkpoint.json, atomically
  std::optional<nlohmann::json> read_checkpoint() const;

private:
  std::string path_;
  std::mutex events_mutex_;
  int events_fd_ = -1;
};

}  // namespace tdisc::search
