// Requests in flight: up to K chat completions run on their own threads while the caller keeps
// evaluating (AlphaEvolve and OpenEvolve overlap sampling with evaluation the same way). Each
// request retries on its own (Retry-After is honoured per request); finished ones wait in a queue.
#pragma once
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "src/llm/client.hpp"

namespace tdisc::llm {

// What the caller knew when it sent the request (the prompt was built from the database then).
struct RequestTicket {
  int call = 0;
  std::string kind, model;          // "recipe" or "scheme"; the model asked
  int parent = -1;                  // program id of the parent, −1 for none
  double parent_fitness = -1e18;
  ChatRequest request;
  double sent_at = 0;               // seconds since the run started
};

struct FinishedRequest {
  RequestTicket ticket;
  ChatResult result;
  double finished_at = 0;
};

class RequestPool {
public:
  // `stop` is polled by every request while it waits between retries and during transfers.
  RequestPool(ChatClient& client, int capacity, std::function<bool()> stop);
  ~RequestPool();  // stops and joins every request thread
  RequestPool(const RequestPool&) = delete;
  RequestPool& operator=(const RequestPool&) = delete;

  int capacity() const { return capacity_; }
  int in_flight() const;
  // Requests in flight plus answers not yet taken: an answer that arrived since the last take() may
  // be the one that stops the calls (quota), so it holds its slot until it is read.
  int unread() const;
  void submit(RequestTicket ticket);
  bool has_finished() const;
  // The oldest finished request, waiting at most `wait` for one.
  std::optional<FinishedRequest> take(std::chrono::milliseconds wait = std::chrono::milliseconds(0));
  // Ends waiting requests (their results arrive as stopped) and joins them.
  void shut_down();

private:
  void reap_locked();
  double now() const;

  ChatClient& client_;
  int capacity_;
  std::function<bool()> stop_;
  bool shutting_down_ = false;
  mutable std::mutex mutex_;
  std::condition_variable done_cv_;
  std::list<std::thread> threads_;          // running or finished, joined by reap_locked/shut_down
  std::list<std::thread::id> finished_ids_;
  int running_ = 0;
  std::deque<FinishedRequest> done_;
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

}  // namespace tdisc::llm
