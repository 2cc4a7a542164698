// Lanes of a flip search: which walks run side by side, and a Reporter per lane that merges the
// lanes' checkpoints into one, so --resume continues every lane. (Why two lanes: on 2 threads the
// symmetric ZT walk reaches 3x3:23 and 4x4:49 in seconds, while on 3x3x4:29 and 3x4x4:38 the ZT
// walk and the lifted GF2 walk each succeed on different seeds; docs/PERFORMANCE.md.)
#include "src/search/flip/lanes.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "base/error.hpp"
#include "src/search/flip/field.hpp"
#include "src/search/flip/lift.hpp"
#include "src/search/flip/params.hpp"
#include "src/search/flip/runner.hpp"
#include "src/search/flip/walk_start.hpp"
#include "src/search/events.hpp"

namespace tdisc::search::flip {

namespace {

// The lane's overlay on b, a copy of the run's parameters, key by key through the table's binders,
// where the run leaves the key to it (an explicit key wins in every lane). The keys count as given
// for the rules after it (symmetric defaults, anchor policy); lane_params relabels them.
void apply_overlay(const Lane& lane, params::Bound<FlipParams>& b) {
  nlohmann::json own = nlohmann::json::object();
  for (const auto& [key, value] : lane.overlay.items())
    if (!b.given(key)) own[key] = value;
  if (own.empty()) return;
  if (const auto problems = check_flip_params(own); !problems.empty()) throw UsageError("lane " + lane.recipe + ": " + problems.front());
  for (const auto& [key, value] : own.items()) {
    flip_table().find(key)->store(&b.value, value);
    b.settings.set(key, value, "given");
  }
  if (b.value.walk.plus_min > b.value.walk.plus_max)
    throw UsageError("lane " + lane.recipe + ": plus_min (" + std::to_string(b.value.walk.plus_min) + ") exceeds plus_max (" +
                     std::to_string(b.value.walk.plus_max) + ")");
}

bool z3_walkable(const EngineConfig& config, const params::Bound<FlipParams>& run, Ring ring) {
  const Format& f = config.target.format;
  if (f.n != f.m || f.m != f.p || config.start) return false;  // auto never asks --from to be symmetric
  try {
    lane_params(config, run, {ring, Symmetry::Z3, 1});  // e.g. a rank the diagonal's fixed terms cannot reach
    return true;
  } catch (const UsageError&) {
    return false;
  }
}

std::vector<Ring> rings_for(const EngineConfig& config, WalkRing walk_ring) {
  const Ring target = config.target.ring;
  if (ring_is_modular(target)) return {target};
  if (walk_ring != WalkRing::Auto) return {walk_ring_for(target, walk_ring)};
  if (target == Ring::ZT) return {Ring::ZT};
  // Z, Q, QI: ZT results are valid as they are, GF2 ones are lifted (where the dense lift fits the format)
  if (!lift_fits(config.target.format, config.target.rank)) return {Ring::ZT};
  return {Ring::ZT, Ring::GF2};
}

// A recipe's lane for this target: the walk ring and symmetry its parameters ask for under the run's
// (a recipe without a symmetry walks plain); none when the target cannot be walked so (a GF2 walk
// for a GF3 target or whose lift does not fit, a symmetric walk from --from or at a rank its diagonal cannot reach).
std::optional<Lane> recipe_lane(const EngineConfig& config, const params::Bound<FlipParams>& run, const LaneRecipe& r) {
  Lane lane{Ring::ZT, Symmetry::None, 1, r.name, r.params};
  try {
    params::Bound<FlipParams> b = run;
    apply_overlay(lane, b);  // e.g. the run's plus_max below the row's plus_min: no lane
    const FlipParams& p = b.value;
    const bool modular_walk = p.walk_ring == WalkRing::GF2 || p.walk_ring == WalkRing::GF3;
    if (modular_walk && ring_is_modular(config.target.ring) && walk_ring_for(Ring::Z, p.walk_ring) != config.target.ring)
      return std::nullopt;  // a GF2 recipe serves no GF3 target
    lane.walk_ring = walk_ring_for(config.target.ring, p.walk_ring);
    if (lane.walk_ring != config.target.ring && ring_is_modular(lane.walk_ring) && !lift_fits(config.target.format, config.target.rank))
      return std::nullopt;
    lane.symmetry = p.symmetry == Symmetry::Auto ? Symmetry::None : p.symmetry;
    if (is_symmetric(lane.symmetry) && config.start) return std::nullopt;
    lane_params(config, run, lane);
  } catch (const UsageError&) {
    return std::nullopt;
  }
  return lane;
}

// The overlay's keys that the run's parameters leave to it, less the walk ring and symmetry.
nlohmann::json own_keys(const params::Bound<FlipParams>& run, const Lane& lane) {
  nlohmann::json own = nlohmann::json::object();
  for (const auto& [key, value] : lane.overlay.items())
    if (key != "walk_ring" && key != "symmetry" && !run.given(key)) own[key] = value;
  return own;
}

// Two lanes that would run the same walks: one ring, one symmetry, the same parameters of their own.
bool same_walk(const params::Bound<FlipParams>& run, const Lane& a, const Lane& b) {
  return a.walk_ring == b.walk_ring && a.symmetry == b.symmetry && own_keys(run, a) == own_keys(run, b);
}

}  // namespace

std::string lane_name(const Lane& lane) {
  return std::string(ring_name(lane.walk_ring)) + " " + symmetry_name(lane.symmetry) + (lane.recipe.empty() ? "" : " " + lane.recipe);
}

std::string lane_recipe(const Lane& lane) { return lane.recipe.empty() ? "default" : lane.recipe; }

params::Bound<FlipParams> lane_params(const EngineConfig& config, const Lane& lane) {
  return lane_params(config, bind_flip_params(config.params), lane);
}

params::Bound<FlipParams> lane_params(const EngineConfig& config, const params::Bound<FlipParams>& run, const Lane& lane) {
  params::Bound<FlipParams> b = run;  // a typed copy: nothing parsed or bound again
  apply_overlay(lane, b);
  const std::string ring(ring_name(lane.walk_ring));
  if (params::spelling(walk_ring_names(), b.value.walk_ring) != ring) b.derive("walk_ring", ring, "lane");
  if (b.value.symmetry != lane.symmetry) b.derive("symmetry", symmetry_name(lane.symmetry), "lane");
  derive_symmetric_defaults(b);
  check_symmetry(config, b.value);
  derive_anchor_policy(config, b);
  for (const auto& [key, value] : lane.overlay.items())
    if (!run.given(key) && b.given(key)) b.settings.set(key, value, "derived: lane " + lane.recipe);
  return b;
}

int factor_words(const Format& f) { return words_for(std::max({f.a_size(), f.b_size(), f.c_size()})); }

std::vector<Lane> lanes_for(const EngineConfig& config) { return lanes_for(config, bind_flip_params(config.params)); }

std::vector<Lane> lanes_for(const EngineConfig& config, const params::Bound<FlipParams>& run) {
  const FlipParams& p = run.value;
  const std::vector<Ring> rings = rings_for(config, p.walk_ring);
  std::vector<Symmetry> syms = {p.symmetry};
  if (p.symmetry == Symmetry::Auto)
    syms = z3_walkable(config, run, rings.front()) ? std::vector<Symmetry>{Symmetry::Z3, Symmetry::None} : std::vector<Symmetry>{Symmetry::None};
  std::vector<Lane> lanes = {{rings.front(), syms.front()}};
  Lane second{rings.back(), syms.back()};
  if (!(second == lanes.front())) lanes.push_back(second);
  const int n = std::max(1, config.threads);
  if (static_cast<int>(lanes.size()) > n) lanes.resize(n);
  // Recipe lanes run on the threads beyond two per own lane, one thread each (the portfolio moves
  // more to a lane that improves): on targets reached in seconds, before any move, taking an own
  // lane's threads cost up to 6.6× (docs/recipes.md).
  const int own = static_cast<int>(lanes.size());
  for (const LaneRecipe& r : config.lane_recipes) {
    if (static_cast<int>(lanes.size()) - own >= n - 2 * own) break;
    if (std::optional<Lane> l = recipe_lane(config, run, r); l && std::none_of(lanes.begin(), lanes.end(), [&](const Lane& o) { return same_walk(run, o, *l); }))
      lanes.push_back(*l);
  }
  const int rest = n - (static_cast<int>(lanes.size()) - own);  // the own lanes' threads, split evenly
  for (int i = 0; i < static_cast<int>(lanes.size()); ++i) lanes[i].threads = i < own ? rest / own + (i < rest % own ? 1 : 0) : 1;
  return lanes;
}

namespace {

// A lane as the checkpoint and the lanes event hold it: walk ring, symmetry, threads, and a recipe
// lane's row id and parameters (so --resume rebuilds the same lanes).
nlohmann::json lane_json(const Lane& l) {
  nlohmann::json j = {{"walk_ring", std::string(ring_name(l.walk_ring))}, {"symmetry", symmetry_name(l.symmetry)}, {"threads", l.threads}};
  if (!l.recipe.empty()) j["recipe"] = l.recipe, j["params"] = l.overlay;
  return j;
}

// The lanes' latest checkpoint states, written to the real reporter as one.
struct Checkpoints {
  std::mutex mutex;
  std::vector<Lane> lanes;
  std::vector<nlohmann::json> states;
  std::vector<bool> owed;  // another lane just checkpointed: this one should follow at once
  const Portfolio* portfolio = nullptr;  // where threads move between lanes: each lane's threads now
  std::atomic<bool> failed{false};  // a lane threw: the others stop at once, and run_lanes rethrows
};

class LaneReporter : public ForwardingReporter {
public:
  LaneReporter(Reporter& base, Checkpoints& shared, int lane) : ForwardingReporter(base), shared_(shared), lane_(lane) {}
  void event(const nlohmann::json& e) override {
    nlohmann::json tagged = e;
    tagged["lane"] = lane_;
    base().event(tagged);
  }
  bool stop_requested() const override { return shared_.failed.load() || base().stop_requested(); }
  Ranks* ranks() override { return base().ranks(); }  // each lane's walk is named apart (runner.cpp)
  bool checkpoint_due() const override {
    if (base().checkpoint_due()) return true;
    std::lock_guard lock(shared_.mutex);
    return shared_.owed[lane_];
  }
  void checkpoint(const nlohmann::json& state) override {
    std::lock_guard lock(shared_.mutex);
    shared_.states[lane_] = state;
    const bool was_owed = shared_.owed[lane_];
    shared_.owed[lane_] = false;
    if (!was_owed)  // a checkpoint the clock asked for: the other lanes follow with fresh states
      for (size_t i = 0; i < shared_.owed.size(); ++i)
        if (static_cast<int>(i) != lane_) shared_.owed[i] = true;
    nlohmann::json lanes = nlohmann::json::array();
    for (size_t i = 0; i < shared_.lanes.size(); ++i) {
      nlohmann::json l = lane_json(shared_.lanes[i]);
      l["threads"] = shared_.portfolio ? shared_.portfolio->threads(static_cast<int>(i)) : shared_.lanes[i].threads;
      l["state"] = shared_.states[i];
      lanes.push_back(l);
    }
    base().checkpoint({{"engine", "flip"}, {"lanes", lanes}});
  }

private:
  Checkpoints& shared_;
  int lane_;
};

// The walkers of one ring at W words per factor plane.
template <int W>
void run_ring(Ring ring, const EngineConfig& config, const FlipParams& p, Reporter& reporter, LaneGate gate) {
  if (ring == Ring::GF2) run_walkers<GF2W<W>>(config, p, reporter, gate);
  else if (ring == Ring::GF3) run_walkers<GF3W<W>>(config, p, reporter, gate);
  else run_walkers<ZTW<W>>(config, p, reporter, gate);
}

// p: the lane's parameters, bound and checked once (run_lanes). The factor width follows the
// format: one word up to 64 entries (4x4, 5x5: the code they always ran), 2 up to 128, 4 up to 256.
void run_lane(const EngineConfig& config, const FlipParams& p, const Lane& lane, Reporter& reporter, LaneGate gate) {
  const Ring ring = lane.walk_ring;
  switch (factor_words(config.target.format)) {
    case 1: run_ring<1>(ring, config, p, reporter, gate); break;
    case 2: run_ring<2>(ring, config, p, reporter, gate); break;
    case 4: run_ring<4>(ring, config, p, reporter, gate); break;
    default: throw UsageError("the flip engine holds factors of at most 256 entries: " + config.target.format.str() + " has more");
  }
}

// The lane's own config: its threads, a seed of its own (lane 0 keeps the run's seed), and its part
// of a resumed checkpoint (its walk ring and symmetry travel in its FlipParams, lane_params).
EngineConfig lane_config(const EngineConfig& config, const Lane& lane, int index, const nlohmann::json* state) {
  EngineConfig c = config;
  c.threads = lane.threads;
  c.seed = config.seed + 0x9E3779B97F4A7C15ull * static_cast<unsigned long long>(index);
  c.resume.reset();
  if (state && !state->is_null()) c.resume = *state;
  return c;
}

Lane lane_from_json(const nlohmann::json& l, int threads) {
  const auto ring = parse_ring(l.value("walk_ring", std::string("ZT")));
  const auto symmetry = params::value_of(symmetry_names(), l.value("symmetry", std::string("none")));
  const nlohmann::json overlay = l.value("params", nlohmann::json::object());
  if (!ring || !symmetry || *symmetry == Symmetry::Auto || !overlay.is_object() || !l.value("recipe", nlohmann::json("")).is_string())
    throw UsageError("the checkpoint names an unknown lane " + l.dump());
  return {*ring, *symmetry, threads, l.value("recipe", std::string()), overlay};
}

// The lanes' states: from a checkpoint with lanes, from an older single-walk checkpoint, or none.
std::vector<nlohmann::json> planned_states(const EngineConfig& config, size_t lanes) {
  std::vector<nlohmann::json> states;
  if (config.resume && config.resume->contains("lanes"))
    for (const auto& l : config.resume->at("lanes")) states.push_back(l.value("state", nlohmann::json()));
  else if (config.resume) states.push_back(*config.resume);
  states.resize(lanes);
  return states;
}

nlohmann::json lanes_json(const std::vector<Lane>& lanes) {
  nlohmann::json out = nlohmann::json::array();
  for (const Lane& l : lanes) out.push_back(lane_json(l));
  return out;
}

// The portfolio's rule when threads may move: several lanes, portfolio_every above 0, and no
// max_flips (a walker parked for good would never reach it, and the run would not end).
std::optional<PortfolioRule> portfolio_rule(const std::vector<Lane>& lanes, const std::vector<FlipParams>& params) {
  if (lanes.size() < 2 || params.front().portfolio_every <= 0) return std::nullopt;
  for (const FlipParams& p : params)
    if (p.max_flips > 0) return std::nullopt;
  return PortfolioRule{params.front().portfolio_every, params.front().portfolio_dead};
}

// The monitor of a portfolio: a decision every rule.every seconds, each move an event and a counter.
class PortfolioMonitor {
public:
  PortfolioMonitor(Portfolio& portfolio, const std::vector<Lane>& lanes, Reporter& reporter)
      : portfolio_(portfolio), lanes_(lanes), reporter_(reporter), thread_([this] { watch(); }) {}
  ~PortfolioMonitor() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

private:
  void watch() {
    std::unique_lock lock(mutex_);
    while (!done_) {
      cv_.wait_for(lock, std::chrono::milliseconds(50));
      if (done_ || reporter_.stop_requested()) continue;
      if (auto m = portfolio_.tick()) moved(*m);
    }
  }
  void moved(const PortfolioMove& m) {
    nlohmann::json threads = nlohmann::json::array();
    for (size_t i = 0; i < lanes_.size(); ++i) threads.push_back(portfolio_.threads(static_cast<int>(i)));
    reporter_.event({{"event", events::kPortfolioMove}, {"from", m.from}, {"to", m.to}, {"from_lane", lane_name(lanes_[m.from])},
                     {"to_lane", lane_name(lanes_[m.to])}, {"threads", threads}, {"why", m.why},
                     {"seconds", portfolio_.seconds()}});
    reporter_.add("portfolio_moves", 1);
  }

  Portfolio& portfolio_;
  const std::vector<Lane>& lanes_;
  Reporter& reporter_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;  // last: started once the rest is ready
};

}  // namespace

namespace {

// From a checkpoint with lanes, from an older single-walk checkpoint (one lane, its walk ring), or
// fresh from lanes_for.
std::vector<Lane> planned_lanes(const EngineConfig& config, const params::Bound<FlipParams>& run) {
  std::vector<Lane> lanes;
  if (config.resume && config.resume->contains("lanes")) {
    for (const auto& l : config.resume->at("lanes")) lanes.push_back(lane_from_json(l, l.at("threads").get<int>()));
    return lanes;
  }
  if (config.resume) {
    const Symmetry s = run.value.symmetry;
    Lane lane = lane_from_json({{"walk_ring", config.resume->value("walk_ring", std::string("ZT"))}}, std::max(1, config.threads));
    lane.symmetry = is_symmetric(s) ? s : Symmetry::None;
    return {lane};
  }
  return lanes_for(config, run);
}

}  // namespace

std::vector<PlannedLane> plan_lanes(const EngineConfig& config) { return plan_lanes(config, bind_flip_params(config.params)); }

std::vector<PlannedLane> plan_lanes(const EngineConfig& config, const params::Bound<FlipParams>& run) {
  std::vector<PlannedLane> out;
  for (const Lane& lane : planned_lanes(config, run)) out.push_back({lane, lane_params(config, run, lane)});
  return out;
}

void run_lanes(const EngineConfig& config, Reporter& reporter) { run_lanes(config, plan_lanes(config), reporter); }

void run_lanes(const EngineConfig& config, const std::vector<PlannedLane>& planned, Reporter& reporter) {
  std::vector<Lane> lanes;
  std::vector<FlipParams> params;  // each lane's, bound once (plan_lanes)
  for (const PlannedLane& p : planned) lanes.push_back(p.lane), params.push_back(p.params.value);
  const std::vector<nlohmann::json> states = planned_states(config, lanes.size());
  Checkpoints shared;
  shared.lanes = lanes;
  shared.states.assign(lanes.size(), nlohmann::json());
  shared.owed.assign(lanes.size(), false);
  std::vector<std::unique_ptr<LaneReporter>> reporters;
  std::vector<EngineConfig> configs;
  for (size_t i = 0; i < lanes.size(); ++i) {
    reporters.push_back(std::make_unique<LaneReporter>(reporter, shared, static_cast<int>(i)));
    configs.push_back(lane_config(config, lanes[i], static_cast<int>(i), &states[i]));
  }
  const std::optional<PortfolioRule> rule = portfolio_rule(lanes, params);
  std::optional<Portfolio> portfolio;
  if (rule) {
    std::vector<int> split;
    for (const Lane& l : lanes) split.push_back(l.threads);
    shared.portfolio = &portfolio.emplace(split, *rule);
  }
  if (lanes.size() > 1) {
    nlohmann::json e = {{"event", events::kLanes}, {"lanes", lanes_json(lanes)}};
    if (rule) e["portfolio"] = {{"every", rule->every}, {"dead_after", rule->dead_after}};
    reporter.event(e);
  }
  auto gate = [&](size_t i) { return LaneGate{portfolio ? &*portfolio : nullptr, static_cast<int>(i), lanes[i].recipe}; };
  std::optional<PortfolioMonitor> monitor;
  if (portfolio) monitor.emplace(*portfolio, lanes, reporter);
  std::vector<std::exception_ptr> errors(lanes.size());
  std::vector<std::thread> threads;
  for (size_t i = 1; i < lanes.size(); ++i)
    threads.emplace_back([&, i] {
      try {
        run_lane(configs[i], params[i], lanes[i], *reporters[i], gate(i));
      } catch (...) {
        errors[i] = std::current_exception();
        shared.failed = true;
      }
    });
  try {
    run_lane(configs[0], params[0], lanes[0], *reporters[0], gate(0));
  } catch (...) {
    errors[0] = std::current_exception();
    shared.failed = true;
  }
  for (auto& t : threads) t.join();
  monitor.reset();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace tdisc::search::flip
