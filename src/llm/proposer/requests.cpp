// A thread per request in flight (K is small: a handful of HTTP calls that mostly wait on the
// model), joined as they finish; results go to a queue that the evaluating thread drains.
#include "src/llm/proposer/requests.hpp"

#include <algorithm>

namespace tdisc::llm {

RequestPool::RequestPool(ChatClient& client, int capacity, std::function<bool()> stop)
    : client_(client), capacity_(std::max(1, capacity)), stop_(std::move(stop)) {}

RequestPool::~RequestPool() { shut_down(); }

double RequestPool::now() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
}

int RequestPool::in_flight() const {
  std::lock_guard lock(mutex_);
  return running_;
}

int RequestPool::unread() const {
  std::lock_guard lock(mutex_);
  return running_ + static_cast<int>(done_.size());
}

bool RequestPool::has_finished() const {
  std::lock_guard lock(mutex_);
  return !done_.empty();
}

void RequestPool::submit(RequestTicket ticket) {
  std::lock_guard lock(mutex_);
  reap_locked();
  ++running_;
  threads_.emplace_back([this, ticket = std::move(ticket)]() mutable {
    auto stop = [this] {
      std::lock_guard lock(mutex_);
      return shutting_down_;
    };
    ChatResult result = client_.complete(ticket.request, [&] { return stop() || (stop_ && stop_()); });
    std::lock_guard lock(mutex_);
    done_.push_back({std::move(ticket), std::move(result), now()});
    --running_;
    finished_ids_.push_back(std::this_thread::get_id());
    done_cv_.notify_all();
  });
}

// Joins the threads that have finished (each pushed its id last, under the lock, so join() only
// waits for it to return from its lambda).
void RequestPool::reap_locked() {
  for (auto id : finished_ids_) {
    auto it = std::find_if(threads_.begin(), threads_.end(), [&](const std::thread& t) { return t.get_id() == id; });
    if (it != threads_.end()) {
      it->join();
      threads_.erase(it);
    }
  }
  finished_ids_.clear();
}

std::optional<FinishedRequest> RequestPool::take(std::chrono::milliseconds wait) {
  std::unique_lock lock(mutex_);
  if (done_.empty() && wait.count() > 0) done_cv_.wait_for(lock, wait, [&] { return !done_.empty(); });
  reap_locked();
  if (done_.empty()) return std::nullopt;
  FinishedRequest f = std::move(done_.front());
  done_.pop_front();
  return f;
}

void RequestPool::shut_down() {
  std::list<std::thread> threads;
  {
    std::lock_guard lock(mutex_);
    shutting_down_ = true;
    threads.swap(threads_);
    finished_ids_.clear();
  }
  for (auto& t : threads) t.join();
}

}  // namespace tdisc::llm
