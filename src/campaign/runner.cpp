// The campaign loop (runner.hpp): children started, reaped and rebalanced; run directories harvested;
// campaign.json kept. Each step is a small function; run() is the ladder that calls them.
#include "src/campaign/runner.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <thread>

#include "base/interrupt.hpp"
#include "base/error.hpp"
#include "base/io.hpp"
#include "src/campaign/child.hpp"
#include "src/campaign/share.hpp"

namespace tdisc::campaign {

namespace fs = std::filesystem;

namespace {


double steady_seconds() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

std::string seconds_said(double s) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1fs", s);
  return b;
}

std::string seconds_arg(double s) { return std::to_string(static_cast<long long>(std::ceil(std::max(1.0, s)))) + "s"; }

// A search of an earlier session may still be ending (its SIGTERM checkpoint): wait for its lock.
void wait_for_lock(const std::string& run_dir, double seconds) {
  const std::string lock = run_dir + "/lock";
  for (double waited = 0; waited < seconds && fs::exists(lock); waited += 0.1) {
    long pid = 0;
    try {
      pid = std::stol(read_text_file(lock, InputKind::run_file));
    } catch (const std::exception&) {
      return;
    }
    if (pid <= 0 || (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

}  // namespace

// An improvement goes to the catalogue when it reaches the target or beats the best known, once per rank.
bool fileable(const TargetState& t, int rank) { return rank != INT_MAX && (rank <= t.reach || rank < t.beat) && rank < t.filed_rank; }

Runner::Runner(CampaignConfig config, std::vector<CampaignTarget> targets, CampaignState state, std::ostream& out, Sharing sharing)
    : config_(std::move(config)), targets_(std::move(targets)), state_(std::move(state)), out_(out), sharing_(std::move(sharing)) {
  start_ = steady_seconds();
  elapsed_before_ = state_.elapsed;
}

double Runner::session() const { return steady_seconds() - start_; }
double Runner::left() const { return config_.budget - (elapsed_before_ + session()); }
bool Runner::mine(int k) const { return !sharing_.mine || sharing_.mine(k); }

std::optional<double> Runner::share_left(int k) const {
  if (!targets_[k].share) return std::nullopt;
  return *targets_[k].share - state_.targets[k].seconds;
}

void Runner::say(int k, const std::string& what) const {
  if (!config_.quiet) out_ << "[" << state_.targets[k].name << "] " << what << "\n" << std::flush;
}

void Runner::changed(int k, const std::optional<VerifiedBest>& to_file) {
  if (sharing_.report) sharing_.report(state_.targets[k], k, to_file);
  save(true);
}

void Runner::save(bool force) {
  if (!sharing_.keeps_state) return;
  if (!force && last_save_ >= 0 && session() - last_save_ < 1) return;
  last_save_ = session();
  state_.elapsed = elapsed_before_ + session();
  write_state(config_.dir, state_);
}

void Runner::tick_seconds() {
  for (const Child& c : children_) state_.targets[c.target].seconds = c.base_seconds + (session() - c.started);
}

// What a run directory proves after a kill -9 (or any end): a lower verified rank than the state
// recorded, more seconds than it recorded; a target that was running is paused.
void Runner::recover() {
  for (size_t k = 0; k < state_.targets.size(); ++k) {
    if (!mine(static_cast<int>(k))) continue;
    TargetState& t = state_.targets[k];
    if (t.status == Status::running) t.status = Status::paused;
    if (t.status == Status::failed) t.status = Status::paused;  // a new session tries it again
    if (!fs::is_directory(t.run_dir)) continue;
    t.seconds = std::max(t.seconds, checkpoint_seconds(t.run_dir));
    harvest(static_cast<int>(k));
    if (t.best_rank <= t.reach) t.status = Status::reached;
    if (!sharing_.keeps_state || !fileable(t, t.best_rank)) continue;
    if (auto b = verified_best(t.run_dir, targets_[k].ring, t.best_rank + 1)) file(static_cast<int>(k), *b);  // found, not yet filed
  }
}

std::vector<std::string> Runner::search_args(int k, int threads, double seconds) const {
  const CampaignTarget& t = targets_[k];
  const TargetState& s = state_.targets[k];
  std::vector<std::string> a;
  if (fs::exists(s.run_dir + "/run.json")) {
    a = {"search", "--resume", s.run_dir};
  } else {
    a = {"search", "--size", t.format.str(), "--rank", std::to_string(t.reach), "--ring", std::string(ring_name(t.ring)),
         "--seed", std::to_string(s.seed), "--out", s.run_dir};
    if (!t.engine.empty()) a.insert(a.end(), {"--engine", t.engine});
    if (!t.symmetry.empty()) a.insert(a.end(), {"--symmetry", t.symmetry});
    if (!t.from.empty()) a.insert(a.end(), {"--from", t.from});
    if (!t.recipes.empty()) a.insert(a.end(), {"--recipes", t.recipes});
    if (!t.params.is_null()) a.insert(a.end(), {"--params", t.params.dump()});
    if (!config_.catalogue_dir.empty()) a.insert(a.end(), {"--catalog-dir", config_.catalogue_dir});
  }
  a.insert(a.end(), {"--threads", std::to_string(threads), "--time", seconds_arg(seconds), "-q", "--checkpoint-every",
                     std::to_string(config_.checkpoint_seconds)});
  return a;
}

void Runner::launch(int k, int threads) {
  TargetState& t = state_.targets[k];
  const double seconds = std::min(left(), share_left(k).value_or(left()));
  fs::create_directories(config_.dir + "/logs");
  wait_for_lock(t.run_dir, 30);
  const std::vector<std::string> args = search_args(k, threads, seconds);
  Child c;
  c.target = k;
  c.threads = threads;
  c.started = session();
  c.base_seconds = t.seconds;
  c.pid = spawn_search(args, config_.dir + "/logs/" + t.name + ".log");
  children_.push_back(c);
  const bool resumed = args[1] == "--resume";
  t.status = Status::running;
  const std::string where = config_.mpi_rank >= 0 ? " on rank " + std::to_string(config_.mpi_rank) + "," : " on";
  say(k, std::string(resumed ? "resumed" : "started") + where + " " + std::to_string(threads) + " thread" + (threads > 1 ? "s" : "") +
             " for " + seconds_arg(seconds) + " (rank " + std::to_string(t.reach) + " over " + t.ring + ", seed " +
             std::to_string(t.seed) + ")");
  changed(k);
}

void Runner::plan() {
  if (interrupt_signal() || left() < 1) return;
  for (const Child& c : children_)
    if (c.interrupted) return;  // a rebalance under way: wait for every interrupted search to end
  int used = 0;
  std::vector<int> running;
  for (const Child& c : children_) used += c.threads, running.push_back(c.threads);
  std::vector<int> candidates;
  for (size_t k = 0; k < state_.targets.size(); ++k) {
    const int i = static_cast<int>(k);
    TargetState& t = state_.targets[k];
    if (!mine(i) || finished(t.status) || t.status == Status::running) continue;
    if (auto s = share_left(i); s && *s < 1) {
      t.status = Status::spent;
      say(i, "time share spent");
      changed(i);
      continue;
    }
    candidates.push_back(i);
  }
  const int free = config_.threads - used;
  if (free > 0 && !candidates.empty()) {
    const std::vector<int> shares = even_split(free, static_cast<int>(candidates.size()));
    for (size_t j = 0; j < shares.size(); ++j) launch(candidates[j], shares[j]);
  } else if (candidates.empty() && left() > config_.rebalance_min && worth_rebalancing(running, config_.threads)) {
    for (Child& c : children_) {
      c.interrupted = true;
      interrupt(c.pid);
      say(c.target, "interrupted to take the threads of a finished target");
    }
  }
}

void Runner::file(int k, const VerifiedBest& b) {
  TargetState& t = state_.targets[k];
  if (!config_.filing) return;
  FilingNote note{t.key, t.run_dir, targets_.empty() ? "" : targets_[k].from, t.seed};
  const FiledScheme f = file_improvement(*config_.filing, note, b.scheme);
  t.filed_rank = b.rank;
  t.filed = f.path;
  say(k, f.what == Filed::Added ? "filed rank " + std::to_string(b.rank) + ": " + f.path
         : f.what == Filed::AlreadyThere ? "already catalogued: " + f.path
                                         : "not filed: the catalogue has as good for " + t.format + " over " + t.ring);
}

void Runner::harvest(int k) {
  TargetState& t = state_.targets[k];
  auto b = verified_best(t.run_dir, targets_[k].ring, t.best_rank);
  if (!b) return;
  t.best_rank = b->rank;
  say(k, "best rank " + std::to_string(b->rank) + " (verified over " + t.ring + "): " + b->file);
  const bool to_file = fileable(t, b->rank);
  if (to_file && sharing_.keeps_state) file(k, *b);
  changed(k, to_file ? b : std::nullopt);
}

void Runner::settle(const Child& c, int code) {
  const int k = c.target;
  TargetState& t = state_.targets[k];
  t.seconds = std::max(c.base_seconds + (session() - c.started), checkpoint_seconds(t.run_dir));
  harvest(k);
  const std::string log = config_.dir + "/logs/" + t.name + ".log";
  if (t.best_rank <= t.reach) {
    t.status = Status::reached;
    t.note = "";
    say(k, "reached rank " + std::to_string(t.best_rank) + " after " + seconds_said(t.seconds));
  } else if (code == 3 || (c.interrupted && code == -SIGINT)) {
    const auto s = share_left(k);
    t.status = !c.interrupted && s && *s < 2 ? Status::spent : Status::paused;
    say(k, std::string(t.status == Status::spent ? "time share spent" : "paused") + " at best rank " +
               (t.best_rank == INT_MAX ? std::string("none") : std::to_string(t.best_rank)));
  } else {
    t.status = Status::failed;
    t.note = (code == 0 ? "the search said reached, but no best file verifies" : "search exited " + std::to_string(code)) +
             ": " + last_line(log);
    say(k, "failed: " + t.note + " (" + log + ")");
  }
  changed(k);
}

CampaignState Runner::run() {
  InterruptGuard signals;
  fs::create_directories(config_.dir);
  state_.sessions += 1;
  state_.budget = config_.budget;
  recover();
  save(true);
  bool stopping = false;
  for (;;) {
    if (sharing_.poll) sharing_.poll();
    for (size_t j = 0; j < children_.size();) {
      if (auto code = reap(children_[j].pid)) {
        const Child c = children_[j];
        children_.erase(children_.begin() + static_cast<long>(j));
        settle(c, *code);
      } else {
        ++j;
      }
    }
    // A signal, or the campaign's budget spent: a search's own --time does not count its start-up
    // (reading a large start file), so the campaign ends them itself, each with its last checkpoint.
    if ((interrupt_signal() || left() <= 0) && !stopping) {
      stopping = true;
      for (Child& c : children_) c.interrupted = true, interrupt(c.pid);
    }
    if (session() - last_harvest_ >= 2) {
      last_harvest_ = session();
      for (const Child& c : children_) harvest(c.target);
    }
    plan();
    tick_seconds();
    save();
    if (children_.empty()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  save(true);
  return state_;
}

void Runner::merge(int k, const TargetState& reported, const std::optional<VerifiedBest>& to_file) {
  TargetState& t = state_.targets[k];
  const int filed_rank = t.filed_rank;
  const std::string filed = t.filed;
  t = reported;
  t.filed_rank = filed_rank;
  t.filed = filed;
  if (to_file && to_file->rank < t.filed_rank) file(k, *to_file);
  save(true);
}

std::string status_table(const CampaignState& s) {
  auto cell = [](std::string text, size_t width) { return text.size() >= width ? text + " " : text + std::string(width - text.size(), ' '); };
  auto rank = [](int r) { return r == INT_MAX ? std::string("-") : std::to_string(r); };
  std::string out = cell("target", 26) + cell("ring", 5) + cell("to beat", 8) + cell("target", 7) + cell("start", 6) + cell("best", 6) +
                    cell("time", 8) + "state\n";
  for (const TargetState& t : s.targets)
    out += cell(t.name, 26) + cell(t.ring, 5) + cell(std::to_string(t.beat), 8) + cell(std::to_string(t.reach), 7) +
           cell(rank(t.start_rank), 6) + cell(rank(t.best_rank), 6) + cell(seconds_said(t.seconds), 8) + status_name(t.status) +
           (t.filed.empty() ? "" : "  filed " + t.filed) + (t.note.empty() ? "" : "  (" + t.note + ")") + "\n";
  return out;
}

}  // namespace tdisc::campaign
