// The subcommands of tdisc. Each takes its arguments after the subcommand name and returns the
// exit code of the contract (DESIGN §4): 0 ok, 1 usage or I/O, 2 verification failed or bad
// input, 3 search ended without the target.
#pragma once
#include <exception>
#include <string>
#include <vector>

namespace tdisc::cli {

enum Exit : int { kOk = 0, kUsage = 1, kInvalid = 2, kNoTarget = 3 };

using Args = std::vector<std::string>;
int cmd_search(const Args& args);
int cmd_verify(const Args& args);
int cmd_import(const Args& args);
int cmd_export(const Args& args);
int cmd_catalog(const Args& args);
int cmd_codegen(const Args& args);
int cmd_bench(const Args& args);
int cmd_report(const Args& args);
int cmd_tune(const Args& args);
int cmd_symmetry(const Args& args);
int cmd_descend(const Args& args);
int cmd_prove(const Args& args);
int cmd_evolve(const Args& args);
int cmd_recipe(const Args& args);
int cmd_campaign(const Args& args);

// Runs a subcommand, turning every exception into "tdisc: …" on stderr and its exit code.
int guarded(int (*command)(const Args&), const Args& args);
// The exit code guarded() gives an exception (for the other MPI ranks of a search that failed).
int exit_code_of(std::exception_ptr e);

}  // namespace tdisc::cli
