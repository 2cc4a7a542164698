// The meta engine, its walk (Kauers–Wood 2025, "consequences of the Moosbauer–Poole algorithms"): rounds
// of one meta move from a catalogued neighbour into the target format, then ordinary flip walks there.
#include "src/search/flip/meta_engine.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <mutex>
#include <optional>

#include "base/error.hpp"
#include "src/search/events.hpp"
#include "src/search/flip/lanes.hpp"
#include "src/search/flip/meta_moves.hpp"
#include "src/search/flip/meta_params.hpp"
#include "src/search/flip/pair_index.hpp"
#include "src/search/flip/params.hpp"
#include "verifier/verify.hpp"

namespace tdisc::search::flip {

const char* meta_axis_name(Axis a) { return a == Axis::N ? "n" : a == Axis::M ? "m" : "p"; }
int& meta_dimension(Format& f, Axis a) { return a == Axis::N ? f.n : a == Axis::M ? f.m : f.p; }

std::vector<MetaStart> meta_starts(Format target, const Shelf& shelf, int project_depth) {
  std::vector<MetaStart> all = extend_starts(target, shelf);
  for (auto&& more : {project_starts(target, shelf, project_depth), merge_starts(target, shelf), product_starts(target, shelf)})
    all.insert(all.end(), more.begin(), more.end());
  std::stable_sort(all.begin(), all.end(), [](const MetaStart& a, const MetaStart& b) { return a.rank < b.rank; });
  return all;
}

namespace {

// One round's view of the run: stops when the run stops or the round's slice is over; tags what
// it offers and logs with the round's start (its hash as parent, its sources' licences). Rounds
// do not checkpoint (the meta walk does not resume).
// The lowest-rank scheme of the target format the run has written so far (the detours start there).
struct BestSoFar {
  mutable std::mutex mutex;
  std::optional<Scheme> scheme;
  void consider(const Scheme& s) {
    std::lock_guard lock(mutex);
    if (!scheme || s.rank() < scheme->rank()) scheme = s;
  }
  std::optional<Scheme> get() const {
    std::lock_guard lock(mutex);
    return scheme;
  }
};

class RoundReporter : public ForwardingReporter {
public:
  RoundReporter(Reporter& base, BestSoFar& best, double seconds, nlohmann::json tag)
      : ForwardingReporter(base), best_(best), end_(std::chrono::steady_clock::now() +
             std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds))), tag_(std::move(tag)) {}
  bool offer(const Scheme& s, const std::string& method) override {
    Scheme tagged = s;
    tagged.provenance.method = "meta+" + method;
    tagged.provenance.extra["meta_start"] = tag_.at("start").get<std::string>();
    tagged.provenance.extra["meta_run_seed"] = std::to_string(tag_.at("run_seed").get<unsigned long long>());
    const std::string start = tag_.at("parent").get<std::string>();
    if ("sha256:" + scheme_sha256(s) != start) tagged.provenance.parent = start;  // the start the walk came down from
    if (const std::string l = tag_.at("licence").get<std::string>(); !l.empty()) tagged.provenance.extra["licence"] = l;
    const bool valid = base().offer(tagged, tagged.provenance.method);
    if (valid) best_.consider(tagged);
    return valid;
  }
  void event(const nlohmann::json& e) override {
    nlohmann::json t = e;
    t["meta_round"] = tag_.at("round");
    base().event(t);
  }
  bool stop_requested() const override { return base().stop_requested() || std::chrono::steady_clock::now() >= end_; }
  bool checkpoint_due() const override { return false; }  // a round starts over rather than resumes
  void checkpoint(const nlohmann::json&) override {}

private:
  BestSoFar& best_;
  std::chrono::steady_clock::time_point end_;
  nlohmann::json tag_;
};

// The ring catalogued starts must be usable over: the walk's own (ZT unless a modular walk).
Ring start_ring(const EngineConfig& config, const FlipParams& walk) { return walk_ring_for(config.target.ring, walk.walk_ring); }

std::string neighbour_list(Format t) {
  return "formats one index smaller or up to a few larger on one axis, two parts whose sum along an axis is " +
         t.str() + ", or two factors whose product is " + t.str();
}

// The meta rows as bound; the catalogue is the run's (--catalog-dir) unless the parameters name one.
params::Bound<MetaParams> with_catalogue(params::Bound<MetaParams> b, const EngineConfig& config) {
  if (!b.given("catalogue")) {
    if (config.catalogue_dir.empty()) throw UsageError("--meta: no catalogue to start from (give --catalog-dir)");
    b.derive("catalogue", config.catalogue_dir, "the run's catalogue");
  }
  return b;
}

// The flip walkers hold fewer than PairIndex::kMaxTerms terms, each factor in at most 256 entries.
std::vector<MetaStart> walkable(std::vector<MetaStart> starts, const EngineConfig& config, const FlipParams& walk) {
  const Format& f = config.target.format;
  if (factor_words(f) == 0)
    throw UsageError("the flip engine holds factors of at most 256 entries (16x16x16): " + f.str() + " has a larger factor");
  const int plus_diff = walk.walk.plus_diff;
  std::erase_if(starts, [&](const MetaStart& s) { return s.rank + plus_diff + 32 >= PairIndex::kMaxTerms; });
  return starts;
}

void announce(const std::vector<MetaStart>& starts, const Shelf& shelf, const EngineConfig& config) {
  std::cout << "meta: " << starts.size() << " start" << (starts.size() == 1 ? "" : "s") << " into "
            << config.target.format.str() << " from the catalogue (schemes usable over " << ring_name(shelf.usable())
            << "), lowest rank first:\n";
  for (size_t k = 0; k < starts.size() && k < 5; ++k) std::cout << "  rank " << starts[k].rank << ": " << starts[k].describe << "\n";
  if (starts.size() > 5) std::cout << "  … and " << starts.size() - 5 << " more\n";
  std::cout << std::flush;
}

// The flip walk of every round: the run's walk parameters, plain walks (a moved scheme is not
// Z3-invariant), one lane over the ring the starts are usable over.
EngineConfig round_config(const EngineConfig& config, Ring ring) {
  EngineConfig c = config;
  c.params = flip_part(config.params);
  if (c.params.value("symmetry", std::string("auto")) == "auto") c.params["symmetry"] = "none";
  if (!ring_is_modular(config.target.ring) && c.params.value("walk_ring", std::string("auto")) == "auto")
    c.params["walk_ring"] = ring_name(ring);
  return c;
}

// A detour from the best scheme so far along a random axis whose larger format the walkers hold.
std::optional<MetaStart> detour_start(const Scheme& best, const EngineConfig& walk, const MetaParams& mp,
                                      const Reporter& run, Rng& rng) {
  std::vector<Axis> axes;
  for (Axis a : {Axis::N, Axis::M, Axis::P}) {
    Format g = best.format;
    ++meta_dimension(g, a);
    Format slice = best.format;
    meta_dimension(slice, a) = 1;
    if (factor_words(g) != 0 && best.rank() + slice.classical_rank() + 40 < PairIndex::kMaxTerms) axes.push_back(a);
  }
  if (axes.empty()) return std::nullopt;
  const Axis axis = axes[rng.below(static_cast<std::uint32_t>(axes.size()))];
  const double seconds = 0.4 * mp.slice;
  MetaStart s;
  s.move = "detour";
  s.rank = best.rank();
  s.describe = "detour from the best " + best.format.str() + ":" + std::to_string(best.rank()) + " along " +
               meta_axis_name(axis) + " (extend, walk " + std::to_string(seconds).substr(0, 4) + " s, project back)";
  s.build = [best, walk, axis, seconds, &run](Rng& r) { return detour(best, axis, walk, seconds, run, r); };
  return s;
}

MetaStart pick(const std::vector<MetaStart>& starts, int round, const MetaParams& mp, const BestSoFar& best,
               const EngineConfig& walk, const Reporter& run, Rng& rng) {
  if (round == 0) return starts.front();
  if (auto b = best.get(); b && rng.unit() < mp.detour)
    if (auto d = detour_start(*b, walk, mp, run, rng)) return *d;
  if (rng.unit() < mp.best_start) return starts.front();
  return starts[rng.below(static_cast<std::uint32_t>(starts.size()))];
}

void rounds(const std::vector<MetaStart>& starts, const Shelf& shelf, const MetaParams& mp, const EngineConfig& config,
            Reporter& reporter) {
  Rng rng(config.seed);
  BestSoFar best;
  const EngineConfig walk = round_config(config, shelf.usable());
  for (int round = 0; !reporter.stop_requested(); ++round) {
    const MetaStart s = pick(starts, round, mp, best, walk, reporter, rng);
    const std::uint64_t seed = rng.next();
    EngineConfig c = walk;
    c.seed = seed;
    Rng draw(seed);
    c.start = s.build(draw);
    if (reporter.stop_requested()) break;  // a detour's walk may end with the run
    const Verdict v = verify(*c.start, shelf.usable());  // a move that breaks a scheme is a bug in tdisc
    TDISC_REQUIRE(v.valid, s.describe + " gave an invalid scheme: " + v.why_not);
    c.start->provenance.extra["meta_start"] = s.describe;
    std::cout << "meta: round " << round + 1 << ": " << s.describe << ", start rank " << c.start->rank() << ", seed "
              << seed << "\n" << std::flush;
    reporter.event({{"event", events::kMetaStart}, {"round", round + 1}, {"move", s.move}, {"start", s.describe},
                    {"rank", c.start->rank()}, {"seed", seed}});
    const auto licence = c.start->provenance.extra.find("licence");
    RoundReporter round_reporter(reporter, best, mp.slice,
                                 {{"round", round + 1}, {"start", s.describe}, {"run_seed", config.seed},
                                  {"parent", "sha256:" + scheme_sha256(*c.start)},
                                  {"licence", licence == c.start->provenance.extra.end() ? "" : licence->second}});
    run_lanes(c, round_reporter);
  }
}

}  // namespace

nlohmann::json MetaEngine::default_params() const {
  nlohmann::json d = default_flip_params();
  d.update(default_meta_params());
  return d;
}

const params::Table* MetaEngine::param_table() const { return &meta_table(); }

std::vector<std::string> MetaEngine::validate_params(const nlohmann::json& params) const {
  std::vector<std::string> out = check_meta_params(params);
  for (auto& p : check_flip_params(flip_part(params))) out.push_back(p);
  if (const std::string s = params.value("symmetry", std::string("auto")); s == "z3" || s == "s3")
    out.push_back("params.symmetry: " + s + " walks start from symmetric schemes; a moved scheme is not (use none or auto)");
  return out;
}

// The check, then one bind of each table: the meta rows and the walk's flip rows.
void MetaEngine::bind_params(const nlohmann::json& params, const std::string& where) {
  params::refuse(where, validate_params(params));
  bound_meta_.keep(params, bind_meta_params(params));
  bound_walk_.keep(params, bind_flip_params(flip_part(params)));
}

params::Bound<MetaParams> MetaEngine::meta_for(const EngineConfig& config) const {
  return with_catalogue(bound_meta_.for_params(config.params, [](const nlohmann::json& p) { return bind_meta_params(p); }),
                        config);
}

params::Bound<FlipParams> MetaEngine::walk_for(const EngineConfig& config) const {
  return bound_walk_.for_params(config.params, [](const nlohmann::json& p) { return bind_flip_params(flip_part(p)); });
}

// The meta rows, then the walk every round runs (flip rows; each round's lane is plain).
std::vector<ResolvedParams> MetaEngine::resolve(const EngineConfig& config) const {
  return {{"meta", meta_for(config).settings, "", 0}, {"walk", walk_for(config).settings, "", 0}};
}

void MetaEngine::run(const EngineConfig& config, Reporter& reporter) {
  params::refuse("", validate_params(config.params));  // a check, no bind: run() may come without bind_params
  if (config.resume) throw UsageError("the meta walk does not resume: start a new search (rounds, starts and seeds are in events.jsonl)");
  if (config.start) throw UsageError("--meta takes its starts from the catalogue: it cannot be combined with --from");
  const MetaParams mp = meta_for(config).value;
  const FlipParams walk = walk_for(config).value;
  const Shelf shelf(read_catalogue(mp.catalogue), start_ring(config, walk), config.target.format);
  std::vector<MetaStart> starts = walkable(meta_starts(config.target.format, shelf, mp.project_depth), config, walk);
  if (starts.empty())
    throw InputError(mp.catalogue, 0, "no catalogued scheme usable over " + std::string(ring_name(shelf.usable())) +
                                          " neighbours " + config.target.format.str() + " (a meta walk starts from " +
                                          neighbour_list(config.target.format) + ")");
  announce(starts, shelf, config);
  rounds(starts, shelf, mp, config, reporter);
}

}  // namespace tdisc::search::flip
