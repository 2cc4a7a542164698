// The searches of a campaign run as child processes (`tdisc search`, this same binary): a kill -9 of
// one loses nothing its run directory does not already hold, and the campaign's own kill -9 sends
// each child SIGTERM (PR_SET_PDEATHSIG), on which it writes its last checkpoint and ends.
#pragma once
#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace tdisc::campaign {

// Starts `tdisc ARGS…` with stdout and stderr appended to log and no MPI variables in its
// environment (a child of a campaign under mpirun is a single-process search). Returns its pid.
pid_t spawn_search(const std::vector<std::string>& args, const std::string& log);
// The exit code of a child that has ended (−signal when killed), or nullopt while it runs.
std::optional<int> reap(pid_t pid);
// SIGINT: the search stops, writes its last checkpoint and exits 3.
void interrupt(pid_t pid);
// The last non-empty line of a log (for a failed search's note).
std::string last_line(const std::string& log);

}  // namespace tdisc::campaign
