// The run directory: every file but events.jsonl is written atomically (base/io.hpp);
// events.jsonl is appended and flushed line by line so a kill -9 loses at most one line.
#include "src/search/run/dir.hpp"

#include <unistd.h>

#include <atomic>
#include <ctime>
#include <filesystem>

#include "base/error.hpp"
#include "base/io.hpp"
#include "decomposition/json_input.hpp"
#include "decomposition/native.hpp"

namespace tdisc::search {

namespace {

std::optional<nlohmann::json> read_json(const std::string& path) {
  if (!std::filesystem::exists(path)) return std::nullopt;
  return parse_json_input(read_text_file(path, InputKind::run_file), path, "a tdisc run file");
}

std::atomic<int> g_event_rank{-1};
thread_local int t_event_rank = -1;

}  // namespace

std::string default_run_dir(const Format& f, int rank) {
  std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::gmtime(&now));
  return "runs/" + f.str() + "-r" + std::to_string(rank) + "-" + stamp;
}

void set_event_rank(int rank) { g_event_rank = rank; }
void set_thread_event_rank(int rank) { t_event_rank = rank; }

RunDir::RunDir(std::string path) : path_(std::move(path)) {
  std::error_code ec;
  std::filesystem::create_directories(path_, ec);
  if (ec || !std::filesystem::is_directory(path_)) throw IoError(path_, 0, "cannot create the run directory: " + ec.message());
  events_fd_ = open_append_nofollow(file("events.jsonl"));
}

RunDir::~RunDir() {
  if (events_fd_ >= 0) ::close(events_fd_);
}

void check_out_dir(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(dir, ec))) return;
  if (!fs::is_directory(dir, ec)) throw UsageError("--out: " + dir + " exists and is not a directory");
  for (const char* ours : {"run.json", "events.jsonl", "lock"})  // a run killed early may hold only its lock
    if (fs::exists(fs::symlink_status(fs::path(dir) / ours, ec))) return;
  if (fs::is_empty(dir, ec)) return;
  throw UsageError("--out: " + dir + " is not empty and not a tdisc run directory (no run.json); refusing to write "
                   "best-r*.json and checkpoint.json there. Give a new or empty directory");
}

void RunDir::write_request(const nlohmann::json& request) const { write_file_atomic(file("run.json"), request.dump(2) + "\n"); }

std::optional<nlohmann::json> RunDir::read_request() const { return read_json(file("run.json")); }

std::string RunDir::write_best(const Scheme& s) const {
  std::string p = file("best-r" + std::to_string(s.rank()) + ".json");
  write_native(p, s);
  return p;
}

void RunDir::append_event(nlohmann::json event) {
  if (!event.contains("t")) event["t"] = utc_now();
  const int rank = t_event_rank >= 0 ? t_event_rank : g_event_rank.load();
  if (rank >= 0 && !event.contains("mpi_rank")) event["mpi_rank"] = rank;
  const std::string line = event.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  std::lock_guard lock(events_mutex_);
  (void)write_all(events_fd_, line);  // one write a line: a kill -9 tears at most the last one
}

void RunDir::write_checkpoint(const nlohmann::json& checkpoint) const {
  write_file_atomic(file("checkpoint.json"), checkpoint.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

std::optional<nlohmann::json> RunDir::read_checkpoint() const { return read_json(file("checkpoint.json")); }

}  // namespace tdisc::search
