// What a report shows of a run directory, read once: run.json (target, parameters, seed, tool,
// machine), events.jsonl (time series of the progress samples, improvements, lifts, LLM calls and
// programs), checkpoint.json (the LLM program database), and the verified best files.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace tdisc::report {

struct Column {
  std::vector<double> t, v;   // elapsed seconds, value
};

struct Improvement {
  double t = 0;
  int rank = 0;
  std::string ring, method, file;  // file as written in the event (path relative to the run's cwd)
};

struct RunData {
  std::string dir;
  nlohmann::json run;                          // run.json (null when absent)
  nlohmann::json started, finished;            // the first "started" and the last "finished" event
  nlohmann::json checkpoint;                   // checkpoint.json (null when absent)
  // Progress samples: "rank", "best", "rate", "restarts", "residual", "exact_fraction",
  // "lift_attempts", "lifts", …; a lane or MPI rank tag makes the key "rate@lane 1".
  std::map<std::string, Column> columns;
  std::vector<Improvement> improvements;
  std::vector<nlohmann::json> llm_calls, llm_programs;  // llm_call / llm_program events
  std::map<std::string, long> event_counts;    // per event type
  std::vector<std::string> best_files;         // best-r*.json present, lowest rank first
  long lines = 0, unreadable = 0;              // lines of events.jsonl; those that did not parse
};

// Reads dir; throws tdisc::InputError (path: what is wrong) when dir has no events.jsonl.
RunData load_run(const std::string& dir);

}  // namespace tdisc::report
