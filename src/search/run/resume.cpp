// The resume point: the checkpoint reconciled with the verified best files, after the torn files of
// a kill are repaired; see resume.hpp.
#include "src/search/run/resume.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>

#include "base/error.hpp"
#include "base/io.hpp"
#include "decomposition/json_input.hpp"
#include "decomposition/native.hpp"
#include "src/search/run/checkpoint.hpp"
#include "verifier/verify.hpp"

namespace tdisc::search {

namespace fs = std::filesystem;

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
