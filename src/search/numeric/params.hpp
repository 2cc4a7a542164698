// The numeric engine's parameters: one table drives the defaults, the validation messages and the
// parsed struct, so a recipe (LLM proposer) and the CLI see the same knobs.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "base/params/bind.hpp"
#include "base/params/table.hpp"
#include "src/search/engine.hpp"
#include "src/search/numeric/lattice.hpp"
#include "src/search/numeric/recipe_terms.hpp"

namespace tdisc::search::numeric {

enum class Method { Als, Lm, Auto };
// Real or complex factors; Auto: by the lattice (resolve).
enum class FieldChoice { Auto, Real, Complex };
// Where the continuous phases run: CPU threads, or a batch of restarts on one CUDA device.
enum class Device { Cpu, Cuda };

struct Params {
  Device device = Device::Cpu;
  int gpu = 0;                    // CUDA device index (an MPI rank passes its local GPU)
  bool gpu_handover_rounded = true;  // parked near-misses handed over by rounded residual (else slot order)
  long gpu_pool_limit = 0;        // parked near-misses at which finished slots wait (0: never)
  bool gpu_wind_down = true;      // no restart starts that would likely be cut off by the deadline
  long gpu_batch = 0;             // restarts resident on the GPU at once (0: from occupancy)
  long snap_iterations = 600;     // batch: sweeps of the snap phase (0: off)
  double snap_tolerance_start = 0.02;  // batch: its tolerance at the start
  double snap_repair_below = 2;   // batch near-misses: exact repair first at or below this snapped residual
  Method method = Method::Auto;        // Auto: ALS (resolve)
  Method round_method = Method::Auto;  // Auto: LM once few enough entries are free
  FieldChoice field = FieldChoice::Auto;
  bool complex = false;                // derived from field (resolve)
  std::optional<Lattice> lattice_choice;  // the lattice asked for; nullopt: "auto" (auto_lattice)
  Lattice lattice = Lattice::Half;        // the lattice used (resolve)
  double init_scale = 0.3;
  long restarts = 0;              // 0: until the budget is spent
  double restart_seconds = 0;     // 0: no per-restart limit (then runs are reproducible)
  long als_iterations = 0, lm_iterations = 300;  // als_iterations 0: by size (resolve)
  double reg_start = 1e-2, reg_end = 1e-6;
  double noise_start = 0.02, noise_decay = 0.85;
  long noise_every = 25;
  double clip = 2.0;
  bool balance = true;
  double converge_residual = 1e-9, discretise_below = 1e-4;
  long stall_iterations = 500;
  double lattice_weight_start = 1e-4, lattice_weight_end = 0.3;
  long lattice_iterations = 600, relax_iterations = 500;
  double round_fraction = 0.08;
  long round_iterations = 200, round_backtracks = 3;  // ALS sweeps per batch (LM: a twentieth)
  long round_deferrals = 4;  // entries left to the repair when both lattice neighbours fail
  int round_factors = 2;  // 2: round U, V and solve W exactly; 3: round all three
  double round_residual = 1e-3, round_lattice_weight = 1e-5;
  long polish_iterations = 200;  // near-miss test: unregularised sweeps on a copy (0: off)
  double polish_ratio = 0.1;      // it converges when the residual falls at least this much
  long repair_max_denominator = 8;
  double repair_from_fraction = 0.5;
  long seed_pool = 8;
  long restart_offset = 0;        // the first restart index of this process (MPI rank k: k)
  long restart_stride = 1;        // distance between its restart indices (MPI: the number of ranks)
  double seed_probability = 0.2, seed_noise = 0.05;
  // Symmetric ansatz (seed_space.hpp): empty for none, "z3", "z3xz4" or a tdisc-ansatz file.
  std::string ansatz;
  long ansatz_fixed = -1;          // shift-fixed orbits per phase (-1: the built-in's default)
  long adam_steps = 8000;          // Adam steps in seed space
  double adam_lr = 0.01;           // its step size (a tenth of it from adam_slow_from on)
  double adam_slow_from = 0.75;    // share of adam_steps after which the step size is cut tenfold
  long adam_stall = 10000;         // steps without a 1 % gain before the restart gives up
  long gpu_seed_threads = 512;     // GPU: threads per seed-space restart (a power of two)
  double ansatz_pull = 0;          // final weight of the seed-space lattice pull (0: none)
  bool ansatz_round = true;        // round and repair exactly after the seed phase
  double numerical_residual = 1e-8;
  RecipeTerms recipe;              // ansatz Adam: AlphaEvolve's recipe terms and culling (all off by default)
  bool keep_going = false;         // count every exact find until --time/--restarts (rates)  // a seed-space point below this is a numerical solution
};

const params::Table& numeric_table();  // every parameter: default, range, help
// Every parameter with its default ("auto" for method, field and lattice: chosen from the target).
nlohmann::json default_params_json();
// One message per problem: unknown key, wrong type, out of range, unknown choice.
std::vector<std::string> validate(const nlohmann::json& params);
// params through the table's binders; validate is its one check (UsageError "WHERE: params.KEY: …; …").
// "auto" stays unresolved until derive_for_target.
params::Bound<Params> bind_numeric_params(const nlohmann::json& params, const std::string& where = "");
// The rules for the target, on a bound copy ("derived: RULE"), as resolve_params below.
void derive_for_target(params::Bound<Params>& b, const Target& target);
// Defaults overlaid with params (which must validate), "auto" resolved for the target:
// complex factors and ½·Z[i] for QI, ternary lattice for ZT; ALS for the continuous phase and LM
// for the re-fits of rounding once few enough real parameters are free (real or complex factors).
// Each value with its origin: given, default, or derived (auto lattice, field by lattice, method, size).
params::Bound<Params> resolve_params(const nlohmann::json& params, const Target& target);
Params resolve(const nlohmann::json& params, const Target& target);
// The lattice "auto" picks: ½·Z[i] for QI, {0,±1} for ZT and modular rings, Z for Z; for Q, {0,±1}
// when the target rank is at or above the best known integer rank of the format, else ½·Z.
Lattice auto_lattice(const Target& target);
// "cpu" or "cuda:N" (provenance, events).
std::string device_name(const Params& p);

}  // namespace tdisc::search::numeric
