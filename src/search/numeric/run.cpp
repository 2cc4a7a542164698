// Restart bookkeeping shared by the CPU workers and the GPU batch driver (see run.hpp).
#include "src/search/numeric/run.hpp"

#include <algorithm>
#include <cmath>

#include "base/error.hpp"
#include "decomposition/native.hpp"
#include "verifier/float_residual.hpp"
#include "verifier/verify.hpp"
#include "src/search/events.hpp"

namespace tdisc::search::numeric {

namespace {

std::optional<Seed> seed_from_scheme(const Scheme& s) {
  FloatFactors x = float_factors(s);  // I_q × R, column r = term r
  Seed seed;
  seed.x.f = {std::move(x.a), std::move(x.b), std::move(x.c)};
  return seed;
}

}  // namespace

Run::Run(const EngineConfig& c, Reporter& r, Params p)
    : cfg(c), rep(r), params(std::move(p)), tensor(matmul_tensor(c.target.format)),
      pool(static_cast<size_t>(params.seed_pool)), started(Clock::now()) {
  deadline = cfg.seconds > 0 ? started + std::chrono::duration_cast<Clock::duration>(
                                            std::chrono::duration<double>(cfg.seconds))
                             : Clock::time_point::max();
  next = params.restart_offset;  // MPI rank k of N: restarts k, k+N, … (mpi/rank_config.cpp)
  if (!params.ansatz.empty())
    ansatz = load_seed_space(params.ansatz, cfg.target.format, cfg.target.rank, static_cast<int>(params.ansatz_fixed));
  if (cfg.resume) restore(*cfg.resume);
  first = next.load();
  if (cfg.start && cfg.start->rank() == cfg.target.rank && cfg.start->format == cfg.target.format)
    start = seed_from_scheme(*cfg.start);
}

bool Run::stopping() const {
  // keep_going (rate measurements): a reached target does not stop the run, only --time and --restarts
  // (and a stop request that comes before the target is reached).
  const bool reached = rep.best_rank() <= cfg.target.rank;
  if (params.keep_going) return done.load() || Clock::now() >= deadline || (rep.stop_requested() && !reached);
  return done.load() || rep.stop_requested() || Clock::now() >= deadline || reached;
}

double Run::seconds_left() const {
  if (cfg.seconds <= 0) return INFINITY;
  return std::chrono::duration<double>(deadline - Clock::now()).count();
}

void Run::worker() {
  while (!stopping()) {
    long idx = claim();
    if (idx < 0) return;
    RestartOutcome out = run_restart(input(idx));
    record(idx, out);
    release(idx);
    maybe_checkpoint();
  }
}

void Run::finish() {
  std::lock_guard lock(checkpoint_mutex);
  rep.checkpoint(state());
}

void Run::announce(const nlohmann::json& extra) {
  nlohmann::json e = {{"event", events::kNumericStart},
                      {"method", params.method == Method::Lm ? "lm" : "als"},
                      {"field", params.complex ? "complex" : "real"},
                      {"lattice", lattice_name(params.lattice)},
                      {"first_restart", first},
                      {"restart_stride", params.restart_stride},
                      {"device_index", params.gpu},
                      {"threads", cfg.threads},
                      {"seed", cfg.seed}};
  if (ansatz)
    e["ansatz"] = {{"name", ansatz->name}, {"source", ansatz->source}, {"group_order", ansatz->group_order},
                   {"parameters", ansatz->parameters}, {"orbits", ansatz->orbit_sizes}, {"optimiser", "adam"}};
  e.update(extra);
  rep.event(e);
}

long Run::claim() {
  std::lock_guard lock(flight_mutex);
  long idx = next.load();
  if (params.restarts > 0 && idx >= params.restarts) return -1;
  next = idx + params.restart_stride;
  in_flight.insert(idx);
  return idx;
}

void Run::release(long idx) {
  std::lock_guard lock(flight_mutex);
  in_flight.erase(idx);
}

RestartInput Run::input(long idx) {
  RestartInput in{.tensor = tensor, .params = params, .target = cfg.target, .seed = restart_seed(cfg.seed, static_cast<unsigned long long>(idx))};
  in.stop = [this] { return stopping(); };
  in.deadline = deadline;
  in.ansatz = ansatz.get();
  if (params.restart_seconds > 0)
    in.deadline = std::min(deadline, Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                        std::chrono::duration<double>(params.restart_seconds)));
  // A separate stream decides where to start, so the restart's own stream is unaffected.
  std::mt19937_64 pick(in.seed ^ 0x5eed5eed5eed5eedULL);
  if (ansatz) return in;  // seed-space restarts start at random: pooled factors need not be invariant
  if (idx == first && start) in.from = start;
  else if (std::uniform_real_distribution<double>(0, 1)(pick) < params.seed_probability)
    in.from = pool.draw(pick);
  return in;
}

double Run::best_residual_so_far() {
  std::lock_guard lock(stats_mutex);
  return best_residual;
}

void Run::record(long idx, RestartOutcome& out) {
  rep.add("restarts", 1);
  rep.add("steps", static_cast<double>(out.steps));
  {
    std::lock_guard lock(stats_mutex);
    if (out.stage != "stopped") best_residual = std::min(best_residual, out.residual);
    best_fraction = std::max(best_fraction, out.exact_fraction);
    rep.set("residual", best_residual);
    rep.set("exact_fraction", best_fraction);
  }
  if (out.near_miss) pool.offer(*out.near_miss);
  if (out.stage == "culled") rep.add("culled", 1);
  if (out.stage != "stalled" && out.stage != "stopped" && out.stage != "culled") {
    nlohmann::json e = {{"event", events::kNumericRestart}, {"restart", idx}, {"stage", out.stage},
                        {"residual", out.residual}, {"exact_fraction", out.exact_fraction},
                        {"steps", out.steps}, {"how", out.how}};
    if (out.rounded_residual >= 0) e["rounded_residual"] = out.rounded_residual;
    if (out.polish_ratio >= 0) e["polish_ratio"] = out.polish_ratio, e["largest_entry"] = out.largest_entry;
    rep.event(e);
  }
  if (!out.numerical.empty()) record_numerical(idx, out);
  if (out.scheme) offer(idx, std::move(*out.scheme), out.how);
}

// A numerical solution inside the ansatz: counted and logged with its seeds (events.jsonl), so it
// can be refined or proved later; it is never offered as a scheme.
void Run::record_numerical(long idx, const RestartOutcome& out) {
  rep.add("numerical", 1);
  nlohmann::json theta = nlohmann::json::array();
  for (const cdouble& z : out.numerical) theta.push_back({z.real(), z.imag()});
  rep.event({{"event", events::kNumericalSolution}, {"restart", idx}, {"residual", out.residual},
             {"ansatz", ansatz ? ansatz->name : ""}, {"exact", false}, {"theta", std::move(theta)}});
}

// Verified again here, then by the orchestrator: the engine never offers an unproved scheme.
void Run::offer(long idx, Scheme s, const std::string& how) {
  drop_zero_terms(s);
  if (!verify(s, cfg.target.ring).valid) return;
  s.ring = cfg.target.ring;
  s.provenance.method = "numeric";
  s.provenance.seed = cfg.seed;
  s.provenance.created = utc_now();
  s.provenance.extra["restart"] = std::to_string(idx);
  s.provenance.extra["lattice"] = lattice_name(params.lattice);
  s.provenance.extra["optimiser"] = ansatz ? "adam in seed space" : params.method == Method::Lm ? "lm" : "als";
  s.provenance.extra["repair"] = how;
  s.provenance.extra["device"] = device_name(params);
  if (ansatz) s.provenance.extra["ansatz"] = ansatz->name + " (group of order " + std::to_string(ansatz->group_order) +
                                             "; " + ansatz->source + ")";
  s.provenance.extra["params"] = cfg.params.dump();  // the recipe as given; the rest are the defaults of this tool version
  if (params.keep_going) return keep_counting(s);
  if (rep.offer(s, "numeric") && s.rank() <= cfg.target.rank) done = true;
}

// keep_going: every exact find is counted and logged by its hash; the first is also offered (filed).
// A sha256 seen for the first time also carries the scheme's native text, so that every distinct find
// of a rate measurement can be studied afterwards (equivalence classes, tdisc symmetry --to).
void Run::keep_counting(const Scheme& s) {
  const std::string sha = scheme_sha256(s);
  std::lock_guard lock(stats_mutex);
  const bool first = seen_exact.insert(sha).second;
  rep.add("exact", 1);
  if (first) rep.add("exact_distinct", 1);
  nlohmann::json e{{"event", events::kExactFound}, {"sha256", sha}, {"rank", s.rank()}, {"restart", s.provenance.extra.at("restart")}};
  if (first) e["native"] = native_text(s);
  rep.event(e);
  if (!offered_one) offered_one = rep.offer(s, "numeric");
}

void Run::maybe_checkpoint() {
  std::unique_lock lock(checkpoint_mutex, std::try_to_lock);
  if (lock.owns_lock() && rep.checkpoint_due()) rep.checkpoint(state());
}

nlohmann::json Run::state() {
  long resume_from;
  {
    std::lock_guard lock(flight_mutex);
    resume_from = in_flight.empty() ? next.load() : *in_flight.begin();
  }
  std::lock_guard lock(stats_mutex);
  return {{"engine", "numeric"}, {"version", 1}, {"next_restart", resume_from},
          {"best_residual", std::isfinite(best_residual) ? best_residual : -1.0},
          {"best_exact_fraction", best_fraction}, {"seeds", pool.to_json()}};
}

void Run::restore(const nlohmann::json& s) {
  if (s.value("engine", "") != "numeric") throw InputError("checkpoint: not a numeric-engine state");
  next = s.at("next_restart").get<long>();
  double r = s.value("best_residual", -1.0);
  best_residual = r >= 0 ? r : INFINITY;
  best_fraction = s.value("best_exact_fraction", 0.0);
  if (s.contains("seeds")) pool.from_json(s["seeds"]);
}

}  // namespace tdisc::search::numeric
