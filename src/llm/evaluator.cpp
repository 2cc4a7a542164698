// The evaluator: runs a recipe's engine in-process under a deadline with an inner Reporter, and
// scores the runs from schemes it verified itself (AlphaEvolve's evaluation cascade, minus code).
#include "src/llm/evaluator.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <mutex>

#include "decomposition/native.hpp"
#include "verifier/float_residual.hpp"
#include "verifier/verify.hpp"
#include "decomposition/json_input.hpp"

namespace tdisc::llm {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

json Score::to_json() const {
  return {{"seeds", seeds}, {"successes", successes}, {"best_rank", best_rank == INT_MAX ? json() : json(best_rank)},
          {"mean_rank", json_double(mean_rank)}, {"mean_time", json_double(mean_time)}, {"residual", json_double(residual)},
          {"fitness", json_double(fitness)}, {"note", note}};
}

Score Score::from_json(const json& j) {
  Score s;
  s.seeds = j.value("seeds", 0);
  s.successes = j.value("successes", 0);
  s.best_rank = j.contains("best_rank") && j["best_rank"].is_number() ? j["best_rank"].get<int>() : INT_MAX;
  s.mean_rank = read_json_double(j, "mean_rank", 0.0);
  s.mean_time = read_json_double(j, "mean_time", 0.0);
  s.residual = read_json_double(j, "residual", -1.0);
  s.fitness = read_json_double(j, "fitness", -1e9);
  s.note = j.value("note", "");
  return s;
}

double fitness_of(const Score& s, int target_rank, double budget_seconds) {
  if (s.seeds > 0 && s.successes > 0)
    return 1000 + 500.0 * s.successes / s.seeds - 100.0 * s.mean_time / std::max(budget_seconds, 1e-9);
  if (s.best_rank != INT_MAX) return -10.0 * (s.mean_rank - target_rank);
  return -1e4 - std::min(s.residual < 0 ? 1e3 : s.residual, 1e3);
}

namespace {

// Sees one engine run: verifies offers itself, forwards them, and ends the run at the deadline,
// at the target, or when the outer search stops.
class InnerReporter : public search::ForwardingReporter {
public:
  InnerReporter(search::Reporter& outer, const search::Target& target, double seconds)
      : ForwardingReporter(outer), target_(target), t0_(Clock::now()), seconds_(seconds) {}

  bool offer(const Scheme& s, const std::string& method) override {
    std::lock_guard lock(mutex_);
    if (s.rank() >= run_.best_rank) return verify(s, target_.ring).valid;
    if (!verify(s, target_.ring).valid) return false;
    run_.best_rank = s.rank();
    best_ = s;
    if (s.rank() <= target_.rank && run_.time_to_target < 0) run_.time_to_target = elapsed();
    base().offer(s, method);
    return true;
  }
  void set(const std::string& counter, double value) override {
    if (counter == "residual") {
      std::lock_guard lock(mutex_);
      if (run_.residual < 0 || value < run_.residual) run_.residual = value;
    }
    if (counter == "exact_fraction") {
      std::lock_guard lock(mutex_);
      run_.exact_fraction = std::max(run_.exact_fraction, value);
    }
    if (counter != "rank") base().set(counter, value);
  }
  bool stop_requested() const override {
    if (base().stop_requested() || elapsed() >= seconds_) return true;
    std::lock_guard lock(mutex_);
    return run_.best_rank <= target_.rank;
  }
  int best_rank() const override {
    std::lock_guard lock(mutex_);
    return run_.best_rank;
  }
  bool checkpoint_due() const override { return false; }  // an evaluation restarts rather than resumes
  void checkpoint(const json&) override {}

  SeedRun finish() {
    std::lock_guard lock(mutex_);
    run_.seconds = elapsed();
    return run_;
  }
  std::optional<Scheme> best() const { return best_; }

private:
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - t0_).count(); }
  search::Target target_;
  Clock::time_point t0_;
  double seconds_;
  mutable std::mutex mutex_;
  SeedRun run_;
  std::optional<Scheme> best_;
};

Score score_runs(const std::vector<SeedRun>& runs, const search::Target& target, double budget) {
  Score s;
  s.seeds = static_cast<int>(runs.size());
  double time_sum = 0, rank_sum = 0;
  int verified = 0;
  for (const auto& r : runs) {
    if (r.time_to_target >= 0) ++s.successes;
    time_sum += r.time_to_target >= 0 ? r.time_to_target : budget;
    if (r.best_rank != INT_MAX) {
      ++verified;
      rank_sum += r.best_rank;
      s.best_rank = std::min(s.best_rank, r.best_rank);
    }
    if (r.residual >= 0 && (s.residual < 0 || r.residual < s.residual)) s.residual = r.residual;
  }
  s.mean_time = s.seeds ? time_sum / s.seeds : budget;
  s.mean_rank = verified ? rank_sum / verified : 0;
  s.fitness = fitness_of(s, target.rank, budget);
  char buf[160];
  if (s.successes)
    std::snprintf(buf, sizeof buf, "reached rank %d in %d/%d seeds, mean time %.3f s", target.rank, s.successes, s.seeds, s.mean_time);
  else if (verified)
    std::snprintf(buf, sizeof buf, "no seed reached rank %d; best verified rank %d", target.rank, s.best_rank);
  else
    std::snprintf(buf, sizeof buf, "no progress: nothing verified in %d seeds", s.seeds);
  s.note = buf;
  return s;
}

}  // namespace

namespace {

json seed_run_json(const SeedRun& r) {
  return {{"seed", r.seed}, {"best_rank", r.best_rank == INT_MAX ? json() : json(r.best_rank)},
          {"time_to_target", json_double(r.time_to_target)}, {"residual", json_double(r.residual)}, {"seconds", json_double(r.seconds)}};
}

SeedRun seed_run_from_json(const json& j) {
  SeedRun r;
  r.seed = j.at("seed").get<unsigned long long>();
  r.best_rank = j.at("best_rank").is_null() ? INT_MAX : j.at("best_rank").get<int>();
  r.time_to_target = read_json_double(j, "time_to_target", -1.0);
  r.residual = read_json_double(j, "residual", -1.0);
  r.seconds = read_json_double(j, "seconds", 0.0);
  return r;
}

// The seeds of a recipe as jobs for the other MPI ranks, all at once; scored as if run here.
Evaluation evaluate_elsewhere(const Recipe& recipe, const EvalContext& ctx, search::Ranks& ranks) {
  double budget = recipe.budget_seconds;
  if (ctx.seconds_left > 0) budget = std::min(budget, ctx.seconds_left);
  std::vector<json> jobs;
  for (int i = 0; i < recipe.seeds; ++i)
    jobs.push_back({{"engine", recipe.engine}, {"params", recipe.params}, {"budget_seconds", budget},
                    {"target", {{"size", ctx.target.format.str()}, {"rank", ctx.target.rank}, {"ring", std::string(ring_name(ctx.target.ring))}}},
                    {"threads", ctx.threads}, {"seed", ctx.seed + static_cast<unsigned long long>(i)},
                    {"start", ctx.start ? json(native_text(*ctx.start)) : json()}});
  Evaluation ev;
  for (const json& result : ranks.run_jobs("llm_seed", jobs)) {
    if (result.contains("failure") && !result.contains("run")) {
      ev.failure = result.at("failure").get<std::string>();
      continue;
    }
    ev.runs.push_back(seed_run_from_json(result.at("run")));
    if (!result.at("best").is_null()) {
      Scheme b = parse_native(result.at("best").get<std::string>(), "llm_seed result");
      if (verify(b, ctx.target.ring).valid && (!ev.best || b.rank() < ev.best->rank())) ev.best = std::move(b);
    }
    if (result.contains("failure")) ev.failure = result.at("failure").get<std::string>();
  }
  ev.score = score_runs(ev.runs, ctx.target, recipe.budget_seconds);
  if (!ev.failure.empty()) ev.score.note += "; " + ev.failure;
  return ev;
}

}  // namespace

json run_seed_job(const json& job, search::Reporter& reporter) {
  Recipe recipe;
  recipe.engine = job.at("engine").get<std::string>();
  recipe.params = job.at("params");
  recipe.budget_seconds = job.at("budget_seconds").get<double>();
  recipe.seeds = 1;
  const json& t = job.at("target");
  EvalContext ctx;
  ctx.target = {*parse_format(t.at("size").get<std::string>()), t.at("rank").get<int>(), *parse_ring(t.at("ring").get<std::string>())};
  ctx.threads = job.at("threads").get<int>();
  ctx.seed = job.at("seed").get<unsigned long long>();
  if (!job.at("start").is_null()) ctx.start = parse_native(job.at("start").get<std::string>(), "llm_seed job");
  Evaluation ev = evaluate_recipe(recipe, ctx, reporter);
  json out = {{"best", ev.best ? json(native_text(*ev.best)) : json()}};
  if (!ev.runs.empty()) out["run"] = seed_run_json(ev.runs.front());
  if (!ev.failure.empty()) out["failure"] = ev.failure;
  return out;
}

Evaluation evaluate_recipe(const Recipe& recipe, const EvalContext& ctx, search::Reporter& outer) {
  if (search::Ranks* ranks = outer.ranks(); ranks && ranks->helpers() > 0) return evaluate_elsewhere(recipe, ctx, *ranks);
  Evaluation ev;
  auto engine = search::make_engine(recipe.engine);
  if (!engine) {
    ev.failure = "engine \"" + recipe.engine + "\" is not available in this build";
    ev.score.note = ev.failure;
    return ev;
  }
  for (int i = 0; i < recipe.seeds && !outer.stop_requested(); ++i) {
    double budget = recipe.budget_seconds;
    if (ctx.seconds_left > 0) budget = std::min(budget, std::max(0.0, ctx.seconds_left - i * recipe.budget_seconds));
    if (budget <= 0) break;
    search::EngineConfig cfg;
    cfg.target = ctx.target;
    cfg.threads = ctx.threads;
    cfg.seed = ctx.seed + static_cast<unsigned long long>(i);
    cfg.seconds = budget;
    cfg.start = ctx.start;
    cfg.params = recipe.params;
    InnerReporter inner(outer, ctx.target, budget);
    try {
      engine->run(cfg, inner);
    } catch (const std::exception& e) {
      ev.failure = "engine " + recipe.engine + " failed: " + e.what();  // its verified offers still count
    }
    SeedRun run = inner.finish();
    run.seed = cfg.seed;
    ev.runs.push_back(run);
    if (auto b = inner.best(); b && (!ev.best || b->rank() < ev.best->rank())) ev.best = b;
  }
  ev.score = score_runs(ev.runs, ctx.target, recipe.budget_seconds);
  if (!ev.failure.empty()) ev.score.note += "; " + ev.failure;
  return ev;
}

Evaluation evaluate_scheme(const Scheme& proposed, const EvalContext& ctx, search::Reporter& outer, double repair_seconds) {
  Evaluation ev;
  Scheme s = proposed;
  drop_zero_terms(s);
  s.provenance.method = "llm-scheme";
  s.provenance.seed = ctx.seed;
  Verdict v = verify(s, ctx.target.ring);
  SeedRun run;
  run.seed = ctx.seed;
  run.residual = v.valid ? 0.0 : brent_residual(s);  // verifier/float_residual: ‖E‖_F, as the engines report
  if (v.valid) {
    run.best_rank = s.rank();
    if (s.rank() <= ctx.target.rank) run.time_to_target = 0;
    outer.offer(s, "llm-scheme");
    ev.best = s;
  }
  ev.runs.push_back(run);
  ev.score = score_runs(ev.runs, ctx.target, 1.0);
  ev.score.residual = run.residual;
  ev.score.fitness = fitness_of(ev.score, ctx.target.rank, 1.0);
  long failing = v.failure ? v.failure->failing_equations : 0;
  if (v.failure)
    ev.failing_equations = std::to_string(failing) + " of " + std::to_string(v.equations) +
                           " Brent equations fail, first: " + v.failure->describe();
  ev.score.note = v.valid ? "valid over " + std::string(ring_name(ctx.target.ring)) + " at rank " + std::to_string(s.rank())
                          : "invalid: " + std::to_string(failing) + " of " + std::to_string(v.equations) +
                                " Brent equations fail, residual " + std::to_string(run.residual);
  // A near-miss (at most a tenth of the equations wrong, at the target rank) is a good start for
  // the numeric engine, which optimises from it and repairs exactly.
  bool near_miss = !v.valid && failing > 0 && failing * 10 <= v.equations && s.rank() == ctx.target.rank;
  if (near_miss && repair_seconds > 0 && search::make_engine("numeric")) {
    EvalContext repair = ctx;
    repair.start = s;
    Recipe r = default_recipe("numeric", repair_seconds);
    Evaluation fixed = evaluate_recipe(r, repair, outer);
    ev.score.note += "; handed to numeric repair: " + fixed.score.note;
    if (fixed.best && fixed.score.fitness > ev.score.fitness) {
      ev.best = fixed.best;
      ev.score.best_rank = fixed.score.best_rank;
      ev.score.mean_rank = fixed.score.mean_rank;
      ev.score.successes = fixed.score.successes;
      ev.score.fitness = fixed.score.fitness;
    }
  }
  return ev;
}

}  // namespace tdisc::llm
