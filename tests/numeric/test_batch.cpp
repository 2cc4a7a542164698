// The host side of the batched (GPU) numeric engine, on the CPU: the slot schedule's transitions,
// the near-miss queue, the CPU reference batch against als.cpp, the batch driver (slots refilled in
// place, restart budget drained, 2x2:7 found and verified), and --device errors without a GPU.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>

#include "src/search/numeric/als.hpp"
#include "src/search/numeric/batch_engine.hpp"
#include "src/search/numeric/batch_pack.hpp"
#include "src/search/numeric/handover.hpp"
#include "src/search/numeric/near_miss_queue.hpp"
#include "src/search/numeric/wind_down.hpp"
#include "verifier/verify.hpp"
#include "tests/support.hpp"
#include "tests/numeric/perturbed.hpp"
#include "tests/numeric/recording_reporter.hpp"
#include "tests/numeric/snap_problem.hpp"

using namespace tdisc;
using namespace tdisc::search;
using namespace tdisc::search::numeric;

namespace {
struct Shell {
  int code = -1;
  std::string output;
};
Shell shell(const std::string& command) {
  Shell r;
  FILE* f = popen(command.c_str(), "r");
  if (!f) return r;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, f)) r.output.append(buf, n);
  int status = pclose(f);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}
BatchSchedule small_schedule() {
  BatchSchedule c;
  c.sweeps = 100;
  c.stall = 50;
  c.lattice_steps = 10;
  c.relax_steps = 5;
  return c;
}
SlotState running() {
  SlotState s;
  s.restart = 7;
  s.phase = kContinuous;
  return s;
}
EngineConfig config(Format f, int rank, nlohmann::json params, unsigned long long seed = 1) {
  EngineConfig c;
  c.target = {f, rank, Ring::Q};
  c.seed = seed;
  c.threads = 2;
  c.params = std::move(params);
  return c;
}
}  // namespace

TEST_CASE("batch schedule: converged slots go to the lattice pull, then relax, then hand over", "[fast][batch]") {
  const BatchSchedule c = small_schedule();
  SlotState s = running();
  s.step = 25;
  slot_after_check(s, c, 1e-10, 3.0);  // below converge_residual
  CHECK(s.phase == kLatticePull);
  CHECK(s.step == 0);
  CHECK(s.continuous_residual == 1e-10);
  CHECK(slot_weights(s, c).lattice == Approx(c.lattice_weight_start));
  s.step = c.lattice_steps;
  CHECK(slot_check_due(s, c));
  slot_after_check(s, c, 0.05, 3.0);
  CHECK(s.phase == kRelax);
  CHECK(slot_weights(s, c).lattice == c.relax_lattice_weight);
  s.step = c.relax_steps;
  slot_after_check(s, c, 1e-6, 3.0);
  CHECK(s.phase == kNearMiss);
  CHECK_FALSE(slot_active(s));
}

TEST_CASE("batch schedule: plateau, divergence and NaN stall a slot with the reason", "[fast][batch]") {
  const BatchSchedule c = small_schedule();
  SlotState s = running();
  for (long k = 25; k <= 100 && s.phase == kContinuous; k += 25) {
    s.step = k;
    slot_after_check(s, c, 0.5, 3.0);  // never improves after the first check
  }
  CHECK(s.phase == kStalled);
  CHECK(s.reason == kPlateau);
  CHECK(s.best_at == 25);  // then 75 sweeps without 1 % progress > stall 50
  CHECK(s.continuous_residual == 0.5);
  SlotState d = running();
  slot_after_check(d, c, 0.1, 2e6);
  CHECK((d.phase == kStalled && d.reason == kDiverged));
  SlotState n = running();
  slot_after_check(n, c, std::nan(""), 1.0);
  CHECK((n.phase == kStalled && n.reason == kNotFinite));
  SlotState a = running();
  a.step = c.sweeps;
  a.best = 0.2;
  a.best_at = c.sweeps - 1;
  slot_after_check(a, c, 0.1, 1.0);  // budget spent above discretise_below
  CHECK((a.phase == kStalled && a.reason == kAboveThreshold));
}

TEST_CASE("batch schedule: regularisation decays geometrically, noise decays per event", "[fast][batch]") {
  const BatchSchedule c = small_schedule();
  SlotState s = running();
  CHECK(slot_weights(s, c).reg == Approx(c.reg_start));
  s.step = c.sweeps / 2;
  CHECK(slot_weights(s, c).reg == Approx(std::sqrt(c.reg_start * c.reg_end)));
  s.step = c.noise_every - 1;
  CHECK(slot_noise(s, c) == Approx(c.noise_start));
  s.noise_events = 2;
  CHECK(slot_noise(s, c) == Approx(c.noise_start * c.noise_decay * c.noise_decay));
  s.step = c.noise_every;
  CHECK(slot_noise(s, c) == 0);
  double g0, g1, h0, h1;
  schedule_normal2(42, 3, 5, g0, g1);
  schedule_normal2(42, 3, 5, h0, h1);
  CHECK((g0 == h0 && g1 == h1));
  schedule_normal2(42, 3, 6, h0, h1);
  CHECK(g0 != h0);
}

TEST_CASE("near-miss queue: bounded, refuses when full, drains after close", "[fast][batch]") {
  NearMissQueue<int> q(2);
  CHECK(q.try_push(1));
  CHECK(q.try_push(2));
  CHECK_FALSE(q.try_push(3));  // full: the driver parks the slot
  CHECK(q.pending() == 2);
  CHECK(*q.pop() == 1);
  q.done();
  CHECK(q.pending() == 1);
  CHECK(q.try_push(3));
  q.close();
  CHECK_FALSE(q.try_push(4));
  CHECK(*q.pop() == 2);
  CHECK(*q.pop() == 3);
  CHECK_FALSE(q.pop().has_value());
  std::thread waiter([&] { CHECK_FALSE(q.pop().has_value()); });  // a closed, empty queue never blocks
  waiter.join();
}

namespace {
template <class S>
void check_reference_sweep(bool complex) {
  const Target target{*parse_format("2x2x3"), 11, Ring::Q};
  const MatmulTensor t = matmul_tensor(target.format);
  Params p = resolve(nlohmann::json{{"field", complex ? "complex" : "real"}}, target);
  BatchProblem b = batch_problem(t, 11, p);
  RestartInput in{.tensor = t, .params = p, .target = target, .seed = 99};
  std::vector<double> v = pack(b, initial_factors(in));
  REQUIRE(static_cast<long>(v.size()) == b.packed_size());
  Factors<S> x = unpack<S>(b, v);
  CHECK(pack(b, x) == v);
  auto dev = make_reference_batch(b, 1);
  dev->start(0, 0, 5, v);
  dev->advance(1);  // one sweep at reg_start: no noise (after sweep 25), no balancing (after sweep 10)
  als_sweep(t, x, no_fixed(x), Weights{b.schedule.reg_start, 0, p.lattice, b.schedule.clip});
  CHECK(dev->packed(0) == pack(b, x));
}
}  // namespace

TEST_CASE("pack and unpack are inverse; the reference batch sweeps exactly as als_sweep", "[fast][batch]") {
  check_reference_sweep<double>(false);
  check_reference_sweep<cdouble>(true);
}

TEST_CASE("batch driver: stalled slots are refilled in place until the restart budget is spent", "[fast][batch]") {
  // 2x2 rank 6 does not exist: every restart stalls above the threshold and is replaced.
  EngineConfig c = config(*parse_format("2x2x2"), 6, {{"restarts", 12}, {"als_iterations", 100}, {"stall_iterations", 50}});
  test::RecordingReporter rep(Ring::Q, 60);
  Run run(c, rep);
  auto dev = make_reference_batch(batch_problem(run.matmul(), 6, run.parameters()), 4);
  BatchTotals t = run_batched(run, *dev, 2);
  CHECK(t.started == 12);
  CHECK(rep.counters["restarts"] == 12);
  CHECK(t.stalled[kAboveThreshold] + t.stalled[kPlateau] + t.near_misses == 12);
  CHECK(t.sweeps >= 12 * 50);
  CHECK(rep.valid.empty());
  REQUIRE_FALSE(rep.checkpoints.empty());
  CHECK(rep.checkpoints.back()["next_restart"] == 12);
  bool ended = false;
  for (const auto& e : rep.events) ended = ended || e.value("event", "") == "numeric_batch_end";
  CHECK(ended);
}

TEST_CASE("batch driver: a resumed run starts at the checkpoint's restart and keeps its seed pool", "[fast][batch]") {
  EngineConfig c = config(*parse_format("2x2x2"), 6, {{"restarts", 12}, {"als_iterations", 100}, {"stall_iterations", 50}});
  c.resume = nlohmann::json{{"engine", "numeric"}, {"version", 1}, {"next_restart", 9}, {"best_residual", 0.5},
                            {"best_exact_fraction", 0.0}};
  test::RecordingReporter rep(Ring::Q, 60);
  Run run(c, rep);
  auto dev = make_reference_batch(batch_problem(run.matmul(), 6, run.parameters()), 4);
  BatchTotals t = run_batched(run, *dev, 1);
  CHECK(t.started == 3);  // restarts 9, 10, 11
  CHECK(rep.counters["restarts"] == 3);
  CHECK(rep.checkpoints.back()["next_restart"] == 12);
  CHECK(rep.counters["residual"] <= 0.5);
}

TEST_CASE("batch driver on the CPU reference finds 2x2 rank 7 over Q and offers only verified schemes", "[fast][batch]") {
  EngineConfig c = config(*parse_format("2x2x2"), 7, nlohmann::json::object(), 3);
  test::RecordingReporter rep(Ring::Q, 60);
  rep.stop_at_rank = 7;
  Run run(c, rep);
  auto dev = make_reference_batch(batch_problem(run.matmul(), 7, run.parameters()), 4);
  BatchTotals t = run_batched(run, *dev, 2);
  INFO(t.to_json().dump());
  REQUIRE_FALSE(rep.valid.empty());
  CHECK(rep.invalid.empty());
  CHECK(rep.valid.front().rank() == 7);
  CHECK(t.found >= 1);
  CHECK(t.near_misses >= t.found);
}

TEST_CASE("--device: bad values, wrong engine, and cuda without a GPU are one-line usage errors", "[fast][batch]") {
  const std::string tdisc = TDISC_BINARY;
  auto r = shell(tdisc + " search --size 2x2 --rank 7 --engine numeric --device gpu --time 1s 2>&1");
  CHECK(r.code == 1);
  CHECK(r.output.find("--device: unknown device \"gpu\"") != std::string::npos);
  r = shell(tdisc + " search --size 2x2 --rank 7 --engine flip --device cuda --time 1s 2>&1");
  CHECK(r.code == 1);
  CHECK(r.output.find("only the numeric engine runs on a GPU") != std::string::npos);
  const std::string dir = test::temp_dir("device-cuda");
  r = shell(tdisc + " search --size 2x2 --rank 7 --engine numeric --device cuda:0 --time 5s --seed 1 --out " + dir + "/run 2>&1");
  INFO(r.output);
  if (r.output.find("restarts at once") != std::string::npos) {  // a machine with a GPU
    CHECK(r.code == 0);
  } else {
    CHECK(r.code == 1);
    const bool built = cuda_built();
    CHECK(r.output.find(built ? "--device cuda: no CUDA device here" : "built without CUDA") != std::string::npos);
    CHECK(r.output.find("Segmentation") == std::string::npos);
  }
}

TEST_CASE("without --device the numeric engine takes the GPU where there is one, else the CPU", "[fast][batch]") {
  const std::string dir = test::temp_dir("device-default");
  auto r = shell(std::string(TDISC_BINARY) + " search --size 2x2 --rank 7 --ring Q --engine numeric --threads 1 --time 20s --seed 1 --out " +
                 dir + "/run 2>&1");
  INFO(r.output);
  CHECK(r.code == 0);
  const bool gpu = cuda_device_count() > 0;
  CHECK((r.output.find("restarts at once") != std::string::npos) == gpu);  // the device line, GPU runs only
  std::ifstream in(dir + "/run/run.json");
  const nlohmann::json run = nlohmann::json::parse(in);
  CHECK((run["params"].value("device", "cpu") == "cuda") == gpu);  // what a resume will use
}

TEST_CASE("hand-over pre-check: snapping to the lattice removes small errors and keeps large ones", "[fast][batch]") {
  // The naive 2x2 scheme: one term e_a ⊗ e_b ⊗ e_c per one (a, b, c) of T, exact, on every lattice.
  const MatmulTensor t = matmul_tensor(*parse_format("2x2x2"));
  const int R = static_cast<int>(t.ones[0].size());
  Factors<cdouble> x;
  for (int q = 0; q < 3; ++q) x.f[q] = Mat<cdouble>::Zero(t.dims[q], R);
  for (int r = 0; r < R; ++r)
    for (int q = 0; q < 3; ++q) x.f[q](t.ones[0][r][q], r) = 1;
  CHECK(residual(t, x) < 1e-12);
  CHECK(rounded_residual(t, Lattice::Half, x) < 1e-12);
  Factors<cdouble> near = x;
  near.f[0](0, 0) += 0.2;
  near.f[1](1, 3) -= 0.15;
  CHECK(residual(t, near) > 0.1);
  CHECK(rounded_residual(t, Lattice::Half, near) < 1e-12);  // both snap back
  Factors<cdouble> far = x;
  far.f[2](0, 0) += 0.8;  // 1.8 snaps to 2 on ½·Z, back to 1 on {0, ±1}
  CHECK(rounded_residual(t, Lattice::Half, far) > 0.4);
  CHECK(rounded_residual(t, Lattice::Ternary, far) < 1e-12);  // {0,±1}: 1.8 clamps back to 1
}

TEST_CASE("hand-over order: smallest rounded residual first, then residual, then restart; non-finite last", "[fast][batch]") {
  std::vector<HandoverKey> k = {{2.0, 1e-5, 7}, {NAN, 1e-9, 1}, {0.0, 5e-5, 9}, {2.0, 1e-6, 8}, {0.0, 5e-5, 3}, {INFINITY, 0, 0}};
  std::vector<int> order = handover_order(k);
  REQUIRE(order.size() == k.size());
  CHECK(order[0] == 4);  // rounded 0, restart 3
  CHECK(order[1] == 2);  // rounded 0, restart 9
  CHECK(order[2] == 3);  // rounded 2, residual 1e-6
  CHECK(order[3] == 0);  // rounded 2, residual 1e-5
  CHECK(order[4] == 5);  // NaN counts as ∞: both infinite, residual 0 before 1e-9
  CHECK(order[5] == 1);
  CHECK(handover_order({}).empty());
}

TEST_CASE("batch driver: at the deadline every started restart is completed, cut off, or stopped while rounding", "[fast][batch]") {
  // 3x3:23 converges slowly: a 1.5 s run on 8 reference slots leaves restarts cut off in phase 1.
  EngineConfig c = config(*parse_format("3x3x3"), 23, nlohmann::json::object(), 2);
  c.seconds = 1.5;
  test::RecordingReporter rep(Ring::Q, 1.5);
  rep.stop_at_rank = -1;
  Run run(c, rep);
  auto dev = make_reference_batch(batch_problem(run.matmul(), 23, run.parameters()), 8);
  BatchTotals t = run_batched(run, *dev, 1);
  INFO(t.to_json().dump());
  CHECK(t.started >= 8);
  CHECK(t.cut_off_running + t.cut_off_parked >= 1);
  CHECK(t.started == t.completed() + t.cut_off_running + t.cut_off_parked + t.stopped);
  CHECK(t.to_json()["completed"] == t.completed());
}

TEST_CASE("hand-over rounding: a near-miss that snaps to an exact scheme is repaired directly", "[fast][batch]") {
  const Target target{*parse_format("2x2x2"), 8, Ring::Q};
  const MatmulTensor t = matmul_tensor(target.format);
  Params p = resolve(nlohmann::json::object(), target);
  RestartInput in{.tensor = t, .params = p, .target = target, .seed = 3};
  Factors<cdouble> x;  // the naive scheme (one term per one of T), every entry off by at most 0.1
  for (int q = 0; q < 3; ++q) x.f[q] = Mat<cdouble>::Zero(t.dims[q], 8);
  for (int r = 0; r < 8; ++r)
    for (int q = 0; q < 3; ++q) x.f[q](t.ones[0][r][q], r) = 1;
  for (int q = 0; q < 3; ++q) x.f[q](0, q) += 0.1 - 0.05 * q;
  RestartOutcome out = round_and_repair(in, x, residual(t, x), 100);
  CHECK(out.stage == "found");
  CHECK(out.how.rfind("snapped", 0) == 0);
  REQUIRE(out.scheme);
  CHECK(verify(*out.scheme, Ring::Q).valid);
  Factors<cdouble> w_off = x;  // only W off the lattice's scheme: snapped residual > 0, the repair solves W
  w_off.f[2](1, 0) += 0.6;
  const double snapped = rounded_residual(t, p.lattice, w_off);
  CHECK(snapped > 0.5);
  CHECK(snapped <= p.snap_repair_below);
  RestartOutcome repaired = round_and_repair(in, w_off, residual(t, w_off), 100);
  CHECK(repaired.how.rfind("snap-repaired", 0) == 0);
  REQUIRE(repaired.scheme);
  CHECK(verify(*repaired.scheme, Ring::Q).valid);
  // U, V on ½·Z and W exact but off it (term 0 scaled by 4 and ¼): every snapped residual is > 0,
  // U, V snapped leave W an exact fit, and the repair finds W (with the threshold shortcut off).
  Params half = resolve(nlohmann::json{{"lattice", "half"}, {"snap_repair_below", 0}}, target);
  RestartInput hin{.tensor = t, .params = half, .target = target, .seed = 3};
  Factors<cdouble> scaled = x;
  for (int q = 0; q < 3; ++q) scaled.f[q](0, q) = std::round(scaled.f[q](0, q).real());
  scaled.f[0].col(0) *= 4.0;
  scaled.f[2].col(0) *= 0.25;
  CHECK(residual(t, scaled) < 1e-12);
  CHECK(rounded_residual(t, half.lattice, scaled) > 0.5);
  CHECK(uv_snapped_residual(t, half.lattice, scaled) < 1e-12);
  RestartOutcome fits = round_and_repair(hin, scaled, 0, 100);
  CHECK(fits.how.rfind("snap-repaired", 0) == 0);
  REQUIRE(fits.scheme);
  CHECK(verify(*fits.scheme, Ring::Q).valid);
  CHECK(uv_snapped_residual(t, half.lattice, w_off) > 0.5);  // W off the fit: not repairable this way
  x.f[0](1, 1) += 0.7;  // no longer snaps to a scheme: the progressive rounding takes over
  RestartOutcome slow = round_and_repair(in, x, residual(t, x), 100);
  CHECK(slow.how.rfind("snapped", 0) != 0);
}

TEST_CASE("batch schedule: the snap phase runs after relaxation unless the point already snaps, and ends at snapped 0",
          "[fast][batch]") {
  BatchSchedule c = small_schedule();
  c.snap_steps = 100;
  auto relaxed_slot = [&] {
    SlotState s = running();
    s.phase = kRelax;
    s.step = c.relax_steps;
    return s;
  };
  SlotState a = relaxed_slot();  // already on the lattice: no pull
  slot_after_check(a, c, 1e-6, 3, 0.0);
  CHECK(a.phase == kNearMiss);
  CHECK(a.relaxed_snapped == 0);
  SlotState b = relaxed_slot();  // off the lattice: the pull, λ ramped from start to end
  slot_after_check(b, c, 1e-6, 3, 2.5);
  REQUIRE(b.phase == kSnap);
  CHECK(b.relaxed_snapped == 2.5);
  CHECK(slot_active(b));
  CHECK(slot_wants_snapped(b));
  CHECK(slot_snap_tolerance(b, c) == Approx(c.snap_tolerance_start));  // the tolerance grows linearly
  b.step = c.snap_steps - 1;
  CHECK(slot_snap_tolerance(b, c) == Approx(c.snap_tolerance_end));
  b.step = 25;
  CHECK(slot_snap_tolerance(b, c) > c.snap_tolerance_start);
  CHECK(slot_snap_tolerance(b, c) < c.snap_tolerance_end);
  CHECK(slot_weights(b, c).lattice == c.relax_lattice_weight);  // the free entries: the soft pull of Relax
  CHECK(slot_snap_tolerance(running(), c) < 0);
  CHECK(slot_check_due(b, c));
  slot_after_check(b, c, 0.3, 3, 1.0);  // still off: goes on
  CHECK(b.phase == kSnap);
  b.step = 50;
  slot_after_check(b, c, 0.2, 3, 0.0);  // snapped to a scheme: ends early
  CHECK(b.phase == kNearMiss);
  CHECK(b.snapped == 0);
  CHECK(b.relaxed_snapped == 2.5);
  SlotState d = relaxed_slot();  // budget spent off the lattice: a near-miss all the same
  slot_after_check(d, c, 1e-6, 3, 2.5);
  d.step = c.snap_steps;
  slot_after_check(d, c, 0.2, 3, 0.5);
  CHECK(d.phase == kNearMiss);
  CHECK(d.snapped == 0.5);
  c.snap_steps = 0;  // off: Relax hands over as before
  SlotState e = relaxed_slot();
  slot_after_check(e, c, 1e-6, 3, 2.5);
  CHECK(e.phase == kNearMiss);
}

TEST_CASE("reference batch: the snap phase moves near-misses of 2x2:7 onto the lattice, and they verify", "[fast][batch]") {
  // Strassen with noise 0.5 on every entry: the continuous phase lands on the solution set near it,
  // some slots off the lattice. No lattice pull and one relaxation sweep, so that only the snap
  // phase can bring them back; the relaxed points are kept apart. (Seeds 40–47: measured, two
  // relaxed points off the lattice, both brought onto it; one slot stalls in phase 1.)
  const Target target{*parse_format("2x2x2"), 7, Ring::Q};
  const MatmulTensor t = matmul_tensor(target.format);
  const Params p = test::snap_test_params(target);
  BatchProblem b = test::snap_test_problem(t, p);
  const int slots = 8;
  auto dev = make_reference_batch(b, slots);
  for (int s = 0; s < slots; ++s) dev->start(s, s, 1, test::snap_test_start(b, s));
  std::vector<SlotState> st;
  for (int k = 0; k < 40; ++k) st = dev->advance(25);
  int near = 0, pulled = 0, pulled_on = 0;
  for (int s = 0; s < slots; ++s) {
    INFO("slot " << s << " phase " << st[s].phase << " relaxed snapped " << st[s].relaxed_snapped << " snapped " << st[s].snapped);
    REQUIRE((st[s].phase == kNearMiss || st[s].phase == kStalled));
    if (st[s].phase != kNearMiss) continue;
    ++near;
    const Factors<cdouble> x = unpack<cdouble>(b, dev->packed(s)), r = unpack<cdouble>(b, dev->relaxed(s));
    CHECK(rounded_residual(t, p.lattice, r) == Approx(st[s].relaxed_snapped).margin(1e-12));
    CHECK(rounded_residual(t, p.lattice, x) == Approx(st[s].snapped).margin(1e-12));
    const bool was_off = st[s].relaxed_snapped > kSnappedZero;
    pulled += was_off ? 1 : 0;
    if (st[s].snapped > kSnappedZero) continue;
    pulled_on += was_off ? 1 : 0;
    RestartInput in{.tensor = t, .params = p, .target = target, .seed = 3};
    RestartOutcome out = round_and_repair(in, x, 0, 0);
    REQUIRE(out.scheme);
    CHECK(out.how.rfind("snapped", 0) == 0);
    CHECK(verify(*out.scheme, Ring::Q).valid);
  }
  CHECK(near >= 6);
  CHECK(pulled >= 2);          // the noise left relaxed points off the lattice
  CHECK(pulled_on == pulled);  // and the snap phase brought every one onto it
}

namespace {
// A device whose every restart is a near-miss after one launch, at its (random) starting point:
// near-misses arrive far faster than one rounding thread can fail them.
class InstantNearMisses : public BatchDevice {
public:
  InstantNearMisses(const BatchProblem& p, int slots) : states_(static_cast<size_t>(slots)), x_(states_.size()) {}
  std::string name() const override { return "instant near-misses"; }
  int slots() const override { return static_cast<int>(states_.size()); }
  void start(int slot, long long restart, unsigned long long seed, const std::vector<double>& packed) override {
    SlotState s;
    s.seed = seed, s.restart = restart, s.phase = kContinuous;
    states_[static_cast<size_t>(slot)] = s;
    x_[static_cast<size_t>(slot)] = packed;
  }
  void idle(int slot) override { states_[static_cast<size_t>(slot)] = SlotState{}; }
  const std::vector<SlotState>& advance(int sweeps) override {
    for (SlotState& s : states_)
      if (sweeps > 0 && slot_active(s)) s.phase = kNearMiss, s.continuous_residual = 1e-5, s.total += sweeps;
    return states_;
  }
  std::vector<double> packed(int slot) override { return x_[static_cast<size_t>(slot)]; }
  std::vector<double> relaxed(int slot) override { return x_[static_cast<size_t>(slot)]; }

private:
  std::vector<SlotState> states_;
  std::vector<std::vector<double>> x_;
};

BatchTotals instant_run(long pool_limit) {
  // 2x2 rank 6 does not exist: every rounding fails, none ends the run.
  EngineConfig c = config(*parse_format("2x2x2"), 6, {{"restarts", 60}, {"gpu_pool_limit", pool_limit}});
  test::RecordingReporter rep(Ring::Q, 60);
  Run run(c, rep);
  InstantNearMisses dev(batch_problem(run.matmul(), 6, run.parameters()), 4);
  return run_batched(run, dev, 1);
}
}  // namespace

TEST_CASE("batch driver: gpu_pool_limit holds finished slots back while near-misses wait, and loses none", "[fast][batch]") {
  const BatchTotals free_run = instant_run(0), bounded = instant_run(2);
  INFO(free_run.to_json().dump() << "\n" << bounded.to_json().dump());
  // Without a limit the device outruns the rounding thread and the pool grows with the restarts.
  CHECK(free_run.parked_peak > 2 + 4);
  // With one, a slot refills only while fewer than 2 wait: at most 2 + one per slot ever park.
  CHECK(bounded.parked_peak <= 2 + 4);
  for (const BatchTotals& t : {free_run, bounded}) {  // every restart still runs and is rounded
    CHECK(t.started == 60);
    CHECK(t.near_misses == 60);
    CHECK(t.completed() == 60);
  }
}

TEST_CASE("wind-down: no estimate before enough restarts ended, then the 90th percentile of their durations",
          "[fast][batch]") {
  WindDown w;
  for (int i = 1; i <= 31; ++i) w.add(i);
  CHECK_FALSE(w.too_late(0.5));  // 31 durations: no estimate yet
  for (int i = 32; i <= 100; ++i) w.add(i);
  CHECK(w.too_late(89));  // 90 % of 1..100 took more than 89 s
  CHECK_FALSE(w.too_late(92));
  for (int i = 0; i < 512; ++i) w.add(1);  // only the recent ones count
  CHECK_FALSE(w.too_late(2));
  CHECK(w.too_late(0.5));
}

namespace {
// A device whose every restart stalls once it has run for a fixed wall-clock time.
class TimedStalls : public BatchDevice {
public:
  TimedStalls(int slots, std::chrono::milliseconds lasts) : states_(static_cast<size_t>(slots)), began_(states_.size()), lasts_(lasts) {}
  std::string name() const override { return "timed stalls"; }
  int slots() const override { return static_cast<int>(states_.size()); }
  void start(int slot, long long restart, unsigned long long seed, const std::vector<double>&) override {
    SlotState s;
    s.seed = seed, s.restart = restart, s.phase = kContinuous;
    states_[static_cast<size_t>(slot)] = s;
    began_[static_cast<size_t>(slot)] = std::chrono::steady_clock::now();
  }
  void idle(int slot) override { states_[static_cast<size_t>(slot)] = SlotState{}; }
  const std::vector<SlotState>& advance(int sweeps) override {
    for (size_t k = 0; k < states_.size(); ++k)
      if (sweeps > 0 && slot_active(states_[k]) && std::chrono::steady_clock::now() - began_[k] >= lasts_)
        states_[k].phase = kStalled, states_[k].reason = kPlateau, states_[k].residual = 1, states_[k].total += sweeps;
    return states_;
  }
  std::vector<double> packed(int) override { return {}; }
  std::vector<double> relaxed(int) override { return {}; }

private:
  std::vector<SlotState> states_;
  std::vector<std::chrono::steady_clock::time_point> began_;
  std::chrono::milliseconds lasts_;
};

BatchTotals timed_run(bool wind_down) {
  EngineConfig c = config(*parse_format("2x2x2"), 6, {{"gpu_wind_down", wind_down}});
  c.seconds = 1.0;
  test::RecordingReporter rep(Ring::Q, 60);
  Run run(c, rep);
  TimedStalls dev(4, std::chrono::milliseconds(40));
  return run_batched(run, dev, 1);
}
}  // namespace

TEST_CASE("batch driver: gpu_wind_down starts no restart the deadline would cut off", "[fast][batch]") {
  // Wall-clock timing: on a loaded machine a last restart can overrun the durations seen before it, so
  // the wound-down run gets three tries; a broken wind-down fails all three.
  const BatchTotals plain = timed_run(false);
  BatchTotals wound = timed_run(true);
  for (int retry = 0; retry < 2 && !(wound.wound_down >= 1 && wound.cut_off_running < 4); ++retry) wound = timed_run(true);
  INFO(plain.to_json().dump() << "\n" << wound.to_json().dump());
  // Without it every slot is busy at the deadline: four restarts started and cut off.
  CHECK(plain.wound_down == 0);
  CHECK(plain.cut_off_running == 4);
  // With it the slots that end in the last 40 ms stay idle.
  CHECK(wound.wound_down >= 1);
  CHECK(wound.cut_off_running < 4);
  CHECK(wound.started == wound.completed() + wound.cut_off_running);
}
