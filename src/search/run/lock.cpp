// Run-directory lock: an O_EXCL file with pid and host, stale when the pid is gone; see lock.hpp.
#include "src/search/run/lock.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "base/error.hpp"
#include "base/io.hpp"

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

}  // namespace tdisc::search
