// Background tdisc processes for the search tests: start one, wait for it, wait for a file it writes.
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

inline void wait_for_file(const std::string& path, double seconds) {
  auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!std::filesystem::exists(path) && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
}

}  // namespace tdisc::test
