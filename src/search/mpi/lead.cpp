// Rank 0 (see lead.hpp). Its pump thread is the only one that talks MPI while the search runs:
// it relays follower reports to the orchestrator (offers are verified there, as any offer is),
// posts control messages (stop, best rank: also rank 0's heartbeat), moves island pools, totals
// the counters for the progress line and ends the job when a rank falls silent.
#include "src/search/mpi/lead.hpp"

#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <iostream>
#include <mutex>
#include <thread>

#include "src/search/events.hpp"
#include "src/search/mpi/channel.hpp"
#include "src/search/mpi/islands.hpp"
#include "src/search/mpi/jobs.hpp"
#include "src/search/mpi/progress_totals.hpp"
#include "src/search/mpi/rank_config.hpp"
#include "src/search/mpi/redistribute.hpp"
#include "src/search/mpi/report.hpp"
#include "src/search/mpi/setup.hpp"
#include "src/search/run/dir.hpp"

namespace tdisc::search::mpi {

struct Lead::Hub {
  explicit Hub(const World& w) : world(w), totals(w.size) {
    states.resize(static_cast<size_t>(w.size));
    last_heard.assign(static_cast<size_t>(w.size), wall_time());
    done.assign(static_cast<size_t>(w.size), false);
  }

  World world;
  Settings settings;
  Channel channel;
  std::unique_ptr<Islands> islands;  // once the settings are known (wrap)
  ProgressTotals totals;
  Reporter* base = nullptr;  // the orchestrator
  std::string engine;
  std::mutex mutex;             // states, done, last_heard
  std::mutex checkpoint_mutex;  // one checkpoint write at a time
  std::vector<nlohmann::json> states;
  std::vector<double> last_heard;
  std::vector<bool> done;
  std::atomic<bool> pumping{false}, stopping{false}, setup_sent{false};
  std::thread pump;
  double last_control = 0;
  double relay_seconds = 0;  // rank 0's CPU time on reports beyond MPI: parsing, relaying (docs/mpi.md)
  long reports = 0;
  double checkpoint_cpu = 0;  // CPU time of writing the combined checkpoints (under checkpoint_mutex)
  long checkpoints = 0;
  // Jobs for the other ranks (llm engine): posted by the pump, answered into results.
  std::mutex jobs_mutex;
  std::condition_variable jobs_cv;
  std::deque<std::pair<int, std::string>> job_outbox;  // (rank, text)
  std::map<long, nlohmann::json> job_results;          // by job id
  long next_job = 0;

  // Hands the jobs to the other ranks, at most one at a time each, and waits for all results.
  std::vector<nlohmann::json> run_jobs(const std::string& kind, const std::vector<nlohmann::json>& jobs) {
    std::vector<nlohmann::json> results(jobs.size());
    std::deque<size_t> waiting;
    for (size_t i = 0; i < jobs.size(); ++i) waiting.push_back(i);
    std::map<long, std::pair<int, size_t>> running;  // id → (rank, job index)
    std::vector<bool> busy(static_cast<size_t>(world.size), false);
    std::unique_lock lock(jobs_mutex);
    while (!waiting.empty() || !running.empty()) {
      for (int r = 1; r < world.size && !waiting.empty(); ++r) {
        if (busy[static_cast<size_t>(r)]) continue;
        const long id = next_job++;
        job_outbox.emplace_back(r, nlohmann::json{{"id", id}, {"kind", kind}, {"job", jobs[waiting.front()]}}.dump());
        running[id] = {r, waiting.front()};
        busy[static_cast<size_t>(r)] = true;
        waiting.pop_front();
      }
      jobs_cv.wait_for(lock, std::chrono::milliseconds(50));
      for (auto it = running.begin(); it != running.end();) {
        auto done_it = job_results.find(it->first);
        if (done_it == job_results.end()) {
          ++it;
          continue;
        }
        results[it->second.second] = std::move(done_it->second);
        job_results.erase(done_it);
        busy[static_cast<size_t>(it->second.first)] = false;
        it = running.erase(it);
      }
    }
    return results;
  }

  void post_jobs() {
    std::deque<std::pair<int, std::string>> out;
    {
      std::lock_guard lock(jobs_mutex);
      out.swap(job_outbox);
    }
    for (auto& [r, text] : out) channel.post(r, kJob, std::move(text));
  }

  void handle_result(const Message& m) {
    const nlohmann::json j = nlohmann::json::parse(m.body);
    {
      std::lock_guard lock(jobs_mutex);
      job_results[j.at("id").get<long>()] = j.at("result");
    }
    jobs_cv.notify_all();
  }

  void write_checkpoint() {
    std::lock_guard c(checkpoint_mutex);
    const double t0 = thread_cpu_time();
    nlohmann::json combined;
    {
      std::lock_guard lock(mutex);
      combined = combine_states(states, engine);
    }
    base->checkpoint(combined);
    checkpoint_cpu += thread_cpu_time() - t0;
    ++checkpoints;
  }

  int followers_running() {
    std::lock_guard lock(mutex);
    int n = 0;
    for (int r = 1; r < world.size; ++r) n += done[static_cast<size_t>(r)] ? 0 : 1;
    return n;
  }

  void handle_report(const Message& m) {
    Report rep = Report::parse(m.body);
    set_thread_event_rank(m.from);  // the orchestrator's own events (improved, rejected) name the origin
    for (const Offer& o : rep.offers)  // only improvements are verified: many islands offer the same rank at once
      if (o.scheme.rank() < base->best_rank()) base->offer(o.scheme, o.method);
    for (nlohmann::json& e : rep.events) base->event(e);
    set_thread_event_rank(-1);
    for (const auto& [k, v] : rep.added) base->add(k, v);
    totals.record(m.from, rep.added, rep.set);
    std::lock_guard lock(mutex);
    if (rep.checkpoint) states[static_cast<size_t>(m.from)] = std::move(*rep.checkpoint);
    if (rep.done) done[static_cast<size_t>(m.from)] = true;
  }

  void send_control() {
    const bool stop = stopping || base->stop_requested();
    const std::string text = nlohmann::json{{"stop", stop}, {"best_rank", base->best_rank()}}.dump();
    for (int r = 1; r < world.size; ++r) channel.post(r, kControl, text);
  }

  // A rank that has not ended and has sent nothing for the timeout: killed, hung or cut off.
  void check_heartbeats(double now) {
    std::lock_guard lock(mutex);
    for (int r = 1; r < world.size; ++r) {
      const double silent = now - last_heard[static_cast<size_t>(r)];
      if (done[static_cast<size_t>(r)] || silent < settings.timeout_seconds) continue;
      lost(r, silent);
    }
  }

  [[noreturn]] void lost(int r, double silent) {
    std::cerr << "\ntdisc: mpi: rank " << r << " has sent nothing for " << static_cast<int>(silent)
              << " s (killed, hung or unreachable): ending the job; checkpoint.json keeps every rank's state of at most "
              << settings.checkpoint_seconds << " s ago (continue with --resume, any number of ranks)\n";
    base->event({{"event", events::kRankLost}, {"lost_rank", r}, {"silent_seconds", silent}});
    abort_job(1);
  }

  void tick() {
    while (auto m = channel.poll()) {
      {
        std::lock_guard lock(mutex);
        last_heard[static_cast<size_t>(m->from)] = wall_time();
      }
      try {
        if (m->tag == kReport) {
          const double t0 = thread_cpu_time();
          handle_report(*m);
          relay_seconds += thread_cpu_time() - t0;
          ++reports;
        } else if (m->tag == kMigrants) {
          islands->receive(*m);
        } else if (m->tag == kResult) {
          handle_result(*m);
        }
      } catch (const std::exception& e) {  // one bad message must not end the search
        set_thread_event_rank(-1);
        std::cerr << "\ntdisc: mpi: rank " << m->from << " sent a malformed message (tag " << m->tag << "): " << e.what() << "; ignored\n";
      }
    }
    post_jobs();
    const double now = wall_time();
    if (now - last_control >= settings.report_seconds) {
      send_control();
      last_control = now;
      totals.publish(*base);
    }
    islands->send(channel);
    check_heartbeats(now);
  }

  void run_pump() {
    while (pumping) {
      tick();
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
};

namespace {

// Rank 0's sink: counters and checkpoints gathered with the other ranks', and the MPI facet.
class LeadReporter : public ForwardingReporter, public search::Ranks {
public:
  explicit LeadReporter(Lead::Hub& hub) : ForwardingReporter(*hub.base), hub_(hub) {}
  void add(const std::string& counter, double delta) override {
    base().add(counter, delta);
    hub_.totals.record(0, {{counter, delta}}, {});
  }
  void set(const std::string& counter, double value) override { hub_.totals.record(0, {}, {{counter, value}}); }
  void checkpoint(const nlohmann::json& state) override {
    {
      std::lock_guard lock(hub_.mutex);
      hub_.states[0] = state;
    }
    hub_.write_checkpoint();
  }
  bool exchange_due(const std::string& walk) const override { return hub_.islands->due(walk); }
  std::vector<nlohmann::json> exchange(const std::string& walk, const nlohmann::json& pool) override {
    return hub_.islands->exchange(walk, pool);
  }
  // The llm engine's proposals are evaluated by the other ranks (follow.cpp serves jobs for it).
  int helpers() const override { return serves_jobs(hub_.engine) ? hub_.world.size - 1 : 0; }
  std::vector<nlohmann::json> run_jobs(const std::string& kind, const std::vector<nlohmann::json>& jobs) override {
    return hub_.run_jobs(kind, jobs);
  }
  search::Ranks* ranks() override { return this; }

private:
  Lead::Hub& hub_;
};

// The engine the orchestrator runs on rank 0: sets the other ranks going, runs `inner` here, and
// ends when every rank has ended or the orchestrator says stop.
class LeadEngine : public Engine {
public:
  LeadEngine(std::shared_ptr<Lead::Hub> hub, std::unique_ptr<Engine> inner) : hub_(std::move(hub)), inner_(std::move(inner)) {}
  std::string name() const override { return inner_->name(); }
  nlohmann::json default_params() const override { return inner_->default_params(); }
  std::vector<std::string> validate_params(const nlohmann::json& p) const override { return inner_->validate_params(p); }

  void run(const EngineConfig& config, Reporter& base) override {
    Lead::Hub& hub = *hub_;
    hub.base = &base;
    hub.engine = inner_->name();
    const std::vector<nlohmann::json> states = redistribute(config.resume, hub.world.size);
    send_setups(config, states);
    base.event({{"event", events::kMpi}, {"ranks", hub.world.size}, {"exchange_seconds", hub.settings.exchange_seconds},
                {"timeout_seconds", hub.settings.timeout_seconds}, {"resumed_from_ranks", resumed_ranks(config)},
                {"pid", static_cast<long>(getpid())}, {"device_index", hub.world.local_rank}});
    {
      std::lock_guard lock(hub.mutex);
      hub.last_heard.assign(hub.last_heard.size(), wall_time());
    }
    hub.pumping = true;
    hub.pump = std::thread([&hub] { hub.run_pump(); });
    LeadReporter reporter(hub);
    EngineConfig mine = config;
    mine.params = rank_params(hub.engine, config.params, hub.world);
    mine.resume.reset();
    if (!states[0].is_null()) mine.resume = states[0];
    try {
      inner_->run(mine, reporter);
    } catch (...) {
      hub.stopping = true;
      end_pump();
      throw;
    }
    await_followers(base);
    end_pump();
    hub.write_checkpoint();  // every rank's final state
    base.event({{"event", events::kMpiStats}, {"messages_sent", hub.channel.stats().sent}, {"messages_received", hub.channel.stats().received},
                {"bytes_sent", hub.channel.stats().bytes_sent}, {"bytes_received", hub.channel.stats().bytes_received},
                {"mpi_seconds", hub.channel.stats().seconds}, {"reports", hub.reports}, {"relay_seconds", hub.relay_seconds},
                {"checkpoints", hub.checkpoints}, {"checkpoint_seconds", hub.checkpoint_cpu},
                {"islands", hub.islands->stats()}});
  }

private:
  static int resumed_ranks(const EngineConfig& config) {
    if (!config.resume) return 0;
    return is_combined(*config.resume) ? static_cast<int>(config.resume->at("ranks").size()) : 1;
  }

  void send_setups(const EngineConfig& config, const std::vector<nlohmann::json>& states) {
    Lead::Hub& hub = *hub_;
    for (int r = 1; r < hub.world.size; ++r) {
      Setup s{hub.engine, config, hub.settings, std::nullopt};
      s.config.resume.reset();
      if (!states[static_cast<size_t>(r)].is_null()) s.config.resume = states[static_cast<size_t>(r)];
      hub.channel.post(r, kSetup, setup_text(s));
    }
    hub.setup_sent = true;
  }

  // Rank 0's engine has ended: the others go on until they end too or a stop is requested; then
  // they get `timeout` seconds to send their final states.
  void await_followers(Reporter& base) {
    Lead::Hub& hub = *hub_;
    if (serves_jobs(hub.engine)) hub.stopping = true;  // the others only ever worked for this rank
    while (hub.followers_running() > 0 && !base.stop_requested() && !hub.stopping) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    hub.stopping = true;
    const double until = wall_time() + hub.settings.timeout_seconds;
    while (hub.followers_running() > 0 && wall_time() < until) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (int n = hub.followers_running(); n > 0) {
      std::cerr << "\ntdisc: mpi: " << n << " rank(s) sent no final state within " << hub.settings.timeout_seconds
                << " s; checkpoint.json keeps their last one\n";
      base.event({{"event", events::kRanksUnfinished}, {"ranks", n}});
    }
  }

  void end_pump() {
    Lead::Hub& hub = *hub_;
    if (!hub.pumping) return;
    hub.tick();  // the stop reaches everyone
    hub.pumping = false;
    hub.pump.join();
  }

  std::shared_ptr<Lead::Hub> hub_;
  std::unique_ptr<Engine> inner_;
};

}  // namespace

Lead::Lead(const World& w) : hub_(std::make_shared<Hub>(w)) { set_event_rank(0); }

Lead::~Lead() = default;

const World& Lead::world() const { return hub_->world; }

std::unique_ptr<Engine> Lead::wrap(std::unique_ptr<Engine> inner, const Settings& s) {
  hub_->settings = s;
  hub_->islands = std::make_unique<Islands>(hub_->world, s.exchange_seconds, s.migrants);
  return std::make_unique<LeadEngine>(hub_, std::move(inner));
}

int Lead::close(int code) {
  const std::string text = nlohmann::json{{"code", code}}.dump();
  for (int r = 1; r < hub_->world.size; ++r) hub_->channel.post(r, kBye, text);
  hub_->channel.drain(hub_->settings.timeout_seconds);
  finalize();
  return code;
}

void Lead::cancel(int code) {
  if (hub_->setup_sent) abort_job(code);  // the others are running: end them all
  Setup s;
  s.cancelled = code;
  for (int r = 1; r < hub_->world.size; ++r) hub_->channel.post(r, kSetup, setup_text(s));
  hub_->channel.drain(hub_->settings.timeout_seconds);
  finalize();
}

}  // namespace tdisc::search::mpi
