// The parameter table of the numeric engine and its validation. Defaults follow the schedules in
// the literature (small init, decaying regularisation and noise, ramped lattice weight).
#include "src/search/numeric/params.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "decomposition/error.hpp"
#include "src/search/known_ranks.hpp"
#include "src/search/numeric/lm.hpp"

namespace tdisc::search::numeric {

namespace {

enum class Kind { Number, Integer, Boolean, Choice };

struct Spec {
  const char* name;
  Kind kind;
  nlohmann::json fallback;
  double lo = 0, hi = 0;  // inclusive range for numbers and integers
  std::vector<std::string> choices = {};
};

constexpr double kInf = std::numeric_limits<double>::infinity();

const std::vector<Spec>& table() {
  static const std::vector<Spec> t = {
      {"method", Kind::Choice, "auto", 0, 0, {"auto", "als", "lm"}},
      {"round_method", Kind::Choice, "auto", 0, 0, {"auto", "als", "lm"}},
      {"field", Kind::Choice, "auto", 0, 0, {"auto", "real", "complex"}},
      {"lattice", Kind::Choice, "auto", 0, 0, {"auto", "ternary", "integer", "half", "half-gaussian"}},
      {"init_scale", Kind::Number, 0.3, 1e-6, 10},
      {"restarts", Kind::Integer, 0, 0, 1e12},
      {"restart_seconds", Kind::Number, 0, 0, 1e7},
      {"als_iterations", Kind::Integer, 0, 0, 1e8},
      {"lm_iterations", Kind::Integer, 300, 1, 1e7},
      {"reg_start", Kind::Number, 1e-2, 0, 10},
      {"reg_end", Kind::Number, 1e-6, 0, 10},
      {"noise_start", Kind::Number, 0.02, 0, 10},
      {"noise_decay", Kind::Number, 0.85, 0, 1},
      {"noise_every", Kind::Integer, 25, 1, 1e8},
      {"clip", Kind::Number, 2.0, 0, 1e6},
      {"balance", Kind::Boolean, true},
      {"converge_residual", Kind::Number, 1e-9, 0, 1e3},
      {"discretise_below", Kind::Number, 1e-4, 0, 1e3},
      {"stall_iterations", Kind::Integer, 500, 1, 1e8},
      {"lattice_weight_start", Kind::Number, 1e-4, 0, 1e6},
      {"lattice_weight_end", Kind::Number, 0.3, 0, 1e6},
      {"lattice_iterations", Kind::Integer, 600, 0, 1e8},
      {"relax_iterations", Kind::Integer, 500, 0, 1e8},
      {"round_fraction", Kind::Number, 0.08, 1e-6, 1},
      {"round_factors", Kind::Integer, 2, 2, 3},
      {"round_deferrals", Kind::Integer, 4, 0, 1000},
      {"round_iterations", Kind::Integer, 200, 0, 1e7},
      {"round_backtracks", Kind::Integer, 3, 0, 100},
      {"round_residual", Kind::Number, 1e-3, 0, 1e3},
      {"round_lattice_weight", Kind::Number, 1e-5, 0, 1e6},
      {"repair_max_denominator", Kind::Integer, 8, 0, 64},
      {"repair_from_fraction", Kind::Number, 0.5, 0, 1},
      {"seed_pool", Kind::Integer, 8, 0, 1000},
      {"seed_probability", Kind::Number, 0.2, 0, 1},
      {"seed_noise", Kind::Number, 0.05, 0, 10},
      // Set per rank by MPI runs (src/search/mpi/rank_config.cpp): rank k of N takes restarts k, k+N, …
      // and the k-th GPU of its host, so N ranks run the single-process sequence of restarts between them.
      {"restart_offset", Kind::Integer, 0, 0, 1e12},
      {"restart_stride", Kind::Integer, 1, 1, 1e6},
      {"device_index", Kind::Integer, 0, 0, 1024},
  };
  return t;
}

std::string number_text(double v) {
  nlohmann::json j = v;
  return j.dump();
}

std::string check(const Spec& s, const nlohmann::json& v) {
  const std::string where = std::string("params.") + s.name + ": ";
  switch (s.kind) {
    case Kind::Boolean:
      if (!v.is_boolean()) return where + "expected true or false, got " + v.dump();
      return "";
    case Kind::Choice: {
      if (!v.is_string()) return where + "expected a string, got " + v.dump();
      for (const auto& c : s.choices)
        if (v.get<std::string>() == c) return "";
      std::string list;
      for (const auto& c : s.choices) list += (list.empty() ? "" : ", ") + c;
      return where + "expected one of " + list + ", got " + v.dump();
    }
    case Kind::Integer:
      if (!v.is_number_integer()) return where + "expected an integer, got " + v.dump();
      break;
    case Kind::Number:
      if (!v.is_number()) return where + "expected a number, got " + v.dump();
      if (!std::isfinite(v.get<double>())) return where + "expected a finite number";
      break;
  }
  double x = v.get<double>();
  if (x < s.lo || x > s.hi)
    return where + "must lie in [" + number_text(s.lo) + ", " + number_text(s.hi) + "], got " + v.dump();
  return "";
}

}  // namespace

nlohmann::json default_params_json() {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& s : table()) j[s.name] = s.fallback;
  return j;
}

std::vector<std::string> validate(const nlohmann::json& params) {
  std::vector<std::string> problems;
  if (!params.is_object()) return {"params: expected a JSON object, got " + params.dump()};
  for (const auto& [key, value] : params.items()) {
    const Spec* spec = nullptr;
    for (const auto& s : table())
      if (key == s.name) spec = &s;
    if (!spec) {
      std::string known;
      for (const auto& s : table()) known += (known.empty() ? "" : ", ") + std::string(s.name);
      problems.push_back("params." + key + ": unknown parameter (known: " + known + ")");
      continue;
    }
    if (auto msg = check(*spec, value); !msg.empty()) problems.push_back(msg);
  }
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
  p.repair_max_denominator = m["repair_max_denominator"];
  p.repair_from_fraction = m["repair_from_fraction"];
  p.seed_pool = m["seed_pool"];
  p.seed_probability = m["seed_probability"];
  p.seed_noise = m["seed_noise"];
  p.restart_offset = m["restart_offset"];
  p.restart_stride = m["restart_stride"];
  p.device_index = m["device_index"];
  return p;
}

}  // namespace tdisc::search::numeric
