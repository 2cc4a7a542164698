// The parameter table of the numeric engine and its validation. Defaults follow the schedules in
// the literature (small init, decaying regularisation and noise, ramped lattice weight).
#include "src/search/numeric/params.hpp"

#include <algorithm>
#include <cmath>

#include "decomposition/error.hpp"
#include "src/search/known_ranks.hpp"
#include "src/search/numeric/lm.hpp"

namespace tdisc::search::numeric {

const params::Table& numeric_table() {
  using namespace params;
  static const Table t{
      "numeric", "", "Alternating least squares / Levenberg–Marquardt on real or complex factors, a lattice\n"
      "discretisation schedule and an exact repair over Q (AlphaEvolve-style numerical search).",
      {choice("device", "cpu", {"cpu", "cuda"}, "where restarts run: CPU threads, or a batch on a CUDA device (--device)"),
       integer("gpu", 0, 0, 1023, "CUDA device index (--device cuda:N; an MPI rank passes its local GPU)"),
       integer("gpu_batch", 0, 0, 1e7, "restarts resident on the GPU at once (0: twice what the device holds)"),
       integer("gpu_pool_limit", 0, 0, 1e9,
               "GPU: near-misses that may wait on the host for a rounding thread; at the limit, finished slots stay idle until the pool shrinks (0: no limit, the device never waits)"),
       boolean("gpu_wind_down", true,
               "GPU: near the deadline a finished slot stays idle when a restart started now would likely be cut off (less time left than 90 % of the completed restarts took)"),
       choice("gpu_handover", "rounded", {"rounded", "slot"},
              "order in which parked GPU near-misses reach the rounding threads: smallest residual after snapping to the lattice first, or slot order"),
       integer("snap_iterations", 600, 0, 1e8,
               "GPU: sweeps of the snap phase after relaxation (U, V entries held on the lattice once within a growing tolerance; 0: off), ended early once the snapped residual is 0"),
       number("snap_tolerance_start", 0.02, 0, 1, "GPU: the snap phase's tolerance at its start (grows linearly to half the lattice spacing)"),
       number("snap_repair_below", 2, 0, 1e6,
              "GPU near-misses: try the exact repair (W solved from snapped U, V) before progressive rounding when the snapped residual is at most this"),
       choice("method", "auto", {"auto", "als", "lm"}, "continuous phase: ALS sweeps or LM steps (auto: ALS)"),
       choice("round_method", "auto", {"auto", "als", "lm"}, "re-fits while rounding (auto: LM once few enough entries are free)"),
       choice("field", "auto", {"auto", "real", "complex"}, "real or complex factors (auto: complex for the half-gaussian lattice)"),
       choice("lattice", "auto", {"auto", "ternary", "integer", "half", "half-gaussian"},
              "lattice the coefficients are rounded onto (auto: by ring and rank, see auto_lattice)"),
       number("init_scale", 0.3, 1e-6, 10, "standard deviation of the random initial factors"),
       integer("restarts", 0, 0, 1e12, "restarts (0: until the budget is spent)"),
       number("restart_seconds", 0, 0, 1e7, "time limit per restart (0: none; then runs are reproducible)"),
       integer("als_iterations", 0, 0, 1e8, "ALS sweeps of the continuous phase (0: by size, max(3000, 5·unknowns))"),
       integer("lm_iterations", 300, 1, 1e7, "LM steps of the continuous phase"),
       number("reg_start", 1e-2, 0, 10, "Tikhonov regularisation at the start (decays geometrically)"),
       number("reg_end", 1e-6, 0, 10, "regularisation at the end"),
       number("noise_start", 0.02, 0, 10, "scale of the noise added to escape swamps"),
       number("noise_decay", 0.85, 0, 1, "factor applied to the noise at each injection"),
       integer("noise_every", 25, 1, 1e8, "sweeps between noise injections"),
       number("clip", 2.0, 0, 1e6, "largest magnitude of a coefficient during the continuous phase"),
       boolean("balance", true, "rebalance the norms of u, v, w of each term"),
       number("converge_residual", 1e-9, 0, 1e3, "residual at which the continuous phase has converged"),
       number("discretise_below", 1e-4, 0, 1e3, "residual below which discretisation starts"),
       integer("stall_iterations", 500, 1, 1e8, "sweeps without progress before a restart"),
       number("lattice_weight_start", 1e-4, 0, 1e6, "weight of the pull towards the lattice at the start"),
       number("lattice_weight_end", 0.3, 0, 1e6, "weight of that pull at the end"),
       integer("lattice_iterations", 600, 0, 1e8, "sweeps of the lattice-pull phase"),
       integer("relax_iterations", 500, 0, 1e8, "sweeps of relaxation after the pull"),
       number("round_fraction", 0.08, 1e-6, 1, "share of the free entries rounded per batch"),
       integer("round_factors", 2, 2, 3, "2: round U, V and solve W exactly; 3: round all three"),
       integer("round_deferrals", 4, 0, 1000, "entries left to the repair when both lattice neighbours fail"),
       integer("round_iterations", 200, 0, 1e7, "ALS sweeps per rounding batch (LM: a twentieth)"),
       integer("round_backtracks", 3, 0, 100, "backtracks of a rounding batch that raised the residual"),
       number("round_residual", 1e-3, 0, 1e3, "largest residual a rounding batch may leave"),
       number("round_lattice_weight", 1e-5, 0, 1e6, "lattice weight during the rounding re-fits"),
       integer("polish_iterations", 200, 0, 1e7,
               "near-miss test before discretisation: unregularised, unclipped ALS sweeps on a copy; a near-miss with an entry beyond the clip whose residual does not fall to polish_ratio of its value (a border-rank approximation) ends as stage 'degenerate', is not rounded and is not kept as a seed (0: off)"),
       number("polish_ratio", 0.1, 0, 1e6, "the residual a converging near-miss reaches after the polish sweeps, as a share of its value"),
       integer("repair_max_denominator", 8, 0, 64, "largest denominator the exact repair may introduce"),
       number("repair_from_fraction", 0.5, 0, 1, "share of entries rounded before the exact repair is tried"),
       integer("seed_pool", 8, 0, 1000, "near-miss schemes kept as seeds for later restarts"),
       number("seed_probability", 0.2, 0, 1, "chance that a restart starts from a pooled seed"),
       number("seed_noise", 0.05, 0, 10, "noise added to a pooled seed"),
       text("ansatz", "",
            "symmetric ansatz: the search runs in seed space, every iterate invariant under a group: z3 (cyclic shift), z3xz4 (Kaporin's shift × diag(1,i,-1,-i)), or a tdisc-ansatz file from tdisc symmetry (empty: none)"),
       integer("ansatz_fixed", -1, -1, 1e6, "ansatz z3/z3xz4: orbits fixed by the shift per phase (-1: R/phases mod 3, or 3 when that is 0)"),
       integer("adam_steps", 8000, 1, 1e9, "ansatz: Adam steps in seed space"),
       number("adam_lr", 0.01, 1e-9, 10, "ansatz: Adam's step size (cut tenfold from adam_slow_from on)"),
       number("adam_slow_from", 0.75, 0, 1, "ansatz: share of adam_steps after which the step size is a tenth"),
       integer("adam_stall", 10000, 50, 1e9,
               "ansatz: Adam steps without a 1 % gain before the restart gives up (z3xz4 on an H200, 2026-11-26: a stall of 2000 kept 3 of 20 numerical 4x4:48s and saved 7 % of the time)"),
       choice("gpu_seed_threads", "512", {"64", "128", "256", "512", "1024"}, "GPU: threads per seed-space restart (one block each)"),
       number("ansatz_pull", 0, 0, 1e6,
              "ansatz: final weight of the lattice pull in seed space after convergence (0: none; then lattice_iterations + relax_iterations Adam steps)"),
       boolean("ansatz_round", true, "ansatz: round onto the lattice and repair exactly after the seed phase (false: numerical solutions only)"),
       number("numerical_residual", 1e-8, 0, 1,
              "ansatz: residual below which a seed-space point is reported as a numerical solution (event numerical_solution; never a scheme)"),
       // Set per rank by MPI runs (src/search/mpi/rank_config.cpp): N ranks run the single-process
       // sequence of restarts between them, each on the GPU of its host that matches its local rank.
       integer("restart_offset", 0, 0, 1e12, "first restart index of this process (MPI: its rank)"),
       integer("restart_stride", 1, 1, 1e6, "distance between this process's restart indices (MPI: the number of ranks)")},
      "",
      ""};
  return t;
}

nlohmann::json default_params_json() { return params::defaults(numeric_table()); }

std::vector<std::string> validate(const nlohmann::json& params) {
  std::vector<std::string> problems = params::check_object(numeric_table(), params, "params.");
  if (problems.empty()) {
    nlohmann::json m = default_params_json();
    m.update(params);
    if (m["lattice"] == "half-gaussian" && m["field"] == "real")
      problems.push_back("params.lattice: half-gaussian needs field complex (or auto), got field real");
  }
  return problems;
}

Lattice auto_lattice(const Target& target) {
  if (target.ring == Ring::QI) return Lattice::HalfGaussian;
  if (target.ring == Ring::ZT || ring_is_modular(target.ring)) return Lattice::Ternary;
  if (target.ring == Ring::Z) return Lattice::Integer;
  // Over Q at or above the best known integer rank, schemes over {0, ±1} exist and rounding onto
  // that lattice succeeds far more often than onto ½·Z (3x3:23, 2026-11-21: 3 of 3 seeds within
  // 60 s against 2 of 3 within 150 s); below it (2x4x5:32, 4x4:48) halves are needed.
  const auto integer = best_integer_rank(target.format);
  return integer && target.rank >= *integer ? Lattice::Ternary : Lattice::Half;
}

std::string device_name(const Params& p) {
  return p.device == Device::Cuda ? "cuda:" + std::to_string(p.gpu) : "cpu";
}

Params resolve(const nlohmann::json& params, const Target& target) {
  auto problems = validate(params);
  TDISC_REQUIRE(problems.empty(), problems.empty() ? "" : problems.front());
  nlohmann::json m = default_params_json();
  m.update(params);
  Params p;
  const std::string lattice = m["lattice"], field = m["field"], method = m["method"];
  if (lattice == "auto")
    p.lattice = auto_lattice(target);
  else
    p.lattice = *parse_lattice(lattice);
  p.complex = field == "complex" || (field == "auto" && lattice_is_complex(p.lattice));
  if (method == "auto")
    p.method = Method::Als;  // measured: ALS sweeps are cheaper per unit of progress than LM steps here
  else
    p.method = method == "lm" ? Method::Lm : Method::Als;
  const std::string round_method = m["round_method"];
  p.round_method = round_method == "als" ? Method::Als : round_method == "lm" ? Method::Lm : Method::Auto;
  p.device = m["device"] == "cuda" ? Device::Cuda : Device::Cpu;
  p.gpu = m["gpu"];
  p.gpu_batch = m["gpu_batch"];
  p.gpu_handover_rounded = m["gpu_handover"] == "rounded";
  p.gpu_pool_limit = m["gpu_pool_limit"];
  p.gpu_wind_down = m["gpu_wind_down"];
  p.snap_iterations = m["snap_iterations"];
  p.snap_tolerance_start = m["snap_tolerance_start"];
  p.snap_repair_below = m["snap_repair_below"];
  p.init_scale = m["init_scale"];
  p.restarts = m["restarts"];
  p.restart_seconds = m["restart_seconds"];
  // 0: scale with the number of unknowns (3000 sweeps up to ~600 unknowns, e.g. 3x3:23; about
  // 11500 for 4x4:48, whose swamps are longer).
  const long unknowns = static_cast<long>(target.rank) *
                        (target.format.a_size() + target.format.b_size() + target.format.c_size());
  p.als_iterations = m["als_iterations"];
  if (p.als_iterations == 0) p.als_iterations = std::max(3000L, 5 * unknowns);
  p.lm_iterations = m["lm_iterations"];
  p.reg_start = m["reg_start"];
  p.reg_end = m["reg_end"];
  p.noise_start = m["noise_start"];
  p.noise_decay = m["noise_decay"];
  p.noise_every = m["noise_every"];
  p.clip = m["clip"];
  p.balance = m["balance"];
  p.converge_residual = m["converge_residual"];
  p.discretise_below = m["discretise_below"];
  p.stall_iterations = m["stall_iterations"];
  p.lattice_weight_start = m["lattice_weight_start"];
  p.lattice_weight_end = m["lattice_weight_end"];
  p.lattice_iterations = m["lattice_iterations"];
  p.relax_iterations = m["relax_iterations"];
  p.round_fraction = m["round_fraction"];
  p.round_iterations = m["round_iterations"];
  p.round_factors = m["round_factors"];
  p.round_deferrals = m["round_deferrals"];
  p.round_backtracks = m["round_backtracks"];
  p.round_residual = m["round_residual"];
  p.round_lattice_weight = m["round_lattice_weight"];
  p.polish_iterations = m["polish_iterations"];
  p.polish_ratio = m["polish_ratio"];
  p.repair_max_denominator = m["repair_max_denominator"];
  p.repair_from_fraction = m["repair_from_fraction"];
  p.seed_pool = m["seed_pool"];
  p.seed_probability = m["seed_probability"];
  p.seed_noise = m["seed_noise"];
  p.restart_offset = m["restart_offset"];
  p.restart_stride = m["restart_stride"];
  p.ansatz = m["ansatz"];
  p.ansatz_fixed = m["ansatz_fixed"];
  p.adam_steps = m["adam_steps"];
  p.adam_lr = m["adam_lr"];
  p.adam_slow_from = m["adam_slow_from"];
  p.adam_stall = m["adam_stall"];
  p.gpu_seed_threads = std::stol(m["gpu_seed_threads"].get<std::string>());
  p.ansatz_pull = m["ansatz_pull"];
  p.ansatz_round = m["ansatz_round"];
  p.numerical_residual = m["numerical_residual"];
  return p;
}

}  // namespace tdisc::search::numeric
