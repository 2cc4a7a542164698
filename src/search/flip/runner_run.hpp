// The pool run: one walker per thread, restarts of stragglers from the pool's best states,
// improvements offered to the orchestrator (Hensel-lifted first for modular walks), checkpoints.
// Included only by runner_gf2.cpp, runner_zt.cpp and runner_gf3.cpp, which instantiate it for one
// ring each (its three walkers at three widths: the heaviest code of the binary, split so that two
// cores compile it at once).
#pragma once
#include "src/search/flip/runner.hpp"

#include <atomic>
#include <chrono>
#include <charconv>
#include <climits>
#include <map>
#include <mutex>
#include <thread>

#include "base/error.hpp"
#include "generated/tdisc_version.hpp"
#include "src/search/events.hpp"
#include "src/search/flip/convert.hpp"
#include "src/search/flip/lift.hpp"
#include "src/search/flip/pool.hpp"
#include "src/search/flip/symmetric_walker.hpp"
#include "src/search/flip/walk_start.hpp"
#include "src/search/run/checkpoint.hpp"

namespace tdisc::search::flip {

namespace {

std::uint64_t walker_seed(std::uint64_t seed, int id) {
  Rng r(seed);
  for (int k = 0; k < id; ++k) r.next();
  return r.next() ^ (0x5851F42D4C957F2Dull * static_cast<std::uint64_t>(id + 1));
}

template <class F>
struct Snapshot {
  Terms<F> terms;
  std::array<std::uint64_t, 4> rng{};
  long flips = 0;
};

// W: the walker, Walker<F> or SymmetricWalker<F, 1 or 2> (symmetry "z3" or "s3"); all take and give full schemes.
template <class F, class W>
class Run {
public:
  Run(const EngineConfig& c, const FlipParams& p, Reporter& r, LaneGate gate)
      : config_(c), params_(p), reporter_(r), ranks_(r.ranks()), gate_(gate), island_(island_name(p, gate)),
        format_(c.target.format), pool_(p.pool_size, p.level_fill),
        lift_prime_(ring_is_modular(c.target.ring) ? 0 : F::characteristic) {}

  void run() {
    const int n = gate_.portfolio ? std::max(1, gate_.portfolio->walkers()) : std::max(1, config_.threads);
    snapshots_.resize(n);
    initial_states();
    std::vector<std::thread> threads;
    for (int id = 1; id < n; ++id) threads.emplace_back([this, id] { walk(id); });
    walk(0);
    for (auto& t : threads) t.join();
    checkpoint();  // the final state, so that --resume can go on from where this run ended
  }

private:
  void initial_states() {
    if (config_.resume && config_.resume->contains("walkers")) {
      for (const auto& w : config_.resume->at("walkers")) resumed_.push_back(w);
      const nlohmann::json pool = config_.resume->value("pool", nlohmann::json::array());
      for (const auto& t : pool) {
        Rng r(0);
        Terms<F> terms = terms_from_json<F>(format_, t);
        W probe(format_, params_.walk, 0);  // a walker will load it later: refuse now what none can
        load_resumed(probe, terms);
        pool_.offer(terms, r);
      }
      reporter_.event({{"event", events::kWalkersRestored}, {"walkers", resumed_.size()}, {"pool_rank", pool_.rank()}});
    }
    start_ = walk_start<F>(config_, params_);
    if (!config_.resume) {
      // The start is a valid scheme of its own: offer it, so a run always leaves a best file
      // (a modular start is no characteristic-0 scheme: it is not offered for a Z/Q target).
      if (config_.start) {
        if (ring_is_modular(config_.start->ring) == ring_is_modular(config_.target.ring)) reporter_.offer(*config_.start, "start");
      } else {
        using Standard = ZTW<F::kWords>;  // the classical scheme at the walk's factor width
        Scheme s = scheme_from_terms<Standard>(format_, standard_terms<Standard>(format_));
        if (ring_is_modular(config_.target.ring)) s.ring = config_.target.ring;
        stamp(s, "standard");
        reporter_.offer(s, "standard");
      }
    }
  }

  // Terms read from a checkpoint: those a walker cannot take (a symmetric lane's terms that are not
  // invariant) are the checkpoint's fault, not a bug of tdisc.
  static void load_resumed(W& w, const Terms<F>& t) {
    try {
      w.load(t);
    } catch (const ContractError& e) {
      throw BadCheckpointState(std::string("a walker cannot start from its terms (") + e.what() + ")");
    }
  }

  // One of a walker's four random-state words, as the checkpoint writes it (decimal text).
  static std::uint64_t rng_word(const std::string& text) {
    std::uint64_t x = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty())
      throw BadCheckpointState("a walker's random state holds \"" + text.substr(0, 40) + "\", not a 64-bit word");
    return x;
  }

  // A portfolio's walker waits until its lane gives it a thread (false: the search stopped first).
  bool wait_turn(int id) const {
    if (!gate_.portfolio) return true;
    while (!reporter_.stop_requested()) {
      if (gate_.portfolio->may_walk(gate_.lane, id)) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }

  void walk(int id) {
    const bool late = gate_.portfolio && !gate_.portfolio->may_walk(gate_.lane, id);  // a thread that moves here later
    if (!wait_turn(id)) return;
    W w(format_, params_.walk, walker_seed(config_.seed, id));
    if (!resumed_.empty()) {
      const auto& j = resumed_[id % resumed_.size()];
      load_resumed(w, terms_from_json<F>(format_, j.at("terms")));
      if (id < static_cast<int>(resumed_.size()) && j.contains("rng")) {  // no rng: a walker handed over by another rank
        std::array<std::uint64_t, 4> s{};
        for (int k = 0; k < 4; ++k) s[k] = rng_word(j.at("rng").at(k).get<std::string>());
        w.rng().set_state(s);
      }
    } else if (late && pool_.rank() != INT_MAX) {
      w.load(pool_.sample(w.rng()));  // it joins the lane where the lane stands
    } else {
      w.load(start_);
    }
    pool_.offer(w.best(), w.rng());
    long reported = 0, last_lift = 0;
    int last_best = w.best_rank(), seen_pool = pool_.rank(), last_dead = INT_MAX;
    while (!reporter_.stop_requested()) {
      if (gate_.portfolio && !gate_.portfolio->may_walk(gate_.lane, id)) {  // the thread went to another lane
        publish(id, w);
        if (!wait_turn(id)) break;
        w.load(pool_.sample(w.rng()));  // back in: from the lane's best states
        last_best = w.best_rank();
        reporter_.add("restarts", 1);
      }
      for (int b = 0; b < params_.batch; ++b) w.step();
      reporter_.add("flips", static_cast<double>(w.flips() - reported));
      reported = w.flips();
      reporter_.set("rank", w.rank());
      if (w.best_rank() < last_best) {
        last_best = w.best_rank();
        if (gate_.portfolio) gate_.portfolio->improved(gate_.lane, last_best);
        pool_.offer(w.best(), w.rng());
        improved(w.best());
      }
      // a flip-isolated scheme that undo_dead_ends took back is a result, but no restart point
      if (const int d = w.dead_best().rank(); d > 0 && d < last_dead) {
        last_dead = d;
        improved(w.dead_best());
      }
      // Whether a mod-p scheme lifts depends on where in its basin it sits: a walker that stays at
      // its best rank below the run's best characteristic-0 rank tries its current state now and then.
      if (lift_prime_ != 0 && params_.lift_every > 0 && w.rank() == w.best_rank() &&
          w.flips() - last_lift >= params_.lift_every) {
        last_lift = w.flips();
        improved(w.terms());
      }
      restart_if_due(w, last_best, seen_pool);
      publish(id, w);
      if (id == 0 && ranks_ && ranks_->exchange_due(island_)) migrate();
      if (reporter_.checkpoint_due() && checkpoint_mutex_.try_lock()) {
        checkpoint();
        checkpoint_mutex_.unlock();
      }
      if (params_.max_flips > 0 && w.flips() >= params_.max_flips) break;
    }
    publish(id, w);
  }

  void restart_if_due(W& w, int& last_best, int& seen_pool) {
    int pr = pool_.rank();
    bool adopt = pr < w.best_rank() && pr != seen_pool && w.rng().unit() < params_.adopt;
    seen_pool = pr;
    const bool trapped = params_.dead_end_restart > 0 && w.dead_ends_since_best() > params_.dead_end_restart;
    if (adopt || trapped || w.flips_since_best() > params_.restart_after) {
      // a stalled walker goes back to the start now and then: the pool's basin may be a dead end
      if (!adopt && w.rng().unit() < params_.fresh) w.load(start_);
      else w.load(pool_.sample(w.rng()));
      last_best = w.best_rank();
      reporter_.add("restarts", 1);
    }
  }

  // The MPI island this walk exchanges pools on: field and symmetry, and the lane's recipe, so that two
  // lanes of one field and symmetry (the engine's own and a recipe's) keep their pools apart.
  static std::string island_name(const FlipParams& p, const LaneGate& gate) {
    return std::string(F::name) + "/" + symmetry_name(p.symmetry) + (gate.recipe.empty() ? "" : "/" + gate.recipe);
  }

  // Island model across MPI ranks: this walk's pool goes to a neighbour, the neighbours' pools come
  // in; a lower-rank arrival lowers the pool's rank and walkers adopt it as after their own improvement.
  // Walker 0 runs this between its moves, so it does only what changes the pool: an unchanged pool is
  // not sent again, and arrivals above the pool's rank (which it would drop) are not decoded.
  void migrate() {
    nlohmann::json pool = nlohmann::json::array();
    if (const long v = pool_.version(); v != sent_version_) {
      sent_version_ = v;
      for (const auto& t : pool_.states()) pool.push_back(terms_json<F>(format_, t));
    }
    Rng r(config_.seed ^ static_cast<std::uint64_t>(sent_version_));
    const long before = pool_.version();
    for (const auto& t : ranks_->exchange(island_, pool))
      if (static_cast<int>(t.at("u").size()) <= pool_.rank()) pool_.offer(terms_from_json<F>(format_, t), r);
    if (before == sent_version_) sent_version_ = pool_.version();  // arrivals alone are not sent back
  }

  void publish(int id, W& w) {
    std::lock_guard lock(snapshot_mutex_);
    auto& s = snapshots_[id];
    s.terms = w.terms();
    s.rng = w.rng().state();
    s.flips = w.flips();
  }

  void checkpoint() {
    nlohmann::json walkers = nlohmann::json::array(), pool = nlohmann::json::array();
    {
      std::lock_guard lock(snapshot_mutex_);
      for (const auto& s : snapshots_) {
        if (s.terms.rank() == 0) continue;
        nlohmann::json rng = nlohmann::json::array();
        for (auto x : s.rng) rng.push_back(std::to_string(x));
        walkers.push_back({{"terms", terms_json<F>(format_, s.terms)}, {"rng", rng}, {"flips", s.flips}});
      }
    }
    for (const auto& t : pool_.states()) pool.push_back(terms_json<F>(format_, t));
    reporter_.checkpoint({{"engine", "flip"}, {"walk_ring", F::name}, {"walkers", walkers}, {"pool", pool},
                          {"pool_rank", pool_.rank()}});
  }

  // A walker reached a rank it had not reached before.
  void improved(const Terms<F>& best) {
    const int r = best.rank();
    if (r >= reporter_.best_rank()) return;
    if (lift_prime_ == 0) {
      offer_terms(best, "flip");
      return;
    }
    if (params_.lift_at_target && r > config_.target.rank) return;  // the walk goes on; only the target is lifted
    {
      std::lock_guard lock(lift_mutex_);
      if (lift_tries_[r]++ >= params_.lift_tries) return;
    }
    reporter_.event({{"event", events::kModularBest}, {"rank", r}, {"ring", F::name}});
    reporter_.add("lift_attempts", 1);
    Scheme s = scheme_from_terms<F>(format_, best);
    LiftResult lifted = hensel_lift(s, lift_prime_, params_.lift_steps);
    if (lifted.scheme && !ring_contains(config_.target.ring, lifted.scheme->ring)) {
      lifted.why_not = "lifted to a scheme over " + std::string(ring_name(lifted.scheme->ring)) + ", not over the target ring " +
                       std::string(ring_name(config_.target.ring));
      lifted.scheme.reset();
    }
    if (!lifted.scheme) {
      reporter_.event({{"event", events::kLiftFailed}, {"rank", r}, {"steps", lifted.steps}, {"why_not", lifted.why_not}});
      return;
    }
    reporter_.add("lifts", 1);
    stamp(*lifted.scheme, "flip+lift");
    lifted.scheme->provenance.extra["lift_steps"] = std::to_string(lifted.steps);
    reporter_.offer(*lifted.scheme, "flip+lift");
  }

  void offer_terms(const Terms<F>& t, const std::string& method) {
    Scheme s = scheme_from_terms<F>(format_, t);
    stamp(s, method);
    reporter_.offer(s, method);
  }

  void stamp(Scheme& s, const std::string& method) const {
    s.provenance.tool = TDISC_TOOL;
    s.provenance.method = method;
    s.provenance.seed = config_.seed;
    s.provenance.created = utc_now();
    s.provenance.extra["walk_ring"] = F::name;
    if (is_symmetric(params_.symmetry)) s.provenance.extra["symmetry"] = symmetry_name(params_.symmetry);
  }

  const EngineConfig& config_;
  FlipParams params_;
  Reporter& reporter_;
  Ranks* ranks_;  // the other MPI ranks; nullptr in a single process
  LaneGate gate_;
  std::string island_;  // island_name, once: walker 0 asks about it between moves
  Format format_;
  Pool<F> pool_;
  long sent_version_ = -1;  // the pool's version when walker 0 last sent it (migrate)
  int lift_prime_;  // 2 or 3 when results must be lifted to characteristic 0, else 0
  Terms<F> start_;
  std::vector<nlohmann::json> resumed_;
  std::mutex snapshot_mutex_, checkpoint_mutex_, lift_mutex_;
  std::vector<Snapshot<F>> snapshots_;
  std::map<int, int> lift_tries_;
};

}  // namespace

template <class F>
void run_walkers(const EngineConfig& config, const FlipParams& params, Reporter& reporter, LaneGate gate) {
  if (params.symmetry == Symmetry::Z3) Run<F, SymmetricWalker<F, 1>>(config, params, reporter, gate).run();
  else if (params.symmetry == Symmetry::S3) Run<F, SymmetricWalker<F, 2>>(config, params, reporter, gate).run();
  else Run<F, Walker<F>>(config, params, reporter, gate).run();
}

}  // namespace tdisc::search::flip
