// The CUDA batch of the numeric engine against the CPU (on a machine with a GPU; run_gpu_tests.sh
// reports skipped elsewhere): one ALS sweep equals als.cpp's on the same batch, a batch repeats from
// its seeds, and the engine finds 2x2:7 over Q from random starts on the GPU and verifies it.
#include <catch2/catch.hpp>
#include <iostream>

#include "src/search/engine.hpp"
#include "src/search/numeric/als.hpp"
#include "src/search/numeric/batch_engine.hpp"
#include "src/search/numeric/batch_pack.hpp"
#include "src/search/numeric/handover.hpp"
#include "tests/numeric/perturbed.hpp"
#include "tests/numeric/recording_reporter.hpp"
#include "tests/numeric/snap_problem.hpp"
#include "verifier/verify.hpp"

using namespace tdisc;
using namespace tdisc::search;
using namespace tdisc::search::numeric;

namespace {
struct Case {
  const char* format;
  int rank;
  bool complex;
};

// A batch of `slots` random starts (restart seeds 0..slots-1 of run seed 11) on the GPU.
struct GpuBatch {
  Target target;
  MatmulTensor tensor;
  Params params;
  BatchProblem problem;
  std::unique_ptr<BatchDevice> device;
  std::vector<std::vector<double>> starts;
  GpuBatch(const Case& c, int slots)
      : target{*parse_format(c.format), c.rank, Ring::Q}, tensor(matmul_tensor(target.format)),
        params(resolve(nlohmann::json{{"field", c.complex ? "complex" : "real"}}, target)),
        problem(batch_problem(tensor, c.rank, params)), device(make_cuda_batch(problem, 0, slots)) {
    for (int s = 0; s < slots; ++s) {
      RestartInput in{.tensor = tensor, .params = params, .target = target, .seed = restart_seed(11, static_cast<unsigned long long>(s))};
      starts.push_back(pack(problem, initial_factors(in)));
      device->start(s, s, in.seed, starts.back());
    }
  }
};

double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}
}  // namespace

// Tolerance: the GPU solves (G + λI)x = b by an unpivoted LDLᴴ, Eigen by a pivoted LDLT; both are
// backward stable, so they differ by about cond(G + λI)·R·ε. With λ = 1e-3 and ‖G‖ ≲ 10 at these
// starts (entries ~0.3), cond ≲ 1e4 and R ≤ 48: ≲ 1e-10 relative. The bar is 1e-8 relative to the
// largest entry; the residual (a sum of ~10⁴ products) is compared at 1e-12 relative.
TEST_CASE("GPU ALS sweep equals the CPU sweep on the same batch (real and complex)", "[gpu][numeric]") {
  for (Case c : {Case{"3x3x3", 23, false}, Case{"4x4x4", 48, true}, Case{"2x4x5", 32, false}}) {
    INFO(c.format << " rank " << c.rank << (c.complex ? " complex" : " real"));
    GpuBatch b(c, 64);
    const double reg = 1e-3, lattice = 0.01, clip = b.params.clip;
    std::vector<double> res = cuda_sweep_all(*b.device, reg, lattice, clip);
    double worst = 0, worst_res = 0;
    for (int s = 0; s < 64; ++s) {
      Factors<cdouble> x = unpack<cdouble>(b.problem, b.starts[s]);
      const double before = residual(b.tensor, x);
      als_sweep(b.tensor, x, no_fixed(x), Weights{reg, lattice, b.params.lattice, clip});
      const double after = residual(b.tensor, x);
      std::vector<double> cpu = pack(b.problem, x), gpu = b.device->packed(s);
      REQUIRE(max_abs(cpu) > 0.1);  // nothing trivially zero
      for (size_t k = 0; k < cpu.size(); ++k) worst = std::max(worst, std::abs(cpu[k] - gpu[k]) / max_abs(cpu));
      worst_res = std::max({worst_res, std::abs(res[3 * s] - before) / before, std::abs(res[3 * s + 1] - after) / after});
      // The snapped residual of the GPU's own factors: lattice values are multiples of ½, each term a
      // multiple of 1/64, so both sums are exact and must agree to the last bit.
      CHECK(res[3 * s + 2] == rounded_residual(b.tensor, b.params.lattice, unpack<cdouble>(b.problem, gpu)));
    }
    CHECK(worst < 1e-8);
    CHECK(worst_res < 1e-12);
  }
}

// The snap phase's sweep: entries of U, V within the tolerance of the lattice are held there by a
// weight of 1e8 on the GPU, fixed exactly on the CPU (als.cpp with a mask). A held entry then differs
// by |m_r − Σ_s G_rs x_s| / 1e8, with ‖G‖ ≲ 100 (Gram products of up to 20 rows of entries ≤ 3 after
// the first updates) and ‖x‖ ≲ 10: ≲ 1e-5, and the free entries inherit that through G. The bar is
// 1e-5 relative to the largest entry (damping 1e-3 as in the plain sweep above); measured on the
// H200: 1.4e-6 (3x3:23), 2.4e-6 (2x4x5:32), below 1e-6 (4x4:48), where a first bar of 1e-6 failed. Both sides hold V's entries before U's update (hold_entries, hold_on_lattice):
// when the GPU held V's only at V's own update, this test failed on the device (2026-11-23: residuals
// 1–3 % apart), which is how the difference was found.
TEST_CASE("GPU snap-phase sweep (U, V held on the lattice within a tolerance) equals the CPU sweep with a fixed mask",
          "[gpu][numeric]") {
  for (Case c : {Case{"3x3x3", 23, false}, Case{"4x4x4", 48, true}, Case{"2x4x5", 32, false}}) {
    INFO(c.format << " rank " << c.rank << (c.complex ? " complex" : " real"));
    GpuBatch b(c, 64);
    const double reg = 1e-3, lattice = 1e-5, clip = b.params.clip, tolerance = 0.2;
    std::vector<double> res = cuda_sweep_all(*b.device, reg, lattice, clip, tolerance);
    double worst = 0;
    long held = 0, total = 0;
    for (int s = 0; s < 64; ++s) {
      Factors<cdouble> x = unpack<cdouble>(b.problem, b.starts[s]);
      FixedMask m = hold_on_lattice(x, b.params.lattice, tolerance);
      held += m.f[0].cast<long>().sum() + m.f[1].cast<long>().sum();
      total += m.f[0].size() + m.f[1].size();
      als_sweep(b.tensor, x, m, Weights{reg, lattice, b.params.lattice, clip});
      std::vector<double> cpu = pack(b.problem, x), gpu = b.device->packed(s);
      for (size_t k = 0; k < cpu.size(); ++k) worst = std::max(worst, std::abs(cpu[k] - gpu[k]) / max_abs(cpu));
      CHECK(res[3 * s + 1] == Approx(residual(b.tensor, x)).epsilon(1e-6));
    }
    INFO("held " << held << " of " << total << " entries of U, V");
    CHECK(held > total / 10);  // the tolerance holds a real share, not none or all
    CHECK(held < total);
    CHECK(worst < 1e-5);
  }
}

TEST_CASE("GPU snap phase moves near-misses of 2x2:7 onto the lattice, as the CPU reference does", "[gpu][numeric]") {
  const Target target{*parse_format("2x2x2"), 7, Ring::Q};
  const MatmulTensor t = matmul_tensor(target.format);
  const Params p = test::snap_test_params(target);
  BatchProblem bp = test::snap_test_problem(t, p);
  const int slots = 8;
  auto gpu = make_cuda_batch(bp, 0, slots);
  auto ref = make_reference_batch(bp, slots);
  for (int s = 0; s < slots; ++s) {
    const std::vector<double> start = test::snap_test_start(bp, s);
    gpu->start(s, s, 1, start);
    ref->start(s, s, 1, start);
  }
  std::vector<SlotState> sg, sr;
  for (int k = 0; k < 40; ++k) sg = gpu->advance(25), sr = ref->advance(25);
  int pulled = 0, pulled_on = 0;
  for (int s = 0; s < slots; ++s) {
    INFO("slot " << s << ": GPU phase " << sg[s].phase << " relaxed snapped " << sg[s].relaxed_snapped << " snapped "
                 << sg[s].snapped << "; CPU reference " << sr[s].phase << " " << sr[s].relaxed_snapped << " " << sr[s].snapped);
    CHECK(sg[s].phase == sr[s].phase);
    if (sg[s].phase != kNearMiss) continue;
    CHECK(sg[s].relaxed_snapped == sr[s].relaxed_snapped);
    CHECK(sg[s].snapped == sr[s].snapped);
    const Factors<cdouble> x = unpack<cdouble>(bp, gpu->packed(s));
    CHECK(rounded_residual(t, p.lattice, x) == sg[s].snapped);
    pulled += sg[s].relaxed_snapped > kSnappedZero ? 1 : 0;
    if (sg[s].snapped > kSnappedZero) continue;
    pulled_on += sg[s].relaxed_snapped > kSnappedZero ? 1 : 0;
    RestartInput in{.tensor = t, .params = p, .target = target, .seed = 3};
    RestartOutcome out = round_and_repair(in, x, 0, 0);
    REQUIRE(out.scheme);
    CHECK(verify(*out.scheme, Ring::Q).valid);
  }
  CHECK(pulled >= 2);
  CHECK(pulled_on == pulled);
}

TEST_CASE("a GPU batch repeats from its seeds and tracks the CPU reference over a launch", "[gpu][numeric]") {
  const Case c{"3x3x3", 23, false};
  GpuBatch a(c, 32), b(c, 32);
  const auto& sa = a.device->advance(100);
  const auto& sb = b.device->advance(100);
  for (int s = 0; s < 32; ++s) {
    CHECK(sa[s].residual == sb[s].residual);  // bit for bit: fixed thread layout and reduction order
    CHECK(a.device->packed(s) == b.device->packed(s));
  }
  auto ref = make_reference_batch(a.problem, 32);
  GpuBatch g(c, 32);
  for (int s = 0; s < 32; ++s) ref->start(s, s, restart_seed(11, static_cast<unsigned long long>(s)), g.starts[s]);
  const auto& sg = g.device->advance(25);  // one check, one noise injection, two balancings
  const auto& sr = ref->advance(25);
  for (int s = 0; s < 32; ++s) CHECK(sg[s].residual == Approx(sr[s].residual).epsilon(1e-6));
}

TEST_CASE("the numeric engine on the GPU finds 2x2 rank 7 over Q from random starts and verifies it", "[gpu][numeric]") {
  auto engine = tdisc::search::make_engine("numeric");
  EngineConfig cfg;
  cfg.target = {*parse_format("2x2x2"), 7, Ring::Q};
  cfg.seed = 1;
  cfg.threads = 4;
  cfg.params = {{"device", "cuda"}, {"gpu", 0}};
  test::RecordingReporter rep(Ring::Q, 120);
  rep.stop_at_rank = 7;
  engine->run(cfg, rep);
  REQUIRE_FALSE(rep.valid.empty());
  CHECK(rep.invalid.empty());
  CHECK(rep.valid.front().rank() == 7);
  CHECK(verify(rep.valid.front(), Ring::Q).valid);
  CHECK(rep.valid.front().provenance.extra.at("device") == "cuda:0");
  std::cout << "2x2:7 over Q on the GPU: first verified scheme after " << *rep.first_found << " s\n";
}
