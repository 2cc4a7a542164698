// Benchmark driver (hidden, tag [.bench]): the fraction of restarts that end in an exactly verified
// scheme, CPU threads or GPU batch, with the same schedule. The run does not stop at the first find
// (every verified offer is counted and declined). bench/numeric_gpu.sh drives it.
// Environment: TDISC_BENCH_FORMAT, _RANK, _RING, _SEED, _SECONDS, _THREADS, _PARAMS (JSON; set
// "restarts" to bound the run and "device" to "cuda" for the GPU).
#include <catch2/catch.hpp>
#include <algorithm>
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

class CountingReporter : public test::RecordingReporter {
public:
  using RecordingReporter::RecordingReporter;
  bool offer(const Scheme& s, const std::string& m) override {
    if (RecordingReporter::offer(s, m)) ++verified;
    return false;  // declined: the engine keeps going
  }
  int best_rank() const override { return INT_MAX; }
  long verified = 0;
};
}  // namespace

TEST_CASE("bench: fraction of numeric restarts that end exact", "[.bench]") {
  Format f = *parse_format(env("TDISC_BENCH_FORMAT", "3x3x3"));
  int rank = std::stoi(env("TDISC_BENCH_RANK", "23"));
  Ring ring = *parse_ring(env("TDISC_BENCH_RING", "Q"));
  search::EngineConfig c;
  c.target = {f, rank, ring};
  c.seed = std::stoull(env("TDISC_BENCH_SEED", "1"));
  c.threads = std::stoi(env("TDISC_BENCH_THREADS", "1"));
  c.params = nlohmann::json::parse(env("TDISC_BENCH_PARAMS", "{}"));
  const double seconds = std::stod(env("TDISC_BENCH_SECONDS", "60"));
  c.seconds = seconds;  // the engine's deadline, as --time sets it (gpu_wind_down reads it)
  auto engine = search::make_engine("numeric");
  REQUIRE(engine->validate_params(c.params).empty());
  CountingReporter rep(ring, seconds);
  rep.stop_at_rank = -1;
  engine->run(c, rep);
  nlohmann::json stages = nlohmann::json::object();
  nlohmann::json batch;
  // Rounding outcomes of GPU near-misses by their hand-over key (the residual after snapping to the
  // lattice): how well the pre-check predicts which near-misses verify.
  nlohmann::json by_key = nlohmann::json::object();
  for (const auto& e : rep.events) {
    if (e.value("event", "") == "numeric_restart") {
      stages[e.value("stage", "?")] = stages.value(e.value("stage", "?"), 0) + 1;
      if (e.value("how", "").rfind("snapped", 0) == 0) stages["found_by_snapping"] = stages.value("found_by_snapping", 0) + 1;
      if (e.value("how", "").rfind("snap-repaired", 0) == 0)
        stages["found_by_snap_repair"] = stages.value("found_by_snap_repair", 0) + 1;
      if (e.contains("rounded_residual")) {
        const double k = e["rounded_residual"];
        const std::string bin = k < 1e-9 ? "0" : k <= 1 ? "(0,1]" : k <= 2 ? "(1,2]" : k <= 4 ? "(2,4]" : ">4";
        nlohmann::json& b = by_key[bin];
        if (!b.is_object()) b = nlohmann::json::object();
        b[e.value("stage", "?")] = b.value(e.value("stage", "?"), 0) + 1;
      }
    }
    if (e.value("event", "") == "numeric_batch_end") batch = e;
  }
  const double restarts = rep.counters["restarts"];
  // Restarts that ran to an end of their own (not cut off by the deadline): the batch counts them;
  // on CPU threads each thread's last restart is the one the deadline stops.
  const double completed = batch.is_object() && batch.contains("completed")
                               ? batch["completed"].get<double>()
                               : std::max(0.0, restarts - c.threads);
  // Every restart started (the bar's measure): the batch counts them; on CPU threads the recorded
  // ones plus each thread's last, cut off by the deadline.
  const double started = batch.is_object() && batch.contains("restarts_started")
                             ? batch["restarts_started"].get<double>()
                             : restarts + c.threads;
  nlohmann::json out = {{"format", f.str()}, {"rank", rank}, {"ring", ring_name(ring)}, {"seed", c.seed},
                        {"threads", c.threads}, {"params", c.params}, {"seconds", rep.elapsed()},
                        {"restarts", restarts}, {"verified", rep.verified}, {"invalid_offers", rep.invalid.size()},
                        {"fraction_exact", restarts > 0 ? rep.verified / restarts : 0.0},
                        {"completed", completed}, {"fraction_exact_completed", completed > 0 ? rep.verified / completed : 0.0},
                        {"started", started}, {"fraction_exact_started", started > 0 ? rep.verified / started : 0.0},
                        {"by_handover_key", by_key},
                        {"best_residual", rep.counters["residual"]}, {"stages", stages}, {"batch", batch}};
  std::cout << out.dump() << std::endl;
  CHECK(rep.invalid.empty());
}
