// The flip-graph engine behind the Engine contract: picks the walk's field from the target ring
// and hands over to the walkers (Kauers–Moosbauer 2022; Arai–Ichikawa–Hukushima 2024).
#include "src/search/flip/engine.hpp"

#include <algorithm>

#include "base/error.hpp"
#include "src/search/flip/lanes.hpp"
#include "src/search/flip/pair_index.hpp"
#include "src/search/flip/params.hpp"

namespace tdisc::search {

namespace {

class FlipEngine : public Engine {
public:
  std::string name() const override { return "flip"; }
  const params::Table* param_table() const override { return &flip::flip_table(); }
  nlohmann::json default_params() const override { return flip::default_flip_params(); }
  std::vector<std::string> validate_params(const nlohmann::json& params) const override {
    return flip::check_flip_params(params);
  }
  std::vector<ResolvedParams> resolve(const EngineConfig& config) const override {
    std::vector<ResolvedParams> out;
    for (const flip::Lane& lane : flip::planned_lanes(config))
      out.push_back({flip::lane_name(lane), flip::lane_params(config, lane).settings});
    return out;
  }
  void run(const EngineConfig& config, Reporter& reporter) override {
    auto problems = validate_params(config.params);
    TDISC_REQUIRE(problems.empty(), problems.empty() ? "" : problems.front());
    const flip::FlipParams p = flip::bind_flip_params(config.params).value;  // each lane is bound and checked in run_lanes
    const Format& f = config.target.format;
    if (flip::factor_words(f) == 0)
      throw UsageError("the flip engine holds factors of at most 256 entries (16x16x16): " + f.str() + " has a factor of " +
                       std::to_string(std::max({f.a_size(), f.b_size(), f.c_size()})));
    const int start = config.start ? config.start->rank() : f.classical_rank();
    if (start + p.walk.plus_diff + 32 >= flip::PairIndex::kMaxTerms)
      throw UsageError("the flip engine holds fewer than " + std::to_string(flip::PairIndex::kMaxTerms) + " terms: " + f.str() +
                       " starts at rank " + std::to_string(start));
    flip::run_lanes(config, reporter);
  }
};

}  // namespace

std::unique_ptr<Engine> make_flip_engine() { return std::make_unique<FlipEngine>(); }

}  // namespace tdisc::search
