// The orchestrator (see orchestrator.hpp). It never trusts an engine: every offered scheme is
// re-verified exactly with verify() over the target ring before anything is written.
#include "src/search/orchestrator.hpp"

#include <csignal>
#include <filesystem>
#include <iostream>
#include <thread>

#include "base/error.hpp"
#include "base/interrupt.hpp"
#include "decomposition/json_input.hpp"
#include "decomposition/native.hpp"
#include "generated/tdisc_version.hpp"
#include "src/catalog/catalogue.hpp"
#include "src/search/events.hpp"
#include "src/search/progress.hpp"
#include "src/search/run/checkpoint.hpp"
#include "verifier/verify.hpp"

namespace tdisc::search {

Orchestrator::Orchestrator(SearchRequest request, std::optional<nlohmann::json> resume)
    : req_(std::move(request)), lock_(req_.out_dir), dir_(req_.out_dir), resume_(std::move(resume)) {
  if (!lock_.note().empty()) {
    std::cerr << "tdisc: note: " << dir_.path() << ": " << lock_.note() << "\n";
    dir_.append_event({{"event", events::kStaleLock}, {"note", lock_.note()}});
  }
  if (resume_) {
    earlier_seconds_ = resume_->value("elapsed", 0.0);
    best_rank_ = resume_->value("best_rank", INT_MAX);
    best_file_ = resume_->value("best_file", std::string());
    const nlohmann::json counters = resume_->value("counters", nlohmann::json::object());
    for (auto& [k, v] : counters.items())
      if (v.is_number()) counters_[k] = v.get<double>();
    if (best_rank_ <= req_.target.rank) reached_ = true;
  } else {
    dir_.write_request(req_.request);
  }
  if (req_.catalog && std::filesystem::is_directory(req_.catalog_dir))  // a misfiled catalogue is refused now
    catalogue_ = read_catalogue(req_.catalog_dir);
}

double Orchestrator::elapsed() const {
  return earlier_seconds_ + std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

bool Orchestrator::offer(const Scheme& s, const std::string& method) {
  Verdict v = verify(s, req_.target.ring);
  if (!v.valid) {
    event({{"event", events::kRejected}, {"rank", s.rank()}, {"method", method}, {"why_not", v.why_not}});
    std::cerr << "tdisc: search: engine offered an invalid rank-" << s.rank() << " scheme (" << v.why_not << "); ignored\n";
    return false;
  }
  std::lock_guard lock(mutex_);
  if (s.rank() >= best_rank_) return true;
  Scheme out = s;
  // The ring a file declares is the smallest it is valid over: the target ring when modular,
  // else the coefficients' ring (valid over Q with integer coefficients means valid over Z).
  out.ring = ring_is_modular(req_.target.ring) ? req_.target.ring : coefficient_ring(s);
  Provenance& p = out.provenance;
  if (p.tool.empty()) p.tool = TDISC_TOOL;
  if (p.method.empty()) p.method = method;
  if (!p.seed) p.seed = req_.seed;
  if (p.created.empty()) p.created = utc_now();
  if (p.source.empty()) p.source = "tdisc search, run directory " + dir_.path();
  p.extra["engine"] = req_.engine;
  best_file_ = dir_.write_best(out);
  best_rank_ = out.rank();
  dir_.append_event({{"event", events::kImproved}, {"rank", out.rank()}, {"ring", std::string(ring_name(out.ring))},
                     {"method", method}, {"file", best_file_}, {"elapsed", elapsed()}});
  if (req_.catalog) add_to_catalog(out);
  if (out.rank() <= req_.target.rank) reached_ = true;
  return true;
}

// As `tdisc catalog add --if-better`: only what beats the catalogue for its format and ring.
void Orchestrator::add_to_catalog(const Scheme& s) {
  const FiledScheme f = file_in_catalogue(req_.catalog_dir, s, true, catalogue_);
  const char* what = f.what == Filed::Added ? events::kCatalogued : f.what == Filed::AlreadyThere ? events::kAlreadyCatalogued : events::kCatalogueHasAsGood;
  dir_.append_event({{"event", what}, {"file", f.path}, {"rank", s.rank()}});
}

void Orchestrator::event(const nlohmann::json& e) {
  dir_.append_event(e);
  const std::string kind = e.value("event", std::string());
  if (kind == "lanes" || kind == "portfolio_move") record_portfolio(e);
}

// run.json keeps the plan's lanes and every move of a thread between them (rare: one a few seconds
// at most), read back and rewritten whole, so a resumed run adds to what its first session recorded.
void Orchestrator::record_portfolio(const nlohmann::json& e) {
  std::lock_guard lock(portfolio_mutex_);
  std::optional<nlohmann::json> run = dir_.read_request();
  if (!run || !run->is_object()) return;
  nlohmann::json& p = (*run)["portfolio"];
  if (!p.is_object()) p = nlohmann::json::object();
  nlohmann::json entry = e;
  entry.erase("event");
  entry["elapsed"] = elapsed();
  if (e.value("event", std::string()) == "lanes") {
    if (!p.contains("lanes")) p["lanes"] = entry;  // the first session's lanes; a resumed one logs its own event only
  } else {
    if (!p["moves"].is_array()) p["moves"] = nlohmann::json::array();
    p["moves"].push_back(entry);
  }
  dir_.write_request(*run);
}

void Orchestrator::add(const std::string& counter, double delta) {
  std::lock_guard lock(mutex_);
  counters_[counter] += delta;
}

void Orchestrator::set(const std::string& counter, double value) {
  std::lock_guard lock(mutex_);
  counters_[counter] = value;
}

bool Orchestrator::cancelled() const { return interrupt_signal() != 0 || (req_.cancel && req_.cancel->load()); }

bool Orchestrator::stop_requested() const { return reached_ || time_up_ || cancelled(); }

bool Orchestrator::checkpoint_due() const {
  if (stop_requested()) return !final_checkpoint_.load();
  return elapsed() - last_checkpoint_.load() >= req_.checkpoint_seconds;
}

void Orchestrator::checkpoint(const nlohmann::json& state) {
  nlohmann::json c;
  {
    std::lock_guard lock(mutex_);
    c = {{"format", "tdisc-checkpoint"}, {"version", 1}, {"engine", req_.engine}, {"elapsed", elapsed()},
         {"best_rank", best_rank_.load()}, {"best_file", best_file_}, {"seed", req_.seed},
         {"counters", counters_}, {"written", utc_now()}, {"state", state}};
  }
  dir_.write_checkpoint(c);
  // The next one is due a period after the moment this one captured, not after its write ended:
  // the work a kill can lose stays within one period (bench/soak.sh measures it).
  last_checkpoint_ = c["elapsed"].get<double>();
  if (stop_requested()) final_checkpoint_ = true;
  dir_.append_event({{"event", events::kCheckpoint}, {"elapsed", c["elapsed"]}});
  if (req_.after_checkpoint) req_.after_checkpoint();
}

// Progress samples make the time series of `tdisc report`: small (the counters and one rate), and
// at most one per sample_seconds, so a ten-hour run writes about 18,000 of them.
void Orchestrator::sample(double now) {
  std::map<std::string, double> counters;
  {
    std::lock_guard lock(mutex_);
    counters = counters_;
  }
  nlohmann::json e = {{"event", events::kProgress}, {"elapsed", elapsed()}};
  const WalkCount walk = walk_count(counters);
  if (!walk.unit.empty() && last_sample_t_ >= 0 && now > last_sample_t_)
    e["rate"] = (walk.moves - last_sample_moves_) / (now - last_sample_t_);
  last_sample_t_ = now, last_sample_moves_ = walk.moves;
  if (best_rank_ != INT_MAX) e["best"] = best_rank_.load();
  for (const auto& [name, value] : counters)
    if (name != "flips" && name != "moves") e[name] = value;
  dir_.append_event(e);
}

void Orchestrator::stop_watcher(std::thread& watcher) {
  {
    std::lock_guard lock(watch_mutex_);
    finished_ = true;
  }
  watch_cv_.notify_all();
  watcher.join();
}

void Orchestrator::watch() {
  double last_update = -1;
  while (!finished_) {
    {
      std::unique_lock lock(watch_mutex_);
      if (watch_cv_.wait_for(lock, std::chrono::milliseconds(50), [this] { return finished_.load(); })) break;
    }
    const double session = elapsed() - earlier_seconds_;
    if (req_.seconds > 0 && session >= req_.seconds) time_up_ = true;
    if (req_.sample_seconds > 0 && (last_sample_t_ < 0 || session - last_sample_t_ >= req_.sample_seconds)) sample(session);
    if (!req_.progress || session - last_update < 0.5) continue;
    last_update = session;
    ProgressView v;
    {
      std::lock_guard lock(mutex_);
      v.counters = counters_;
    }
    v.elapsed = elapsed();
    v.session = session;
    v.best_rank = best_rank_ == INT_MAX ? 0 : best_rank_.load();
    v.target_rank = req_.target.rank;
    req_.progress->update(v);
  }
  if (req_.progress) req_.progress->finish();
}

EngineConfig engine_config(const SearchRequest& r) {
  EngineConfig config;
  config.target = r.target;
  config.threads = r.threads;
  config.seed = r.seed;
  config.seconds = r.seconds;
  config.start = r.start;
  config.params = r.params;
  config.catalogue_dir = r.catalog_dir;
  config.lane_recipes = r.lane_recipes;
  return config;
}

void Orchestrator::refuse_state(const std::string& why) const {
  throw InputError(dir_.file("checkpoint.json"), 0,
                   "not a checkpoint of this run (its engine state: " + why +
                       "); refusing to resume over it. Move it away to resume from the verified best files alone");
}

SearchOutcome Orchestrator::run(Engine& engine) {
  InterruptGuard signals;
  start_ = std::chrono::steady_clock::now();
  last_checkpoint_ = earlier_seconds_;
  EngineConfig config = engine_config(req_);
  if (resume_ && resume_->contains("state")) config.resume = resume_->at("state");
  dir_.append_event({{"event", resume_ ? events::kResumed : events::kStarted}, {"engine", engine.name()},
                     {"target", {{"format", req_.target.format.str()}, {"rank", req_.target.rank},
                                 {"ring", std::string(ring_name(req_.target.ring))}}},
                     {"threads", req_.threads}, {"seed", req_.seed}, {"budget_seconds", req_.seconds}});
  std::thread watcher([this] { watch(); });
  try {
    if (!reached_) engine.run(config, *this);
  } catch (const nlohmann::json::exception& e) {
    // Engines read their checkpoint state back as a resumed run starts (walkers, seeds, the LLM
    // database): a field of another type there is the checkpoint's fault, refused like a foreign one.
    stop_watcher(watcher);
    if (!config.resume) throw;
    refuse_state("a field of an unexpected type: " + json_library_message(e));
  } catch (const BadCheckpointState& e) {
    stop_watcher(watcher);
    refuse_state(e.what());
  } catch (...) {
    stop_watcher(watcher);
    throw;
  }
  stop_watcher(watcher);
  if (req_.sample_seconds > 0) sample(elapsed() - earlier_seconds_);  // the last point of every series
  SearchOutcome out;
  out.reached = reached_;
  out.best_rank = best_rank_;
  out.best_file = best_file_;
  out.seconds = elapsed() - earlier_seconds_;
  out.interrupted = cancelled();
  dir_.append_event({{"event", events::kFinished}, {"reached", out.reached}, {"best_rank", out.best_rank},
                     {"interrupted", out.interrupted}, {"elapsed", elapsed()}, {"counters", counters_}});
  return out;
}

}  // namespace tdisc::search
