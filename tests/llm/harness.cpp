// The run-directory Reporter and the toy engine used by the loop tests.
#include "tests/llm/harness.hpp"

#include <filesystem>
#include <fstream>
#include <thread>

#include "base/io.hpp"
#include "decomposition/native.hpp"
#include "tests/support.hpp"
#include "verifier/verify.hpp"

namespace tdisc::test {

using nlohmann::json;

RunDirReporter::RunDirReporter(std::string dir, search::Target target, double seconds, bool stop_at_target)
    : dir_(std::move(dir)), target_(target), seconds_(seconds), stop_at_target_(stop_at_target),
      t0_(std::chrono::steady_clock::now()), last_due_(t0_) {
  std::filesystem::create_directories(dir_);
}

double RunDirReporter::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
}

bool RunDirReporter::offer(const Scheme& s, const std::string&) {
  if (!verify(s, target_.ring).valid) return false;  // never trust the engine
  std::lock_guard lock(mutex_);
  ++offers_valid_;
  if (s.rank() < best_) {
    best_ = s.rank();
    write_native(dir_ + "/best-r" + std::to_string(s.rank()) + ".json", s);
    if (s.rank() <= target_.rank && time_to_target_ < 0) time_to_target_ = elapsed();
  }
  return true;
}

void RunDirReporter::event(const json& e) {
  std::lock_guard lock(mutex_);
  std::ofstream(dir_ + "/events.jsonl", std::ios::app) << e.dump() << "\n";
  if (!stop_type_.empty() && e.value("event", "") == stop_type_) ++seen_count_;
}

void RunDirReporter::add(const std::string& c, double d) {
  std::lock_guard lock(mutex_);
  counters_[c] += d;
}

void RunDirReporter::set(const std::string& c, double v) {
  std::lock_guard lock(mutex_);
  counters_[c] = v;
}

bool RunDirReporter::stop_requested() const {
  std::lock_guard lock(mutex_);
  return elapsed() >= seconds_ || (stop_at_target_ && best_ <= target_.rank) ||
         (!stop_type_.empty() && seen_count_ >= stop_count_);
}

int RunDirReporter::best_rank() const {
  std::lock_guard lock(mutex_);
  return best_;
}

bool RunDirReporter::checkpoint_due() const {
  auto now = std::chrono::steady_clock::now();
  if (now - last_due_ < std::chrono::milliseconds(200)) return false;
  last_due_ = now;
  return true;
}

void RunDirReporter::checkpoint(const json& state) {
  std::lock_guard lock(mutex_);
  ++checkpoints_;
  last_checkpoint_ = state;
  write_file_atomic(dir_ + "/checkpoint.json", state.dump());
}

std::vector<json> RunDirReporter::events() const {
  std::vector<json> out;
  std::ifstream in(dir_ + "/events.jsonl");
  for (std::string line; std::getline(in, line);) out.push_back(json::parse(line));
  return out;
}

json RunDirReporter::last_checkpoint() const {
  std::lock_guard lock(mutex_);
  return last_checkpoint_;
}

namespace {

// Offers the classical scheme at once and Strassen after delay_ms (2x2x2 only); `restarts` and
// `noise` only exist to be validated.
class ToyEngine : public search::Engine {
public:
  std::string name() const override { return "toy"; }
  json default_params() const override {
    return {{"delay_ms", 400}, {"lattice", "ZT"}, {"restarts", 1}, {"noise", 0.1}};
  }
  std::vector<std::string> validate_params(const json& p) const override {
    std::vector<std::string> e;
    if (p.at("delay_ms").get<int>() < 0 || p.at("delay_ms").get<int>() > 5000)
      e.push_back("delay_ms: " + p.at("delay_ms").dump() + " is out of range [0, 5000]");
    if (p.at("restarts").get<int>() < 1 || p.at("restarts").get<int>() > 10)
      e.push_back("restarts: " + p.at("restarts").dump() + " is out of range [1, 10]");
    double noise = p.at("noise").get<double>();
    if (noise < 0 || noise > 1) e.push_back("noise: " + p.at("noise").dump() + " is out of range [0, 1]");
    std::string lattice = p.at("lattice").get<std::string>();
    if (lattice != "ZT" && lattice != "half") e.push_back("lattice: \"" + lattice + "\" is not ZT or half");
    return e;
  }
  void run(const search::EngineConfig& config, search::Reporter& reporter) override {
    Format f = config.target.format;
    reporter.offer(classical(f), "toy");
    auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(config.params.at("delay_ms").get<int>());
    while (std::chrono::steady_clock::now() < until) {
      if (reporter.stop_requested()) return;
      reporter.add("moves", 1);
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    if (f == Format{2, 2, 2}) reporter.offer(strassen(), "toy");
    while (!reporter.stop_requested()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
};

std::unique_ptr<search::Engine> make_toy() { return std::make_unique<ToyEngine>(); }

}  // namespace

void register_toy_engine() { search::register_engine("toy", make_toy); }

}  // namespace tdisc::test
