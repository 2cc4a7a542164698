// A follower rank (see follow.hpp). Its engine's threads leave news in a Report; the pump thread,
// the only one talking MPI, sends it to rank 0 every report period (the heartbeat), takes in
// control messages and island pools, and ends the job when rank 0 falls silent.
#include "src/search/mpi/follow.hpp"

#include <unistd.h>

#include <atomic>
#include <climits>
#include <condition_variable>
#include <deque>
#include <iostream>
#include <mutex>
#include <thread>

#include "base/error.hpp"
#include "src/search/mpi/channel.hpp"
#include "src/search/mpi/islands.hpp"
#include "src/search/mpi/jobs.hpp"
#include "src/search/mpi/rank_config.hpp"
#include "src/search/mpi/report.hpp"
#include "src/search/mpi/setup.hpp"
#include "verifier/verify.hpp"

namespace tdisc::search::mpi {

namespace {

struct Node {
  Node(const World& w, const Setup& s) : world(w), setup(s), islands(w, s.settings.exchange_seconds, s.settings.migrants) {}

  World world;
  Setup setup;
  Channel channel;
  Islands islands;
  std::mutex mutex;  // news
  Report news;
  std::atomic<bool> stop{false}, bye{false};
  std::atomic<int> lead_best{INT_MAX}, code{0};
  double last_lead = wall_time(), last_report = 0;
  std::mutex jobs_mutex;  // jobs in from rank 0, results out
  std::condition_variable jobs_cv;
  std::deque<nlohmann::json> jobs;
  std::deque<std::string> results;

  void tell(Report r) {
    std::lock_guard lock(mutex);
    news.merge(std::move(r));
  }

  void handle(const Message& m) {
    if (m.from == 0) last_lead = wall_time();
    if (m.tag == kControl) {
      const nlohmann::json j = nlohmann::json::parse(m.body);
      if (j.at("stop").get<bool>()) stop = true;
      lead_best = j.at("best_rank").get<int>();
    } else if (m.tag == kMigrants) {
      islands.receive(m);
    } else if (m.tag == kJob) {
      {
        std::lock_guard lock(jobs_mutex);
        jobs.push_back(nlohmann::json::parse(m.body));
      }
      jobs_cv.notify_all();
    } else if (m.tag == kBye) {
      code = nlohmann::json::parse(m.body).at("code").get<int>();
      bye = true;
    }
  }

  void post_results() {
    std::deque<std::string> out;
    {
      std::lock_guard lock(jobs_mutex);
      out.swap(results);
    }
    for (auto& text : out) channel.post(0, kResult, std::move(text));
  }

  void tick() {
    while (auto m = channel.poll()) {
      try {
        handle(*m);
      } catch (const std::exception& e) {
        std::cerr << "tdisc: mpi: rank " << world.rank << ": malformed message from rank " << m->from << ": " << e.what() << "; ignored\n";
      }
    }
    const double now = wall_time();
    if (now - last_report >= setup.settings.report_seconds) {
      Report out;
      {
        std::lock_guard lock(mutex);
        std::swap(out, news);
      }
      channel.post(0, kReport, out.text());
      last_report = now;
    }
    islands.send(channel);
    post_results();
    if (now - last_lead >= setup.settings.timeout_seconds) {
      std::cerr << "tdisc: mpi: rank " << world.rank << ": rank 0 has sent nothing for " << static_cast<int>(now - last_lead)
                << " s (killed, hung or unreachable): ending the job\n";
      abort_job(1);
    }
  }
};

class FollowerReporter : public Reporter {
public:
  explicit FollowerReporter(Node& node) : node_(node), last_checkpoint_(wall_time()) {}

  // Checked here so that nothing invalid crosses the network; rank 0 checks again before writing.
  bool offer(const Scheme& s, const std::string& method) override {
    if (!verify(s, node_.setup.config.target.ring).valid) return false;
    Report r;
    r.offers.push_back({s, method});
    node_.tell(std::move(r));
    int best = local_best_.load();
    while (s.rank() < best && !local_best_.compare_exchange_weak(best, s.rank())) {}
    return true;
  }
  void event(const nlohmann::json& e) override {
    Report r;
    r.events.push_back(e);
    node_.tell(std::move(r));
  }
  void add(const std::string& counter, double delta) override {
    Report r;
    r.added[counter] = delta;
    node_.tell(std::move(r));
  }
  void set(const std::string& counter, double value) override {
    Report r;
    r.set[counter] = value;
    node_.tell(std::move(r));
  }
  bool stop_requested() const override { return node_.stop || best_rank() <= node_.setup.config.target.rank; }
  int best_rank() const override { return std::min(local_best_.load(), node_.lead_best.load()); }
  bool checkpoint_due() const override {
    if (stop_requested()) return !final_sent_;
    return wall_time() - last_checkpoint_ >= node_.setup.settings.checkpoint_seconds;
  }
  void checkpoint(const nlohmann::json& state) override {
    Report r;
    r.checkpoint = state;
    node_.tell(std::move(r));
    last_checkpoint_ = wall_time();
    if (stop_requested()) final_sent_ = true;
  }
  bool exchange_due(const std::string& walk) const override { return node_.islands.due(walk); }
  std::vector<nlohmann::json> exchange(const std::string& walk, const nlohmann::json& pool) override {
    return node_.islands.exchange(walk, pool);
  }

private:
  Node& node_;
  std::atomic<int> local_best_{INT_MAX};
  std::atomic<double> last_checkpoint_;
  std::atomic<bool> final_sent_{false};
};

// The rank's own configuration: its seed, its engine parameters (rank_config.hpp).
EngineConfig rank_config(const Setup& s, const World& w) {
  EngineConfig c = s.config;
  c.seed = rank_seed(s.config.seed, s.engine, w.rank);
  c.params = rank_params(s.engine, s.config.params, w);
  return c;
}

void finish_engine(Node& node, FollowerReporter& reporter) {
  reporter.event({{"event", "mpi_stats"}, {"islands", node.islands.stats()}});
  Report last;
  last.done = true;
  node.tell(std::move(last));
}

// The llm engine's other ranks: evaluate what rank 0 hands over until it says stop.
void serve_jobs(Node& node, FollowerReporter& reporter) {
  while (!node.stop && !node.bye) {
    nlohmann::json job;
    {
      std::unique_lock lock(node.jobs_mutex);
      if (!node.jobs_cv.wait_for(lock, std::chrono::milliseconds(100), [&] { return !node.jobs.empty(); })) continue;
      job = std::move(node.jobs.front());
      node.jobs.pop_front();
    }
    JobRunner run = find_job(job.at("kind").get<std::string>());
    nlohmann::json result = {{"failure", "no runner for job kind " + job.at("kind").dump() + " in this build"}};
    if (run) {
      try {
        result = run(job.at("job"), reporter);
      } catch (const std::exception& e) {
        result = {{"failure", e.what()}};
      }
    }
    std::lock_guard lock(node.jobs_mutex);
    node.results.push_back(nlohmann::json{{"id", job.at("id")}, {"result", result}}.dump());
  }
}

void run_engine(Node& node, FollowerReporter& reporter) {
  const EngineConfig config = rank_config(node.setup, node.world);
  reporter.event({{"event", "rank_started"}, {"seed", config.seed}, {"pid", static_cast<long>(getpid())},
                  {"device_index", node.world.local_rank}, {"resumed", config.resume.has_value()}});
  try {
    if (serves_jobs(node.setup.engine)) {
      serve_jobs(node, reporter);
    } else {
      auto engine = make_engine(node.setup.engine);
      if (!engine) throw UsageError("engine " + node.setup.engine + " is not available in this build");
      engine->run(config, reporter);
    }
  } catch (const std::exception& e) {
    std::cerr << "tdisc: mpi: rank " << node.world.rank << ": " << e.what() << "\n";
    reporter.event({{"event", "rank_failed"}, {"what", e.what()}});
  }
  finish_engine(node, reporter);
}

}  // namespace

int follow(const World& w) {
  Setup setup;
  {
    Channel first;
    auto m = first.wait(kSetup, 0, 1e9);  // rank 0 may read a large checkpoint first; mpirun ends us if it dies
    setup = parse_setup(m->body);
  }
  if (setup.cancelled) {
    finalize();
    return *setup.cancelled;
  }
  Node node(w, setup);
  std::atomic<bool> pumping{true};
  std::thread pump([&] {
    while (pumping && !node.bye) {
      node.tick();
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  });
  FollowerReporter reporter(node);
  run_engine(node, reporter);
  pump.join();  // until rank 0's bye
  node.channel.drain(setup.settings.timeout_seconds);
  finalize();
  return node.code;
}

}  // namespace tdisc::search::mpi
