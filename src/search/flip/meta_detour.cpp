// Meta move "detour" (Kauers–Wood 2025): the best scheme so far goes out one index along an axis
// (extend), is walked in that larger format, and comes back by dropping a random index (project).
#include <chrono>
#include <climits>
#include <mutex>
#include <optional>

#include "src/search/flip/lanes.hpp"
#include "src/search/flip/meta_moves.hpp"
#include "verifier/verify.hpp"

namespace tdisc::search::flip {

namespace {

// The walk in the larger format reports here, not to the run: it keeps the lowest-rank scheme that
// the exact verifier accepts over the walk's ring and stops with the run or after its time.
class Collector : public Reporter {
public:
  Collector(const Reporter& run, Ring ring, double seconds)
      : run_(run), ring_(ring),
        end_(std::chrono::steady_clock::now() +
             std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds))) {}
  bool offer(const Scheme& s, const std::string&) override {
    if (!verify(s, ring_).valid) return false;
    std::lock_guard lock(mutex_);
    if (!best_ || s.rank() < best_->rank()) best_ = s;
    return true;
  }
  void event(const nlohmann::json&) override {}
  void add(const std::string&, double) override {}
  void set(const std::string&, double) override {}
  bool stop_requested() const override { return run_.stop_requested() || std::chrono::steady_clock::now() >= end_; }
  int best_rank() const override {
    std::lock_guard lock(mutex_);
    return best_ ? best_->rank() : INT_MAX;
  }
  bool checkpoint_due() const override { return false; }
  void checkpoint(const nlohmann::json&) override {}
  std::optional<Scheme> best() const {
    std::lock_guard lock(mutex_);
    return best_;
  }

private:
  const Reporter& run_;
  Ring ring_;
  std::chrono::steady_clock::time_point end_;
  mutable std::mutex mutex_;
  std::optional<Scheme> best_;
};

}  // namespace

Scheme detour(const Scheme& best, Axis axis, const EngineConfig& walk, double seconds, const Reporter& run, Rng& rng) {
  const Format target = best.format;
  Format slice = target;
  meta_dimension(slice, axis) = 1;
  EngineConfig out = walk;
  out.start = join(best, classical_scheme(slice), axis);  // extend: the new slice by classical products
  out.target = {out.start->format, 1, walk.target.ring};   // rank 1: the walk runs until its time is up
  out.resume.reset();
  Collector collector(run, walk.target.ring, seconds);
  run_lanes(out, collector);
  const Scheme big = collector.best().value_or(*out.start);
  std::vector<int> keep[3];  // project: every index but one random one on the axis
  const int dims[3] = {big.format.n, big.format.m, big.format.p};
  const int drop = static_cast<int>(rng.below(static_cast<std::uint32_t>(meta_dimension(out.target.format, axis))));
  for (int a = 0; a < 3; ++a)
    for (int x = 0; x < dims[a]; ++x)
      if (!(static_cast<Axis>(a) == axis && x == drop)) keep[a].push_back(x);
  Scheme back = restrict_scheme(big, keep[0], keep[1], keep[2]);
  if (auto l = best.provenance.extra.find("licence"); l != best.provenance.extra.end()) back.provenance.extra["licence"] = l->second;
  return back;
}

}  // namespace tdisc::search::flip
