// fork + execve of `tdisc search` for one campaign target; the child dies with its parent.
#include "src/campaign/child.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>

#include "base/error.hpp"

extern char** environ;

namespace tdisc::campaign {

namespace {

bool mpi_variable(const std::string& entry) {
  for (const char* prefix : {"OMPI_", "PMI_", "PMIX_", "MPI_LOCAL", "HYDRA_", "I_MPI_"})
    if (entry.rfind(prefix, 0) == 0) return true;
  return false;
}

std::string self_executable() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw IoError("/proc/self/exe", 0, "cannot find the tdisc binary to start searches: " + ec.message());
  return p.string();
}

}  // namespace

pid_t spawn_search(const std::vector<std::string>& args, const std::string& log) {
  const std::string exe = self_executable();
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e)
    if (!mpi_variable(*e)) env.emplace_back(*e);
  std::vector<char*> argv{const_cast<char*>(exe.c_str())}, envp;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) throw IoError(log, 0, "cannot open the search's log");
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fd);
    throw IoError(log, 0, "cannot start a search (fork failed)");
  }
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);   // the campaign killed: checkpoint and end
    if (::getppid() != parent) _exit(75);  // it died before the line above
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    const int null = ::open("/dev/null", O_RDONLY);
    if (null >= 0) ::dup2(null, 0);
    ::execve(exe.c_str(), argv.data(), envp.data());
    _exit(127);
  }
  ::close(fd);
  return pid;
}

std::optional<int> reap(pid_t pid) {
  int status = 0;
  const pid_t r = ::waitpid(pid, &status, WNOHANG);
  if (r == 0) return std::nullopt;
  if (r < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

void interrupt(pid_t pid) { ::kill(pid, SIGINT); }

std::string last_line(const std::string& log) {
  std::ifstream in(log);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty() && line.find_first_not_of(" \r\t") != std::string::npos) last = line;
  return last;
}

}  // namespace tdisc::campaign
