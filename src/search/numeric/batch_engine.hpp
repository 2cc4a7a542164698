// The batched numeric search: a device (GPU, or the CPU reference) keeps a batch of restarts in
// phases 1–2; stalled slots are refilled in place; near-misses go to CPU threads that round, repair
// and verify them exactly (restart.cpp's phases 3–4).
#pragma once
#include <string>

#include "src/search/numeric/batch_device.hpp"
#include "src/search/numeric/run.hpp"

namespace tdisc::search::numeric {

// Totals of a batched run (also the payload of the "numeric_batch" events).
struct BatchTotals {
  long started = 0, near_misses = 0, sweeps = 0;
  // Near-misses by the device's snapped residual: 0 after Relax, 0 after the snap phase, not 0 but
  // W fits the snapped U, V after it (uv_snapped_residual), not 0.
  long snapped_relaxed = 0, snapped_pulled = 0, snap_fits = 0, snap_failed = 0;
  long stalled[5] = {0, 0, 0, 0, 0};  // by StallReason
  long found = 0, repair_failed = 0, rounding_failed = 0, stopped = 0;
  // At the stop: slots still in phases 1–2, and near-misses still waiting on the host (never rounded).
  long cut_off_running = 0, cut_off_parked = 0;
  long parked_peak = 0;  // most near-misses waiting on the host at once (bounded by gpu_pool_limit + slots)
  long wound_down = 0;   // slots left idle near the deadline (gpu_wind_down): restarts not started
  // Restarts that ran to an end of their own: stalled (any reason) or rounded to an outcome.
  long completed() const;
  nlohmann::json to_json() const;
};

// Sweeps per kernel launch: the residual check interval of the schedule.
constexpr int kSweepsPerLaunch = 25;

// Runs `run` on `device` with `rounding_threads` CPU threads for phases 3–4, until the run stops
// (target, budget, signal) or its restart budget is spent and every slot is drained.
BatchTotals run_batched(Run& run, BatchDevice& device, int rounding_threads);

// The numeric engine on the CUDA device of its parameters (throws UsageError without one).
void run_on_cuda(Run& run);

// "NVIDIA H200 (cuda:0, …), 1584 restarts at once" for the command line before a run starts;
// throws UsageError when the build has no CUDA or the device is missing.
std::string cuda_headline(const Target& target, const nlohmann::json& params);

}  // namespace tdisc::search::numeric
