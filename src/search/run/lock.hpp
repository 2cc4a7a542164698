// The lock of a run directory: one process at a time works in it (DIR/lock: "pid host"); a lock
// whose process is gone is stale and taken over.
#pragma once
#include <string>

namespace tdisc::search {

// DIR/lock, created exclusively (DIR is created when missing). A lock left by a process that is gone (same host, pid not alive)
// is stale and taken over; a live one, or one from another host, is refused with a UsageError that
// names the holder. Removed by the destructor when it is still ours.
class RunLock {
public:
  explicit RunLock(const std::string& dir);
  ~RunLock();
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;
  const std::string& note() const { return note_; }  // "took over a stale lock (pid 123 on h)" or ""

private:
  std::string path_, ours_, note_;
};

// "pid host" of this process, as written into a lock.
std::string lock_owner_text();

}  // namespace tdisc::search
