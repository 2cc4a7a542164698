// The batch driver: one host thread launches the device's sweeps and refills finished slots in place
// (no slot waits for another); near-misses cross to CPU rounding threads through a bounded queue.
#include "src/search/numeric/batch_engine.hpp"

#include <algorithm>
#include <atomic>
#include <thread>

#include "src/search/numeric/batch_pack.hpp"
#include "src/search/numeric/near_miss_queue.hpp"

namespace tdisc::search::numeric {

nlohmann::json BatchTotals::to_json() const {
  return {{"restarts_started", started},
          {"near_misses", near_misses},
          {"sweeps", sweeps},
          {"stalled", {{"plateau", stalled[kPlateau]}, {"diverged", stalled[kDiverged]},
                       {"not_finite", stalled[kNotFinite]}, {"above_threshold", stalled[kAboveThreshold]}}},
          {"rounding", {{"found", found}, {"repair_failed", repair_failed},
                        {"rounding_failed", rounding_failed}, {"stopped", stopped}}}};
}

namespace {

using Clock = std::chrono::steady_clock;

struct NearMiss {
  long idx;
  Factors<cdouble> x;
  double residual;
  long steps;
};

class BatchDriver {
public:
  BatchDriver(Run& run, BatchDevice& dev, int threads)
      : run_(run), dev_(dev), problem_(batch_problem(run.matmul(), run.config().target.rank, run.parameters())),
        queue_(static_cast<size_t>(2 * std::max(1, threads))), threads_(std::max(1, threads)),
        seen_(static_cast<size_t>(dev.slots()), 0) {}

  BatchTotals go() {
    std::vector<std::thread> workers;
    for (int i = 0; i < threads_; ++i) workers.emplace_back([this] { rounding_worker(); });
    for (int slot = 0; slot < dev_.slots(); ++slot) assign(slot);
    auto last_event = Clock::now();
    while (!run_.stopping()) {
      const std::vector<SlotState>& st = dev_.advance(kSweepsPerLaunch);
      bool busy = false;
      long parked = 0;
      for (int slot = 0; slot < dev_.slots(); ++slot) {
        count_sweeps(slot, st[slot]);
        if (st[slot].phase == kNearMiss && !run_.stopping() && hand_over(slot, st[slot])) assign(slot);
        else if (st[slot].phase == kStalled) stalled(slot, st[slot]), assign(slot);
        busy = busy || st[slot].phase != kIdle;
        parked += st[slot].phase == kNearMiss ? 1 : 0;
      }
      parked_ = parked;
      if (!busy && queue_.pending() == 0) break;
      if (!busy) std::this_thread::sleep_for(std::chrono::milliseconds(5));
      run_.maybe_checkpoint();
      if (Clock::now() - last_event > std::chrono::seconds(10)) event("numeric_batch"), last_event = Clock::now();
    }
    queue_.close();
    for (auto& t : workers) t.join();
    event("numeric_batch_end");
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
    std::lock_guard lock(m_);
    ++totals_.started;
  }

  void count_sweeps(int slot, const SlotState& s) {
    if (s.restart < 0) return;
    std::lock_guard lock(m_);
    totals_.sweeps += s.total - seen_[slot];
    seen_[slot] = s.total;
  }

  bool hand_over(int slot, const SlotState& s) {
    NearMiss nm{static_cast<long>(s.restart), unpack<cdouble>(problem_, dev_.packed(slot)), s.continuous_residual, s.total};
    if (!queue_.try_push(std::move(nm))) return false;  // parked: tried again after the next launch
    std::lock_guard lock(m_);
    ++totals_.near_misses;
    return true;
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
    e["parked"] = parked_.load();  // near-misses waiting in their slots for a free rounding thread
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
