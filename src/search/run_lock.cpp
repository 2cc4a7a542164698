// Run-directory lock (O_EXCL file with pid and host, stale when the pid is gone) and the resume
// point reconciled with the verified best files; see run_lock.hpp.
#include "src/search/run_lock.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "base/error.hpp"
#include "base/io.hpp"
#include "base/limits.hpp"
#include "decomposition/json_input.hpp"
#include "decomposition/native.hpp"
#include "verifier/verify.hpp"

namespace tdisc::search {

namespace fs = std::filesystem;

namespace {

std::string host_name() {
  char h[256] = {};
  if (gethostname(h, sizeof h - 1) != 0) return "unknown";
  return h;
}

// Creates path with `text` only if it does not exist; false when it exists.
bool create_exclusive(const std::string& path, const std::string& text) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) {
    if (errno == EEXIST) return false;
    throw IoError(path, 0, std::string("cannot create the run lock: ") + std::strerror(errno));
  }
  bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  if (!ok) throw IoError(path, 0, "cannot write the run lock");
  return true;
}

// Whether the holder named in a lock is certainly gone: same host and no such process.
bool holder_gone(const std::string& holder) {
  long pid = 0;
  char host[256] = {};
  if (std::sscanf(holder.c_str(), "%ld %255s", &pid, host) != 2 || pid <= 0) return true;  // unreadable: stale
  if (host_name() != host) return false;  // cannot tell from here
  if (::kill(static_cast<pid_t>(pid), 0) != 0) return errno == ESRCH;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");  // a zombie holds no lock
  std::string text((std::istreambuf_iterator<char>(stat)), {});
  size_t paren = text.rfind(')');
  return paren != std::string::npos && paren + 2 < text.size() && text[paren + 2] == 'Z';
}

// A holder on this host that is still ending (mpirun's ranks get SIGTERM, then SIGKILL a second
// later) is waited for a few seconds before the lock counts as taken.
bool holder_gone_soon(const std::string& holder) {
  for (int i = 0; i < 30; ++i) {  // 3 s
    if (holder_gone(holder)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

}  // namespace

std::string lock_owner_text() { return std::to_string(::getpid()) + " " + host_name() + "\n"; }

RunLock::RunLock(const std::string& dir) : path_(dir + "/lock"), ours_(lock_owner_text()) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!fs::is_directory(dir)) throw IoError(dir, 0, "cannot create the run directory: " + ec.message());
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (create_exclusive(path_, ours_)) return;
    std::string holder = read_text_file(path_, InputKind::run_file);
    while (!holder.empty() && (holder.back() == '\n' || holder.back() == '\r')) holder.pop_back();
    if (!holder_gone_soon(holder))
      throw UsageError(dir + " is in use by process " + holder + " (" + path_ +
                       "); if that process is gone (another host, a container), remove the lock file");
    note_ = "took over a stale lock (process " + excerpt(holder) + " is gone)";
    fs::remove(path_, ec);
  }
  throw UsageError(dir + ": cannot take the run lock " + path_ + " (another process keeps taking it)");
}

RunLock::~RunLock() {
  try {
    if (read_text_file(path_, InputKind::run_file) == ours_) {
      std::error_code ec;
      fs::remove(path_, ec);
    }
  } catch (...) {
  }
}

void check_checkpoint(const nlohmann::json& c, const std::string& path, const std::string& engine) {
  auto refuse = [&](const std::string& why) {
    throw InputError(path, 0, "not a checkpoint of this run (" + why + "); refusing to resume over it. Move it away "
                              "to resume from the verified best files alone");
  };
  if (!c.is_object()) refuse("not a JSON object");
  if (!c.contains("format") || c["format"] != "tdisc-checkpoint") refuse("\"format\" is not \"tdisc-checkpoint\"");
  if (!c.contains("version") || c["version"] != 1) refuse("unsupported \"version\"");
  if (!c.contains("engine") || c["engine"] != engine) refuse("written by another engine than this run's " + engine);
  if (!c.contains("elapsed") || !c["elapsed"].is_number() || !std::isfinite(c["elapsed"].get<double>()) ||
      c["elapsed"].get<double>() < 0)
    refuse("\"elapsed\" is not a non-negative number of seconds");
  if (c.contains("best_rank") && !c["best_rank"].is_number_integer()) refuse("\"best_rank\" is not an integer");
  if (c.contains("best_file") && !c["best_file"].is_string()) refuse("\"best_file\" is not a string");
  if (c.contains("counters") && !c["counters"].is_object()) refuse("\"counters\" is not an object");
}

namespace {

// The lowest-rank best-r<R>.json of dir that parses and verifies over ring; notes for the others.
std::optional<std::pair<Scheme, std::string>> verified_best(const std::string& dir, Ring ring,
                                                            std::vector<std::string>& notes) {
  std::optional<std::pair<Scheme, std::string>> best;
  std::error_code ec;
  for (auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("best-r", 0) != 0 || e.path().extension() != ".json") continue;
    try {
      Scheme s = read_native(e.path().string());
      Verdict v = verify(s, ring);
      if (!v.valid) {
        notes.push_back(name + " does not verify over " + std::string(ring_name(ring)) + " (" + v.why_not + "); ignored");
        continue;
      }
      if (!best || s.rank() < best->first.rank()) best = std::pair{std::move(s), e.path().string()};
    } catch (const InputError& err) {
      notes.push_back(name + " cannot be read (" + err.located() + "); ignored");
    }
  }
  return best;
}

}  // namespace

RunRequest read_run_request(const std::string& dir) {
  const std::string path = dir + "/run.json";
  if (!fs::exists(path)) throw UsageError("--resume: " + dir + " has no run.json (not a tdisc run directory)");
  nlohmann::json j = parse_json_input(read_text_file(path, InputKind::run_file), path, "a tdisc run file");
  auto refuse = [&](const std::string& why) { throw InputError(path, 0, "not a tdisc run file: " + why); };
  if (!j.is_object() || !j.contains("format") || j["format"] != "tdisc-run") refuse("\"format\" is not \"tdisc-run\"");
  if (!j.contains("target") || !j["target"].is_object()) refuse("no \"target\" object");
  const nlohmann::json& t = j["target"];
  auto text = [&](const nlohmann::json& o, const char* key) {
    if (!o.contains(key) || !o[key].is_string()) refuse(std::string("\"") + key + "\" is not a string");
    return o[key].get<std::string>();
  };
  RunRequest r;
  auto format = parse_format(text(t, "size"));
  auto ring = parse_ring(text(t, "ring"));
  if (!format || !ring) refuse("unreadable target size or ring");
  if (!t.contains("rank") || !t["rank"].is_number_integer() || t["rank"].get<long>() < 1 || t["rank"].get<long>() > 1000000)
    refuse("the target rank is not a positive integer");
  r.target = {*format, t["rank"].get<int>(), *ring};
  r.engine = text(j, "engine");
  if (j.contains("threads") && j["threads"].is_number_integer() && j["threads"].get<long>() >= 1 && j["threads"].get<long>() <= 1024)
    r.threads = j["threads"].get<int>();
  if (j.contains("seed") && !j["seed"].is_number_unsigned() && !j["seed"].is_number_integer()) refuse("\"seed\" is not an integer");
  r.seed = j.contains("seed") ? j["seed"].get<unsigned long long>() : 0;
  if (j.contains("params")) {
    if (!j["params"].is_object()) refuse("\"params\" is not an object");
    r.params = j["params"];
  }
  return r;
}

namespace {

// An event line is a few hundred bytes: a last line longer than this is no torn event.
constexpr off_t kMaxTornLine = off_t{1} << 20;

// Cuts a torn last line of the event log, reading only its tail (the log of a long run is large) and
// never through a symbolic link.
void cut_torn_line(const std::string& events, std::vector<std::string>& notes) {
  const int fd = ::open(events.c_str(), O_RDWR | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT) return;
  if (fd < 0 && errno == ELOOP)
    throw InputError(events, 0, "is a symbolic link; the files of a run directory must be its own (refused)");
  if (fd < 0) throw IoError(events, 0, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  const off_t size = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? st.st_size : 0;
  const off_t from = size > kMaxTornLine ? size - kMaxTornLine : 0;
  std::string tail(static_cast<size_t>(size - from), '\0');
  const bool read_ok = ::pread(fd, tail.data(), tail.size(), from) == static_cast<ssize_t>(tail.size());
  if (!read_ok || tail.empty() || tail.back() == '\n') {
    ::close(fd);
    return;
  }
  const size_t newline = tail.rfind('\n');
  if (newline == std::string::npos && from > 0) {
    ::close(fd);
    throw InputError(events, 0, "ends in a line of more than " + std::to_string(kMaxTornLine) + " bytes: not a tdisc event log");
  }
  const off_t keep = from + static_cast<off_t>(newline == std::string::npos ? 0 : newline + 1);
  const bool cut = ::ftruncate(fd, keep) == 0;
  ::close(fd);
  if (cut) notes.push_back("cut a torn last line of events.jsonl (" + std::to_string(size - keep) + " bytes)");
}

// What a kill -9 can leave half-written: temporaries of atomic writes (PATH.tmp-N, never renamed
// into place) are removed, and a torn last line of events.jsonl is cut so the next event starts on
// a line of its own. Notes say what was repaired. The caller holds the run lock.
void repair_torn_files(const std::string& dir, std::vector<std::string>& notes) {
  std::error_code ec;
  int removed = 0;
  for (auto& e : fs::directory_iterator(dir, ec))
    if (e.path().filename().string().find(".tmp-") != std::string::npos && fs::remove(e.path(), ec)) ++removed;
  if (removed) notes.push_back("removed " + std::to_string(removed) + " temporary file(s) of interrupted writes");
  cut_torn_line(dir + "/events.jsonl", notes);
}

}  // namespace

ResumePoint resume_point(const std::string& dir, const std::string& engine, Ring ring) {
  ResumePoint rp;
  const std::string path = dir + "/checkpoint.json";
  if (fs::exists(path)) {
    rp.checkpoint = parse_json_input(read_text_file(path, InputKind::run_file), path, "a tdisc checkpoint");
    check_checkpoint(rp.checkpoint, path, engine);
    rp.has_checkpoint = true;
    repair_torn_files(dir, rp.notes);
  } else {
    rp.checkpoint = {{"format", "tdisc-checkpoint"}, {"version", 1}, {"engine", engine}, {"elapsed", 0.0}};
    rp.notes.push_back("no checkpoint yet (stopped before the first one): continuing from the verified best files");
    repair_torn_files(dir, rp.notes);
  }
  auto best = verified_best(dir, ring, rp.notes);
  const int claimed = rp.checkpoint.value("best_rank", INT_MAX);
  const int proved = best ? best->first.rank() : INT_MAX;
  if (claimed < proved)
    rp.notes.push_back("the checkpoint claims rank " + std::to_string(claimed) + " but no best file proves it; using " +
                       (best ? "rank " + std::to_string(proved) : std::string("none")));
  rp.checkpoint["best_rank"] = proved;
  rp.checkpoint["best_file"] = best ? best->second : std::string();
  if (best) rp.best = best->first;
  return rp;
}

}  // namespace tdisc::search
