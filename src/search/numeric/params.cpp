// The parameter table of the numeric engine and its validation. Defaults follow the schedules in
// the literature (small init, decaying regularisation and noise, ramped lattice weight).
#include "src/search/numeric/params.hpp"

#include <algorithm>
#include <cmath>

#include "base/error.hpp"
#include "src/search/known_ranks.hpp"
#include "src/search/numeric/lm.hpp"

namespace tdisc::search::numeric {

namespace {

const params::Names<Method>& method_names() {
  static const params::Names<Method> n = {{"auto", Method::Auto}, {"als", Method::Als}, {"lm", Method::Lm}};
  return n;
}

const params::Names<std::optional<Lattice>>& lattice_choices() {
  static const params::Names<std::optional<Lattice>> n = {{"auto", std::nullopt},
                                                          {"ternary", Lattice::Ternary},
                                                          {"integer", Lattice::Integer},
                                                          {"half", Lattice::Half},
                                                          {"half-gaussian", Lattice::HalfGaussian}};
  return n;
}

}  // namespace

const params::Table& numeric_table() {
  using namespace params;
  static const Table t{
      "numeric", "", "Alternating least squares / Levenberg–Marquardt on real or complex factors, a lattice\n"
      "discretisation schedule and an exact repair over Q (AlphaEvolve-style numerical search).",
      {choice("device", field(&Params::device), params::Names<Device>{{"cpu", Device::Cpu}, {"cuda", Device::Cuda}}, "where restarts run: CPU threads, or a batch on a CUDA device (--device)"),
       integer("gpu", field(&Params::gpu), 0, 1023, "CUDA device index (--device cuda:N; an MPI rank passes its local GPU)"),
       integer("gpu_batch", field(&Params::gpu_batch), 0, 1e7, "restarts resident on the GPU at once (0: twice what the device holds)"),
       integer("gpu_pool_limit", field(&Params::gpu_pool_limit), 0, 1e9,
               "GPU: near-misses that may wait on the host for a rounding thread; at the limit, finished slots stay idle until the pool shrinks (0: no limit, the device never waits)"),
       boolean("gpu_wind_down", field(&Params::gpu_wind_down),
               "GPU: near the deadline a finished slot stays idle when a restart started now would likely be cut off (less time left than 90 % of the completed restarts took)"),
       choice("gpu_handover", field(&Params::gpu_handover_rounded), params::Names<bool>{{"rounded", true}, {"slot", false}},
              "order in which parked GPU near-misses reach the rounding threads: smallest residual after snapping to the lattice first, or slot order"),
       integer("snap_iterations", field(&Params::snap_iterations), 0, 1e8,
               "GPU: sweeps of the snap phase after relaxation (U, V entries held on the lattice once within a growing tolerance; 0: off), ended early once the snapped residual is 0"),
       number("snap_tolerance_start", field(&Params::snap_tolerance_start), 0, 1, "GPU: the snap phase's tolerance at its start (grows linearly to half the lattice spacing)"),
       number("snap_repair_below", field(&Params::snap_repair_below), 0, 1e6,
              "GPU near-misses: try the exact repair (W solved from snapped U, V) before progressive rounding when the snapped residual is at most this"),
       choice("method", field(&Params::method), method_names(), "continuous phase: ALS sweeps or LM steps (auto: ALS)"),
       choice("round_method", field(&Params::round_method), method_names(), "re-fits while rounding (auto: LM once few enough entries are free)"),
       choice("field", field(&Params::field), params::Names<FieldChoice>{{"auto", FieldChoice::Auto}, {"real", FieldChoice::Real}, {"complex", FieldChoice::Complex}}, "real or complex factors (auto: complex for the half-gaussian lattice)"),
       choice("lattice", field(&Params::lattice_choice), lattice_choices(),
              "lattice the coefficients are rounded onto (auto: by ring and rank, see auto_lattice)"),
       number("init_scale", field(&Params::init_scale), 1e-6, 10, "standard deviation of the random initial factors"),
       integer("restarts", field(&Params::restarts), 0, 1e12, "restarts (0: until the budget is spent)"),
       number("restart_seconds", field(&Params::restart_seconds), 0, 1e7, "time limit per restart (0: none; then runs are reproducible)"),
       integer("als_iterations", field(&Params::als_iterations), 0, 1e8, "ALS sweeps of the continuous phase (0: by size, max(3000, 5·unknowns))"),
       integer("lm_iterations", field(&Params::lm_iterations), 1, 1e7, "LM steps of the continuous phase"),
       number("reg_start", field(&Params::reg_start), 0, 10, "Tikhonov regularisation at the start (decays geometrically)"),
       number("reg_end", field(&Params::reg_end), 0, 10, "regularisation at the end"),
       number("noise_start", field(&Params::noise_start), 0, 10, "scale of the noise added to escape swamps"),
       number("noise_decay", field(&Params::noise_decay), 0, 1, "factor applied to the noise at each injection"),
       integer("noise_every", field(&Params::noise_every), 1, 1e8, "sweeps between noise injections"),
       number("clip", field(&Params::clip), 0, 1e6, "largest magnitude of a coefficient during the continuous phase"),
       boolean("balance", field(&Params::balance), "rebalance the norms of u, v, w of each term"),
       number("converge_residual", field(&Params::converge_residual), 0, 1e3, "residual at which the continuous phase has converged"),
       number("discretise_below", field(&Params::discretise_below), 0, 1e3, "residual below which discretisation starts"),
       integer("stall_iterations", field(&Params::stall_iterations), 1, 1e8, "sweeps without progress before a restart"),
       number("lattice_weight_start", field(&Params::lattice_weight_start), 0, 1e6, "weight of the pull towards the lattice at the start"),
       number("lattice_weight_end", field(&Params::lattice_weight_end), 0, 1e6, "weight of that pull at the end"),
       integer("lattice_iterations", field(&Params::lattice_iterations), 0, 1e8, "sweeps of the lattice-pull phase"),
       integer("relax_iterations", field(&Params::relax_iterations), 0, 1e8, "sweeps of relaxation after the pull"),
       number("round_fraction", field(&Params::round_fraction), 1e-6, 1, "share of the free entries rounded per batch"),
       integer("round_factors", field(&Params::round_factors), 2, 3, "2: round U, V and solve W exactly; 3: round all three"),
       integer("round_deferrals", field(&Params::round_deferrals), 0, 1000, "entries left to the repair when both lattice neighbours fail"),
       integer("round_iterations", field(&Params::round_iterations), 0, 1e7, "ALS sweeps per rounding batch (LM: a twentieth)"),
       integer("round_backtracks", field(&Params::round_backtracks), 0, 100, "backtracks of a rounding batch that raised the residual"),
       number("round_residual", field(&Params::round_residual), 0, 1e3, "largest residual a rounding batch may leave"),
       number("round_lattice_weight", field(&Params::round_lattice_weight), 0, 1e6, "lattice weight during the rounding re-fits"),
       integer("polish_iterations", field(&Params::polish_iterations), 0, 1e7,
               "near-miss test before discretisation: unregularised, unclipped ALS sweeps on a copy; a near-miss with an entry beyond the clip whose residual does not fall to polish_ratio of its value (a border-rank approximation) ends as stage 'degenerate', is not rounded and is not kept as a seed (0: off)"),
       number("polish_ratio", field(&Params::polish_ratio), 0, 1e6, "the residual a converging near-miss reaches after the polish sweeps, as a share of its value"),
       integer("repair_max_denominator", field(&Params::repair_max_denominator), 0, 64, "largest denominator the exact repair may introduce"),
       number("repair_from_fraction", field(&Params::repair_from_fraction), 0, 1, "share of entries rounded before the exact repair is tried"),
       integer("seed_pool", field(&Params::seed_pool), 0, 1000, "near-miss schemes kept as seeds for later restarts"),
       number("seed_probability", field(&Params::seed_probability), 0, 1, "chance that a restart starts from a pooled seed"),
       number("seed_noise", field(&Params::seed_noise), 0, 10, "noise added to a pooled seed"),
       text("ansatz", field(&Params::ansatz),
            "symmetric ansatz: the search runs in seed space, every iterate invariant under a group: z3 (cyclic shift), z3xz4 (Kaporin's shift × diag(1,i,-1,-i)), or a tdisc-ansatz file from tdisc symmetry (empty: none)"),
       integer("ansatz_fixed", field(&Params::ansatz_fixed), -1, 1e6, "ansatz z3/z3xz4: orbits fixed by the shift per phase (-1: R/phases mod 3, or 3 when that is 0)"),
       integer("adam_steps", field(&Params::adam_steps), 1, 1e9, "ansatz: Adam steps in seed space"),
       number("adam_lr", field(&Params::adam_lr), 1e-9, 10, "ansatz: Adam's step size (cut tenfold from adam_slow_from on)"),
       number("adam_slow_from", field(&Params::adam_slow_from), 0, 1, "ansatz: share of adam_steps after which the step size is a tenth"),
       integer("adam_stall", field(&Params::adam_stall), 50, 1e9,
               "ansatz: Adam steps without a 1 % gain before the restart gives up (z3xz4 on an H200, 2026-11-26: a stall of 2000 kept 3 of 20 numerical 4x4:48s and saved 7 % of the time)"),
       choice("gpu_seed_threads", field(&Params::gpu_seed_threads), params::Names<long>{{"64", 64}, {"128", 128}, {"256", 256}, {"512", 512}, {"1024", 1024}}, "GPU: threads per seed-space restart (one block each)"),
       number("ansatz_pull", field(&Params::ansatz_pull), 0, 1e6,
              "ansatz: final weight of the lattice pull in seed space after convergence (0: none; then lattice_iterations + relax_iterations Adam steps)"),
       boolean("ansatz_round", field(&Params::ansatz_round), "ansatz: round onto the lattice and repair exactly after the seed phase (false: numerical solutions only)"),
       number("numerical_residual", field(&Params::numerical_residual), 0, 1,
              "ansatz: residual below which a seed-space point is reported as a numerical solution (event numerical_solution; never a scheme)"),
       // AlphaEvolve's recipe terms (recipe_terms.hpp), on the seed-space Adam of an ansatz, CPU and GPU alike.
       number("grad_noise", field(&Params::recipe, &RecipeTerms::grad_noise), 0, 10,
              "ansatz Adam: std of Gaussian noise added to every gradient component each step (0: none)"),
       number("param_noise", field(&Params::recipe, &RecipeTerms::param_noise), 0, 10,
              "ansatz Adam: std of Gaussian noise added to θ after each step, decaying linearly to 0 over adam_steps (0: none)"),
       number("target_noise", field(&Params::recipe, &RecipeTerms::target_noise), 0, 10,
              "ansatz Adam: std of Gaussian noise on every entry of T inside the loss, redrawn each step (0: none; a dense pass, several times the cost of a step)"),
       number("hallucinate", field(&Params::recipe, &RecipeTerms::hallucinate), 0, 1,
              "ansatz Adam: chance that an expanded factor entry is replaced by N(0, hallucinate_scale²) in the loss's forward pass (its gradient is then 0)"),
       number("hallucinate_scale", field(&Params::recipe, &RecipeTerms::hallucinate_scale), 0, 10, "ansatz Adam: std of a hallucinated entry"),
       integer("soft_clip_period", field(&Params::recipe, &RecipeTerms::soft_clip_period), 0, 1e9,
               "ansatz Adam: period in steps of the soft clip's threshold, which swings from soft_clip_max to soft_clip_min and back (0: no clip)"),
       number("soft_clip_min", field(&Params::recipe, &RecipeTerms::soft_clip_min), 0, 100, "ansatz Adam: the soft clip's lowest threshold per real part of θ"),
       number("soft_clip_max", field(&Params::recipe, &RecipeTerms::soft_clip_max), 0, 100, "ansatz Adam: its highest threshold"),
       number("soft_clip_slope", field(&Params::recipe, &RecipeTerms::soft_clip_slope), 0, 1, "ansatz Adam: share of the excess beyond the threshold that the clip keeps"),
       number("discrete_weight", field(&Params::recipe, &RecipeTerms::discrete_weight), 0, 1e3,
              "ansatz Adam: final weight of AlphaEvolve's discretisation loss (distance to ½Z and to Z, the minimum over Re and Im), ramped linearly from 0 and cosine-annealed (0: none)"),
       number("discrete_floor", field(&Params::recipe, &RecipeTerms::discrete_floor), 0, 1, "ansatz Adam: the floor of the discretisation's annealing factor"),
       integer("discrete_cycles", field(&Params::recipe, &RecipeTerms::discrete_cycles), 1, 1e6, "ansatz Adam: annealing cycles of the discretisation weight over adam_steps"),
       number("large_weight", field(&Params::recipe, &RecipeTerms::large_weight), 0, 1e3,
              "ansatz Adam: weight of the large-value penalty Σ max(0, |part| − large_above)² over the expanded entries (0: none)"),
       number("large_above", field(&Params::recipe, &RecipeTerms::large_above), 0, 1e3, "ansatz Adam: the part size above which the penalty applies"),
       number("cull_at", field(&Params::recipe, &RecipeTerms::cull_at), 0, 1,
              "ansatz Adam: share of adam_steps after which a restart is culled (stage culled, its slot refilled) when its residual is above cull_residual"),
       number("cull_residual", field(&Params::recipe, &RecipeTerms::cull_residual), 0, 1e6,
              "ansatz Adam: the residual above which a restart is culled at cull_at (0: never)"),
       boolean("keep_going", field(&Params::keep_going),
               "rate measurements: every exact find is verified, counted (counter exact) and logged (event exact_found, by sha256, with the scheme's native text the first time a sha256 is seen; counter exact_distinct); only the first is filed, and reaching the target does not end the run (--time or restarts does; a stop request is then honoured only before the target is reached)"),
       // Set per rank by MPI runs (src/search/mpi/rank_config.cpp): N ranks run the single-process
       // sequence of restarts between them, each on the GPU of its host that matches its local rank.
       integer("restart_offset", field(&Params::restart_offset), 0, 1e12, "first restart index of this process (MPI: its rank)"),
       integer("restart_stride", field(&Params::restart_stride), 1, 1e6, "distance between this process's restart indices (MPI: the number of ranks)")},
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

// validate, the one check, then the binders.
params::Bound<Params> bind_numeric_params(const nlohmann::json& params, const std::string& where) {
  params::refuse(where, validate(params));
  return params::bind_checked<Params>(numeric_table(), params);
}

params::Bound<Params> resolve_params(const nlohmann::json& params, const Target& target) {
  auto problems = validate(params);
  TDISC_REQUIRE(problems.empty(), problems.empty() ? "" : problems.front());
  params::Bound<Params> b = params::bind_checked<Params>(numeric_table(), params);
  derive_for_target(b, target);
  return b;
}

// "auto" resolved for the target, each choice recorded through the table's binder with its rule.
void derive_for_target(params::Bound<Params>& b, const Target& target) {
  if (!b.value.lattice_choice) b.derive("lattice", lattice_name(auto_lattice(target)), "auto lattice");
  b.value.lattice = *b.value.lattice_choice;
  if (b.value.field == FieldChoice::Auto)
    b.derive("field", lattice_is_complex(b.value.lattice) ? "complex" : "real", "the lattice's field");
  b.value.complex = b.value.field == FieldChoice::Complex;
  // measured: ALS sweeps are cheaper per unit of progress than LM steps here
  if (b.value.method == Method::Auto) b.derive("method", "als", "ALS is cheaper per unit of progress");
  // 0: scale with the number of unknowns (3000 sweeps up to ~600 unknowns, e.g. 3x3:23; about
  // 11500 for 4x4:48, whose swamps are longer).
  const long unknowns = static_cast<long>(target.rank) *
                        (target.format.a_size() + target.format.b_size() + target.format.c_size());
  if (b.value.als_iterations == 0) b.derive("als_iterations", std::max(3000L, 5 * unknowns), "by size, max(3000, 5·unknowns)");
}

Params resolve(const nlohmann::json& params, const Target& target) { return resolve_params(params, target).value; }

}  // namespace tdisc::search::numeric
