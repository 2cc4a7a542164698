// The counting reporter and one engine run under it.
#include "src/search/evolve/evaluate.hpp"

#include <chrono>
#include <climits>
#include <cmath>
#include <mutex>

#include "src/search/numeric/engine.hpp"
#include "verifier/verify.hpp"

namespace tdisc::search::evolve {

namespace {

using Clock = std::chrono::steady_clock;

class CountingReporter : public Reporter {
public:
  CountingReporter(Ring ring, double seconds) : ring_(ring), seconds_(seconds), t0_(Clock::now()) {}
  bool offer(const Scheme& s, const std::string&) override { return verify(s, ring_).valid; }
  void event(const nlohmann::json&) override {}
  void add(const std::string& counter, double delta) override {
    std::lock_guard lock(mutex_);
    counts_[counter] += delta;
  }
  void set(const std::string& counter, double value) override {
    std::lock_guard lock(mutex_);
    if (counter == "residual" && std::isfinite(value) && (residual_ < 0 || value < residual_)) residual_ = value;
  }
  bool stop_requested() const override { return elapsed() >= seconds_; }
  int best_rank() const override { return INT_MAX; }
  bool checkpoint_due() const override { return false; }
  void checkpoint(const nlohmann::json&) override {}

  double elapsed() const { return std::chrono::duration<double>(Clock::now() - t0_).count(); }
  long count(const std::string& c) const {
    auto it = counts_.find(c);
    return it == counts_.end() ? 0 : std::lround(it->second);
  }
  double residual() const { return residual_; }

private:
  Ring ring_;
  double seconds_;
  Clock::time_point t0_;
  std::mutex mutex_;
  std::map<std::string, double> counts_;
  double residual_ = -1;
};

}  // namespace

Scored evaluate(const nlohmann::json& params, const Trial& trial) {
  EngineConfig c;
  c.target = trial.target;
  c.threads = trial.threads;
  c.seed = trial.seed;
  c.seconds = trial.seconds;
  c.params = params;
  c.params["keep_going"] = true;
  CountingReporter rep(trial.target.ring, trial.seconds);
  numeric::NumericEngine().run(c, rep);
  Scored s;
  s.params = params;
  s.seed = trial.seed;
  s.seconds = rep.elapsed();
  s.restarts = rep.count("restarts");
  s.numerical = rep.count("numerical");
  s.exact = rep.count("exact");
  s.culled = rep.count("culled");
  s.residual = rep.residual();
  return s;
}

}  // namespace tdisc::search::evolve
