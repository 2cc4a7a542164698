// bench_numeric: runs the numeric engine on one target for several seeds and prints one JSON line
// per seed (a measurement, not a test: bench/numeric.sh drives it and writes bench/results/).
// Environment: TDISC_BENCH_FORMAT (2x2x3), _RANK, _RING (Q), _SEEDS (first:count), _SECONDS (per
// seed), _THREADS, _PARAMS (JSON object of engine parameters).
#include <cstdlib>
#include <iostream>

#include "src/search/engine.hpp"
#include "tests/numeric/recording_reporter.hpp"

using namespace tdisc;

namespace {
std::string env(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v ? v : fallback;
}
}  // namespace

int main() {
  Format f = *parse_format(env("TDISC_BENCH_FORMAT", "2x2x2"));
  int rank = std::stoi(env("TDISC_BENCH_RANK", "7"));
  Ring ring = *parse_ring(env("TDISC_BENCH_RING", "Q"));
  std::string seeds = env("TDISC_BENCH_SEEDS", "1:3");
  unsigned long long first = std::stoull(seeds.substr(0, seeds.find(':')));
  int count = std::stoi(seeds.substr(seeds.find(':') + 1));
  double seconds = std::stod(env("TDISC_BENCH_SECONDS", "60"));
  int threads = std::stoi(env("TDISC_BENCH_THREADS", "1"));
  auto params = nlohmann::json::parse(env("TDISC_BENCH_PARAMS", "{}"));
  auto engine = search::make_engine("numeric");
  if (auto why = engine->validate_params(params); !why.empty()) {
    std::cerr << "bench_numeric: TDISC_BENCH_PARAMS: " << why.front() << "\n";
    return 1;
  }
  int invalid = 0;
  for (int s = 0; s < count; ++s) {
    search::EngineConfig c;
    c.target = {f, rank, ring};
    c.seed = first + s;
    c.threads = threads;
    c.params = params;
    test::RecordingReporter rep(ring, seconds);
    rep.stop_at_rank = rank;
    engine->run(c, rep);
    nlohmann::json stages = nlohmann::json::object();
    for (auto& e : rep.events)
      if (e.contains("stage")) stages[e["stage"].get<std::string>()] = stages.value(e["stage"].get<std::string>(), 0) + 1;
    nlohmann::json line{{"format", f.str()}, {"rank", rank}, {"ring", ring_name(ring)}, {"seed", c.seed},
                        {"found", !rep.valid.empty()}, {"seconds", rep.first_found ? *rep.first_found : rep.elapsed()},
                        {"restarts", rep.counters["restarts"]}, {"best_residual", rep.counters["residual"]},
                        {"best_exact_fraction", rep.counters["exact_fraction"]}, {"stages", stages},
                        {"invalid_offers", rep.invalid.size()}};
    if (!rep.valid.empty()) line["scheme_ring"] = ring_name(coefficient_ring(rep.valid.front()));
    std::cout << line.dump() << std::endl;
    invalid += static_cast<int>(rep.invalid.size());
  }
  return invalid == 0 ? 0 : 2;  // an engine that offers an unverified scheme is a bug
}
