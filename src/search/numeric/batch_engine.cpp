// The batch driver: one host thread launches the device's sweeps and refills finished slots in place
// (no slot waits for another); near-misses cross to CPU rounding threads through a bounded queue.
#include "src/search/numeric/batch_engine.hpp"

#include <algorithm>
#include <atomic>
#include <optional>
#include <thread>

#include "src/search/numeric/batch_pack.hpp"
#include "src/search/numeric/handover.hpp"
#include "src/search/numeric/near_miss_queue.hpp"
#include "src/search/numeric/wind_down.hpp"
#include "src/search/events.hpp"

namespace tdisc::search::numeric {

nlohmann::json BatchTotals::to_json() const {
  return {{"restarts_started", started},
          {"near_misses", near_misses},
          {"snap", {{"zero_after_relax", snapped_relaxed}, {"zero_after_pull", snapped_pulled},
                    {"w_fits_after_pull", snap_fits}, {"not_zero", snap_failed}}},
          {"sweeps", sweeps},
          {"stalled", {{"plateau", stalled[kPlateau]}, {"diverged", stalled[kDiverged]},
                       {"not_finite", stalled[kNotFinite]}, {"above_threshold", stalled[kAboveThreshold]}}},
          {"rounding", {{"found", found}, {"repair_failed", repair_failed},
                        {"rounding_failed", rounding_failed}, {"stopped", stopped}}},
          {"completed", completed()},
          {"parked_peak", parked_peak},
          {"wound_down", wound_down},
          {"cut_off", {{"running", cut_off_running}, {"parked", cut_off_parked}, {"rounding", stopped}}}};
}

long BatchTotals::completed() const {
  return stalled[kPlateau] + stalled[kDiverged] + stalled[kNotFinite] + stalled[kAboveThreshold] + found +
         repair_failed + rounding_failed;
}

namespace {

using Clock = std::chrono::steady_clock;

struct NearMiss {
  long idx;
  Factors<cdouble> x;
  double residual;
  long steps;
  double rounded;  // snapped residual of x (the device's): the hand-over order's key
};

class BatchDriver {
public:
  BatchDriver(Run& run, BatchDevice& dev, int threads)
      : run_(run), dev_(dev), problem_(batch_problem(run.matmul(), run.config().target.rank, run.parameters())),
        queue_(static_cast<size_t>(2 * std::max(1, threads))), threads_(std::max(1, threads)),
        seen_(static_cast<size_t>(dev.slots()), 0), began_(static_cast<size_t>(dev.slots())) {}

  BatchTotals go() {
    std::vector<std::thread> workers;
    for (int i = 0; i < threads_; ++i) workers.emplace_back([this] { rounding_worker(); });
    for (int slot = 0; slot < dev_.slots(); ++slot) assign(slot);
    auto last_event = Clock::now();
    while (!run_.stopping()) {
      const std::vector<SlotState>& st = dev_.advance(kSweepsPerLaunch);
      bool busy = false;
      for (int slot = 0; slot < dev_.slots(); ++slot) {
        count_sweeps(slot, st[slot]);
        if (st[slot].phase == kNearMiss) park(slot, st[slot]), refill(slot);
        else if (st[slot].phase == kStalled) stalled(slot, st[slot]), refill(slot);
      }
      if (!run_.stopping()) hand_over_parked();
      if (!run_.stopping()) wake_waiting();
      for (int slot = 0; slot < dev_.slots(); ++slot) busy = busy || st[slot].phase != kIdle;
      parked_ = static_cast<long>(pool_.size());
      if (!busy && pool_.empty() && queue_.pending() == 0) break;
      if (!busy) std::this_thread::sleep_for(std::chrono::milliseconds(5));
      run_.maybe_checkpoint();
      if (Clock::now() - last_event > std::chrono::seconds(10)) event(events::kNumericBatch), last_event = Clock::now();
    }
    count_cut_off(dev_.advance(0));
    queue_.close();
    for (auto& t : workers) t.join();
    event(events::kNumericBatchEnd);
    std::lock_guard lock(m_);
    return totals_;
  }

private:
  void assign(int slot) {
    long idx = run_.claim();
    if (idx < 0) return dev_.idle(slot);
    RestartInput in = run_.input(idx);
    dev_.start(slot, idx, in.seed, pack(problem_, initial_factors(in)));
    seen_[slot] = 0;
    began_[slot] = Clock::now();
    std::lock_guard lock(m_);
    ++totals_.started;
  }

  // A finished slot takes the next restart, unless the host pool of near-misses is at its limit
  // (gpu_pool_limit): then it waits, idle, so that no restart starts whose near-miss could not be
  // rounded; the other slots go on. Near the deadline (gpu_wind_down) it stays idle for good.
  void refill(int slot) {
    durations_.add(std::chrono::duration<double>(Clock::now() - began_[slot]).count());
    if (winding_down()) return wind_down(slot);
    if (pool_full()) {
      dev_.idle(slot);
      waiting_.push_back(slot);
      return;
    }
    assign(slot);
  }

  bool pool_full() const {
    const long limit = run_.parameters().gpu_pool_limit;
    return limit > 0 && static_cast<long>(pool_.size()) >= limit;
  }

  bool winding_down() const { return run_.parameters().gpu_wind_down && durations_.too_late(run_.seconds_left()); }

  void wind_down(int slot) {
    dev_.idle(slot);
    std::lock_guard lock(m_);
    ++totals_.wound_down;
  }

  void wake_waiting() {
    if (!waiting_.empty() && winding_down()) {
      for (int slot : waiting_) wind_down(slot);
      waiting_.clear();
    }
    while (!waiting_.empty() && !pool_full()) {
      assign(waiting_.back());
      waiting_.pop_back();
    }
  }

  void count_sweeps(int slot, const SlotState& s) {
    if (s.restart < 0) return;
    std::lock_guard lock(m_);
    totals_.sweeps += s.total - seen_[slot];
    seen_[slot] = s.total;
  }

  // A slot that just reached a near-miss: its factors are copied to the host pool (the slot is
  // refilled at once) and keyed by the device's snapped residual. A near-miss that snapped to 0 gives
  // its on-lattice point; otherwise the relaxed point from before the snap pull, as without the pull.
  // A snap phase that ended off the lattice still holds U and V on it: if W fits them
  // (uv_snapped_residual), that point goes to the front too, for the exact repair.
  void park(int slot, const SlotState& s) {
    const bool zero = s.snapped <= kSnappedZero;
    Factors<cdouble> x = unpack<cdouble>(problem_, dev_.packed(slot));
    const Lattice l = run_.parameters().lattice;
    const bool fits = !zero && s.relaxed_snapped > kSnappedZero && uv_snapped_residual(run_.matmul(), l, x) <= kRepairableBelow;
    if (!zero && !fits) x = unpack<cdouble>(problem_, dev_.relaxed(slot));
    const double key = !run_.parameters().gpu_handover_rounded || zero || fits ? 0 : s.relaxed_snapped;
    pool_.push_back(NearMiss{static_cast<long>(s.restart), std::move(x), s.continuous_residual, s.total, key});
    std::lock_guard lock(m_);
    ++totals_.near_misses;
    totals_.parked_peak = std::max(totals_.parked_peak, static_cast<long>(pool_.size()));
    if (s.relaxed_snapped <= kSnappedZero) ++totals_.snapped_relaxed;
    else if (zero) ++totals_.snapped_pulled;
    else if (fits) ++totals_.snap_fits;
    else ++totals_.snap_failed;
  }

  // Pooled near-misses go to the rounding threads best first while the queue takes them; the rest
  // wait on the host (the device never waits for the rounding threads).
  void hand_over_parked() {
    if (pool_.empty()) return;
    std::vector<HandoverKey> keys;
    for (const NearMiss& n : pool_) keys.push_back({n.rounded, n.residual, n.idx});
    std::vector<int> order = handover_order(keys);
    size_t taken = 0;
    for (; taken < order.size(); ++taken)
      if (!queue_.try_push(std::move(pool_[static_cast<size_t>(order[taken])]))) break;
    if (taken == 0) return;
    std::vector<NearMiss> rest;
    for (size_t k = taken; k < order.size(); ++k) rest.push_back(std::move(pool_[static_cast<size_t>(order[k])]));
    pool_ = std::move(rest);
  }

  // At the stop: restarts still in their continuous phases and near-misses still parked are cut off
  // (neither completed nor recorded); near-misses being rounded end as "stopped".
  void count_cut_off(const std::vector<SlotState>& st) {
    std::lock_guard lock(m_);
    for (const SlotState& s : st) {
      totals_.cut_off_running += slot_active(s) ? 1 : 0;
    }
    totals_.cut_off_parked = static_cast<long>(pool_.size());
  }

  void stalled(int slot, const SlotState& s) {
    RestartOutcome out;
    out.stage = "stalled";
    out.residual = std::isfinite(s.continuous_residual) && s.continuous_residual > 0 ? s.continuous_residual : s.residual;
    if (!std::isfinite(out.residual)) out.residual = INFINITY;
    out.steps = s.total;
    const long idx = static_cast<long>(s.restart);
    run_.record(idx, out);
    run_.release(idx);
    std::lock_guard lock(m_);
    ++totals_.stalled[s.reason];
  }

  void rounding_worker() {
    while (auto nm = queue_.pop()) {
      RestartOutcome out = round_and_repair(run_.input(nm->idx), nm->x, nm->residual, nm->steps);
      if (run_.parameters().gpu_handover_rounded) out.rounded_residual = nm->rounded;
      run_.record(nm->idx, out);
      run_.release(nm->idx);
      {
        std::lock_guard lock(m_);
        if (out.stage == "found") ++totals_.found;
        else if (out.stage == "repair") ++totals_.repair_failed;
        else if (out.stage == "rounding") ++totals_.rounding_failed;
        else ++totals_.stopped;
      }
      queue_.done();
      run_.maybe_checkpoint();
    }
  }

  void event(const char* name) {
    nlohmann::json e;
    {
      std::lock_guard lock(m_);
      e = totals_.to_json();
    }
    e["event"] = name;
    e["elapsed"] = std::chrono::duration<double>(Clock::now() - started_).count();
    e["device"] = dev_.name();
    e["slots"] = dev_.slots();
    e["parked"] = parked_.load();  // near-misses waiting on the host for a free rounding thread
    e["waiting_slots"] = static_cast<long>(waiting_.size());  // slots held back by gpu_pool_limit
    double best = run_.best_residual_so_far();
    e["best_residual"] = std::isfinite(best) ? best : -1.0;
    run_.reporter().event(e);
    run_.reporter().set("near_misses", static_cast<double>(e["near_misses"].get<long>()));
  }

  Run& run_;
  BatchDevice& dev_;
  BatchProblem problem_;
  NearMissQueue<NearMiss> queue_;
  int threads_;
  std::vector<long> seen_;  // sweeps of each slot's restart already counted
  std::vector<Clock::time_point> began_;  // when each slot's restart started
  WindDown durations_;                    // how long restarts take, for gpu_wind_down
  std::vector<NearMiss> pool_;  // near-misses waiting for a rounding thread (driver thread only)
  std::vector<int> waiting_;    // idle slots held back while the pool is at gpu_pool_limit
  std::mutex m_;
  BatchTotals totals_;
  Clock::time_point started_ = Clock::now();
  std::atomic<long> parked_{0};
};

}  // namespace

BatchTotals run_batched(Run& run, BatchDevice& device, int rounding_threads) {
  run.announce({{"device", device.name()}, {"slots", device.slots()}, {"rounding_threads", rounding_threads},
                {"sweeps_per_launch", kSweepsPerLaunch}});
  BatchTotals t = BatchDriver(run, device, rounding_threads).go();
  run.finish();
  return t;
}

void run_on_cuda(Run& run) {
  const Params& p = run.parameters();
  BatchProblem problem = batch_problem(run.matmul(), run.config().target.rank, p);
  auto device = make_cuda_batch(problem, p.gpu, p.gpu_batch);
  run_batched(run, *device, std::max(1, run.config().threads));
}

std::string cuda_headline(const Target& target, const nlohmann::json& params) {
  Params p = resolve(params, target);
  CudaProbe probe = probe_cuda(batch_problem(matmul_tensor(target.format), target.rank, p), p.gpu, p.gpu_batch);
  return probe.name + ", " + std::to_string(probe.slots) + " restarts at once";
}

}  // namespace tdisc::search::numeric
