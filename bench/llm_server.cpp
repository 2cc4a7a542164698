// bench_llm_server: the scripted chat-completions server of the LLM benchmark (bench/llm.sh). It
// answers on 127.0.0.1 with a seeded mix of good, useless and broken recipes after a latency drawn
// uniformly from [min, max] seconds, as a real model would, and logs each request's arrival and
// answer times. It runs until SIGTERM or SIGINT (then writes the log), or `--idle` seconds without
// a new request.
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>

#include "tests/llm/script_server.hpp"

using nlohmann::json;
using tdisc::test::ScriptServer;
using tdisc::test::ScriptStep;

namespace {

struct Args {
  unsigned long long seed = 1;
  double min_latency = 5, max_latency = 20, idle = 600;
  std::string port_file, log_file, engine = "numeric";
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string k = argv[i], v = argv[i + 1];
    if (k == "--seed") a.seed = std::stoull(v);
    else if (k == "--min-latency") a.min_latency = std::stod(v);
    else if (k == "--max-latency") a.max_latency = std::stod(v);
    else if (k == "--idle") a.idle = std::stod(v);
    else if (k == "--port-file") a.port_file = v;
    else if (k == "--log") a.log_file = v;
    else if (k == "--engine") a.engine = v;
    else {
      std::fprintf(stderr, "bench_llm_server: unknown flag %s\n", k.c_str());
      std::exit(1);
    }
  }
  return a;
}

// Half good (the engine's defaults, two seeds, the evaluation budget: budget_seconds left out), a quarter useless
// (a tenth of a second, one seed), a quarter broken (invalid JSON, or a recipe that fails the schema).
ScriptStep answer(const Args& a, size_t i) {
  std::mt19937_64 rng(a.seed * 1000003ULL + i);
  double latency = std::uniform_real_distribution<double>(a.min_latency, a.max_latency)(rng);
  int kind = static_cast<int>(rng() % 4);
  std::string content;
  if (kind <= 1)
    content = json{{"version", 1}, {"kind", "recipe"}, {"engine", a.engine}, {"params", json::object()},
                   {"seeds", 2}, {"rationale", "defaults, the whole evaluation budget"}}.dump();
  else if (kind == 2)
    content = json{{"version", 1}, {"kind", "recipe"}, {"engine", a.engine}, {"params", json::object()},
                   {"budget_seconds", 0.1}, {"seeds", 1}, {"rationale", "a tenth of a second"}}.dump();
  else
    content = rng() % 2 ? "{\"version\": 1, \"engine\": " : R"({"version":1,"engine":"warp-drive"})";
  ScriptStep s = ScriptServer::completion(content, 900, 120);
  s.delay_ms = static_cast<int>(latency * 1000);
  return s;
}

std::atomic<bool> g_stop{false};
extern "C" void on_signal(int) { g_stop = true; }

}  // namespace

int main(int argc, char** argv) {
  Args a = parse(argc, argv);
  ScriptServer server([a](size_t i) { return answer(a, i); }, static_cast<int>(a.idle * 1000));
  if (!a.port_file.empty()) std::ofstream(a.port_file) << server.port() << "\n";
  std::printf("bench_llm_server: %s, seed %llu, latency %.0f-%.0f s\n", server.base_url().c_str(), a.seed, a.min_latency, a.max_latency);
  std::fflush(stdout);
  std::signal(SIGTERM, on_signal);
  std::signal(SIGINT, on_signal);
  size_t last = 0;
  auto idle_since = std::chrono::steady_clock::now();
  while (!g_stop && std::chrono::steady_clock::now() - idle_since < std::chrono::duration<double>(a.idle)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    if (server.served() != last) last = server.served(), idle_since = std::chrono::steady_clock::now();
  }
  json log = json::array();
  for (const auto& r : server.requests()) log.push_back({{"index", r.index}, {"arrived_s", r.arrived_s}, {"answered_s", r.answered_s}});
  if (!a.log_file.empty()) std::ofstream(a.log_file) << log.dump() << "\n";
  return 0;
}
