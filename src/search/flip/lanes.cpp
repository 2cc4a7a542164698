// Lanes of a flip search: which walks run side by side, and a Reporter per lane that merges the
// lanes' checkpoints into one, so --resume continues every lane. (Why two lanes: on 2 threads the
// symmetric ZT walk reaches 3x3:23 and 4x4:49 in seconds, while on 3x3x4:29 and 3x4x4:38 the ZT
// walk and the lifted GF2 walk each succeed on different seeds; docs/PERFORMANCE.md.)
#include "src/search/flip/lanes.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

#include "base/error.hpp"
#include "src/search/flip/field.hpp"
#include "src/search/flip/lift.hpp"
#include "src/search/flip/params.hpp"
#include "src/search/flip/runner.hpp"
#include "src/search/flip/walk_start.hpp"

namespace tdisc::search::flip {

namespace {

bool z3_walkable(const EngineConfig& config, Ring ring) {
  const Format& f = config.target.format;
  if (f.n != f.m || f.m != f.p || config.start) return false;  // auto never asks --from to be symmetric
  try {
    lane_params(config, {ring, Symmetry::Z3, 1});  // e.g. a rank the diagonal's fixed terms cannot reach
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

}  // namespace

std::string lane_name(const Lane& lane) { return std::string(ring_name(lane.walk_ring)) + " " + symmetry_name(lane.symmetry); }

params::Bound<FlipParams> lane_params(const EngineConfig& config, const Lane& lane) {
  params::Bound<FlipParams> b = bind_flip_params(config.params);
  const std::string ring(ring_name(lane.walk_ring));
  if (params::spelling(walk_ring_names(), b.value.walk_ring) != ring) b.derive("walk_ring", ring, "lane");
  if (b.value.symmetry != lane.symmetry) b.derive("symmetry", symmetry_name(lane.symmetry), "lane");
  derive_symmetric_defaults(b);
  check_symmetry(config, b.value);
  derive_anchor_policy(config, b);
  return b;
}

int factor_words(const Format& f) { return words_for(std::max({f.a_size(), f.b_size(), f.c_size()})); }

std::vector<Lane> lanes_for(const EngineConfig& config) {
  const FlipParams p = bind_flip_params(config.params).value;
  const std::vector<Ring> rings = rings_for(config, p.walk_ring);
  std::vector<Symmetry> syms = {p.symmetry};
  if (p.symmetry == Symmetry::Auto)
    syms = z3_walkable(config, rings.front()) ? std::vector<Symmetry>{Symmetry::Z3, Symmetry::None} : std::vector<Symmetry>{Symmetry::None};
  std::vector<Lane> lanes = {{rings.front(), syms.front()}};
  Lane second{rings.back(), syms.back()};
  if (!(second == lanes.front())) lanes.push_back(second);
  const int n = std::max(1, config.threads);
  if (static_cast<int>(lanes.size()) > n) lanes.resize(n);
  for (size_t i = 0; i < lanes.size(); ++i)
    lanes[i].threads = n / static_cast<int>(lanes.size()) + (static_cast<int>(i) < n % static_cast<int>(lanes.size()) ? 1 : 0);
  return lanes;
}

namespace {

// The lanes' latest checkpoint states, written to the real reporter as one.
struct Checkpoints {
  std::mutex mutex;
  std::vector<Lane> lanes;
  std::vector<nlohmann::json> states;
  std::vector<bool> owed;  // another lane just checkpointed: this one should follow at once
  std::atomic<bool> failed{false};  // a lane threw: the others stop at once, and run_lanes rethrows
};

class LaneReporter : public Reporter {
public:
  LaneReporter(Reporter& base, Checkpoints& shared, int lane) : base_(base), shared_(shared), lane_(lane) {}
  bool offer(const Scheme& s, const std::string& method) override { return base_.offer(s, method); }
  void event(const nlohmann::json& e) override {
    nlohmann::json tagged = e;
    tagged["lane"] = lane_;
    base_.event(tagged);
  }
  void add(const std::string& counter, double delta) override { base_.add(counter, delta); }
  void set(const std::string& counter, double value) override { base_.set(counter, value); }
  bool stop_requested() const override { return shared_.failed.load() || base_.stop_requested(); }
  int best_rank() const override { return base_.best_rank(); }
  bool exchange_due(const std::string& walk) const override { return base_.exchange_due(walk); }
  std::vector<nlohmann::json> exchange(const std::string& walk, const nlohmann::json& pool) override {
    return base_.exchange(walk, pool);
  }
  bool checkpoint_due() const override {
    if (base_.checkpoint_due()) return true;
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
    for (size_t i = 0; i < shared_.lanes.size(); ++i)
      lanes.push_back({{"walk_ring", std::string(ring_name(shared_.lanes[i].walk_ring))}, {"symmetry", symmetry_name(shared_.lanes[i].symmetry)},
                       {"threads", shared_.lanes[i].threads}, {"state", shared_.states[i]}});
    base_.checkpoint({{"engine", "flip"}, {"lanes", lanes}});
  }

private:
  Reporter& base_;
  Checkpoints& shared_;
  int lane_;
};

// The walkers of one ring at W words per factor plane.
template <int W>
void run_ring(Ring ring, const EngineConfig& config, const FlipParams& p, Reporter& reporter) {
  if (ring == Ring::GF2) run_walkers<GF2W<W>>(config, p, reporter);
  else if (ring == Ring::GF3) run_walkers<GF3W<W>>(config, p, reporter);
  else run_walkers<ZTW<W>>(config, p, reporter);
}

// p: the lane's parameters, bound and checked once (run_lanes). The factor width follows the
// format: one word up to 64 entries (4x4, 5x5: the code they always ran), 2 up to 128, 4 up to 256.
void run_lane(const EngineConfig& config, const FlipParams& p, const Lane& lane, Reporter& reporter) {
  const Ring ring = lane.walk_ring;
  switch (factor_words(config.target.format)) {
    case 1: run_ring<1>(ring, config, p, reporter); break;
    case 2: run_ring<2>(ring, config, p, reporter); break;
    case 4: run_ring<4>(ring, config, p, reporter); break;
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
  if (!ring || !symmetry || *symmetry == Symmetry::Auto) throw UsageError("the checkpoint names an unknown lane " + l.dump());
  return {*ring, *symmetry, threads};
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
  for (const Lane& l : lanes)
    out.push_back({{"walk_ring", std::string(ring_name(l.walk_ring))}, {"symmetry", symmetry_name(l.symmetry)}, {"threads", l.threads}});
  return out;
}

}  // namespace

// From a checkpoint with lanes, from an older single-walk checkpoint (one lane, its walk ring), or
// fresh from lanes_for.
std::vector<Lane> planned_lanes(const EngineConfig& config) {
  std::vector<Lane> lanes;
  if (config.resume && config.resume->contains("lanes")) {
    for (const auto& l : config.resume->at("lanes")) lanes.push_back(lane_from_json(l, l.at("threads").get<int>()));
    return lanes;
  }
  if (config.resume) {
    const Symmetry s = bind_flip_params(config.params).value.symmetry;
    Lane lane = lane_from_json({{"walk_ring", config.resume->value("walk_ring", std::string("ZT"))}}, std::max(1, config.threads));
    lane.symmetry = is_symmetric(s) ? s : Symmetry::None;
    return {lane};
  }
  return lanes_for(config);
}

void run_lanes(const EngineConfig& config, Reporter& reporter) {
  const std::vector<Lane> lanes = planned_lanes(config);
  const std::vector<nlohmann::json> states = planned_states(config, lanes.size());
  Checkpoints shared;
  shared.lanes = lanes;
  shared.states.assign(lanes.size(), nlohmann::json());
  shared.owed.assign(lanes.size(), false);
  std::vector<std::unique_ptr<LaneReporter>> reporters;
  std::vector<EngineConfig> configs;
  std::vector<FlipParams> params;
  for (size_t i = 0; i < lanes.size(); ++i) {
    reporters.push_back(std::make_unique<LaneReporter>(reporter, shared, static_cast<int>(i)));
    configs.push_back(lane_config(config, lanes[i], static_cast<int>(i), &states[i]));
    params.push_back(lane_params(configs[i], lanes[i]).value);  // usage errors before any thread starts
  }
  if (lanes.size() > 1) reporter.event({{"event", "lanes"}, {"lanes", lanes_json(lanes)}});
  std::vector<std::exception_ptr> errors(lanes.size());
  std::vector<std::thread> threads;
  for (size_t i = 1; i < lanes.size(); ++i)
    threads.emplace_back([&, i] {
      try {
        run_lane(configs[i], params[i], lanes[i], *reporters[i]);
      } catch (...) {
        errors[i] = std::current_exception();
        shared.failed = true;
      }
    });
  try {
    run_lane(configs[0], params[0], lanes[0], *reporters[0]);
  } catch (...) {
    errors[0] = std::current_exception();
    shared.failed = true;
  }
  for (auto& t : threads) t.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace tdisc::search::flip
