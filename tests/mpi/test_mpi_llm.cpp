// The llm engine under mpirun: rank 0 talks to the (scripted) endpoint, rank 1 evaluates the
// proposals' seeds. Hidden ([.mpi]): run_mpi.sh runs it where mpirun exists, otherwise it is skipped.
#include <catch2/catch.hpp>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/llm/script_server.hpp"
#include "tests/support.hpp"

using namespace tdisc;
using nlohmann::json;

namespace {

std::vector<json> events(const std::string& dir) {
  std::vector<json> out;
  std::ifstream in(dir + "/events.jsonl");
  for (std::string line; std::getline(in, line);) out.push_back(json::parse(line));
  return out;
}

}  // namespace

TEST_CASE("mpirun -np 2 with the llm engine: rank 0 asks the model, rank 1 evaluates the seeds", "[.mpi]") {
  const std::string recipe = json{{"version", 1}, {"kind", "recipe"}, {"engine", "flip"}, {"params", {{"plus_diff", 2}}},
                                  {"budget_seconds", 1}, {"seeds", 2}, {"rationale", "test"}}.dump();
  test::ScriptServer server({test::ScriptServer::completion(recipe), test::ScriptServer::completion(recipe)});
  const std::string dir = test::temp_dir("mpi-llm") + "/run";
  ::setenv("TDISC_MPI_TEST_KEY", "sk-test", 1);
  const std::string cmd = "mpirun --oversubscribe -np 2 " + std::string(TDISC_BINARY) +
                          " search --size 2x2x3 --rank 10 --ring ZT --threads 1 -q --engine llm --llm-url " + server.base_url() +
                          " --llm-model scripted --llm-key-env TDISC_MPI_TEST_KEY --llm-max-calls 2 --time 8s --seed 4"
                          " --params '{\"llm\":{\"eval_seconds\":1,\"engines\":\"flip\",\"timeout\":5}}' --out " + dir +
                          " > " + dir + ".log 2>&1";
  const int status = std::system(cmd.c_str());
  INFO(cmd << "\n" << test::slurp(dir + ".log"));
  CHECK(WEXITSTATUS(status) == 3);  // 2x2x3 rank 10 is below the known rank 11: the budget ends the run
  int calls = 0, rank1_offers = 0, rank0_offers = 0;
  for (const json& e : events(dir)) {
    if (e.value("event", "") == "llm_call") {
      ++calls;
      CHECK(e.value("mpi_rank", -1) == 0);  // only rank 0 talks to the endpoint
    }
    if (e.value("event", "") == "improved") (e.value("mpi_rank", -1) == 1 ? rank1_offers : rank0_offers) += 1;
  }
  CHECK(calls >= 1);
  CHECK(rank1_offers >= 1);  // the evaluations ran on rank 1 and their schemes were verified and written by rank 0
  CHECK(rank0_offers == 0);
  CHECK(server.served() >= 1);
}
