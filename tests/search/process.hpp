// Background tdisc processes for the search tests: start one, wait for it, wait for a file it writes
// or for any condition (with a deadline, never a fixed sleep).
#pragma once
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

namespace tdisc::test {

// Starts tdisc in the background; returns its pid.
inline pid_t spawn(const std::string& args, const std::string& log) {
  pid_t pid = fork();
  if (pid == 0) {
    std::string cmd = "exec " + std::string(TDISC_BINARY) + " " + args + " >" + log + " 2>&1 </dev/null";
    execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  return pid;
}

inline int wait_exit(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

// Polls `ready` every 50 ms until it holds or `seconds` pass, and says whether it held. Tests wait for
// a condition with a generous deadline instead of sleeping a fixed time, so a slow or loaded machine
// makes them slower, never wrong.
template <class Ready>
inline bool wait_until(double seconds, Ready ready) {
  auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!ready()) {
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return true;
}

inline bool wait_for_file(const std::string& path, double seconds) {
  return wait_until(seconds, [&] { return std::filesystem::exists(path); });
}

}  // namespace tdisc::test
