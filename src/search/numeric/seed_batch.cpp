// The ansatz on a CUDA device: restarts claimed in batches, their starting θ drawn on the host exactly
// as the CPU path draws them (restart seeds decide, not the host), Adam run on the device, and the
// tail (numerical solution, pull, rounding, exact repair) on the host threads.
#include "src/search/numeric/seed_batch.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include "src/search/numeric/seed_device.hpp"

namespace tdisc::search::numeric {

namespace {

// The rows of the matmul tensor's ones per block, as absolute rows of a term column (mode q's
// rotation: the entry of block q first).
void add_pairs(const MatmulTensor& t, SeedProblem& p) {
  const int off[3] = {0, p.dims[0], p.dims[0] + p.dims[1]};
  std::vector<std::vector<std::array<int, 2>>> rows(static_cast<size_t>(p.len()));
  for (const auto& o : t.ones[0])
    for (int q = 0; q < 3; ++q)
      rows[off[q] + o[q]].push_back({off[(q + 1) % 3] + o[(q + 1) % 3], off[(q + 2) % 3] + o[(q + 2) % 3]});
  p.pair_start = {0};
  for (const auto& r : rows) {
    p.pairs.insert(p.pairs.end(), r.begin(), r.end());
    p.pair_start.push_back(static_cast<int>(p.pairs.size()));
  }
}

}  // namespace

SeedProblem seed_problem(const SeedSpace& s, const MatmulTensor& t, const Params& p, bool complex) {
  SeedProblem out;
  out.dims = {s.format.a_size(), s.format.b_size(), s.format.c_size()};
  out.rank = s.rank();
  out.parameters = s.parameters;
  out.complex = complex;
  out.row_start = {0};
  for (int r = 0; r < s.rank(); ++r)
    for (int e = 0; e < out.len(); ++e) {
      for (Eigen::Index j = 0; j < s.term_map[r].cols(); ++j) {
        const cdouble v = s.term_map[r](e, j);
        if (v == cdouble(0)) continue;
        out.col.push_back(s.term_offset[r] + static_cast<int>(j));
        out.re.push_back(v.real());
        out.im.push_back(v.imag());
      }
      out.row_start.push_back(static_cast<int>(out.col.size()));
    }
  add_pairs(t, out);
  out.steps = p.adam_steps;
  out.stall = p.adam_stall;
  out.lr = p.adam_lr;
  out.slow_from = p.adam_slow_from;
  out.converge = p.converge_residual;
  out.threads = static_cast<int>(p.gpu_seed_threads);
  out.recipe = p.recipe;
  return out;
}

std::vector<double> pack_seeds(const std::vector<cdouble>& theta, bool complex) {
  std::vector<double> out;
  for (const cdouble& z : theta) {
    out.push_back(z.real());
    if (complex) out.push_back(z.imag());
  }
  return out;
}

std::vector<cdouble> unpack_seeds(const std::vector<double>& packed, bool complex) {
  std::vector<cdouble> out;
  for (size_t k = 0; k < packed.size(); k += complex ? 2 : 1) out.emplace_back(packed[k], complex ? packed[k + 1] : 0.0);
  return out;
}

void run_ansatz_on_cuda(Run& run) {
  const Params& p = run.parameters();
  const bool complex = ansatz_is_complex(p, *run.seed_space());
  auto device = make_cuda_seed_device(seed_problem(*run.seed_space(), run.matmul(), p, complex), p.gpu);
  run.announce({{"device", device->name()}, {"slots", device->slots()}});
  // With culling most blocks end early and the hardware refills their slots from the batch; a larger
  // batch keeps the survivors' long tail (the last blocks running alone) a smaller share of its time.
  const long per_slot = p.recipe.cull_residual > 0 ? 16 : 4;
  const long batch = p.gpu_batch > 0 ? p.gpu_batch : per_slot * device->slots();
  double last_batch_seconds = 0;
  while (!run.stopping() && run.seconds_left() > last_batch_seconds) {
    std::vector<long> ids;
    std::vector<RestartInput> inputs;
    std::vector<std::vector<double>> starts;
    std::vector<unsigned long long> seeds;
    for (long k = 0; k < batch; ++k) {
      long idx = run.claim();
      if (idx < 0) break;
      ids.push_back(idx);
      inputs.push_back(run.input(idx));
      starts.push_back(pack_seeds(initial_seeds(inputs.back()), complex));
      seeds.push_back(inputs.back().seed);
    }
    if (ids.empty()) break;
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<SeedOutcome> outs = device->run(starts, seeds);
    last_batch_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    run.reporter().add("device_seconds", last_batch_seconds);
    // The tails on the host threads (most end at once; a near-miss rounds for about a second).
    const int threads = std::max(1, run.config().threads);
    std::vector<std::thread> pool;
    std::atomic<size_t> next{0};
    auto finish = [&] {
      for (size_t i = next++; i < ids.size(); i = next++) {
        RestartOutcome out = finish_ansatz_restart(inputs[i], unpack_seeds(outs[i].theta, complex), outs[i].residual,
                                                   outs[i].steps, outs[i].culled);
        run.record(ids[i], out);
        run.release(ids[i]);
      }
    };
    for (int k = 1; k < threads; ++k) pool.emplace_back(finish);
    finish();
    for (auto& th : pool) th.join();
    run.maybe_checkpoint();
  }
  run.finish();
}

}  // namespace tdisc::search::numeric
