// A bounded hand-over queue from the GPU batch driver to the CPU rounding threads. The driver never
// blocks on it (a full queue leaves the near-miss parked in its slot until the next launch); the
// rounding threads wait on it until it is closed.
#pragma once
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>

namespace tdisc::search::numeric {

template <class T>
class NearMissQueue {
public:
  explicit NearMissQueue(size_t capacity) : capacity_(capacity) {}

  // False when full or closed (the item is not taken).
  bool try_push(T&& item) {
    {
      std::lock_guard lock(m_);
      if (closed_ || items_.size() >= capacity_) return false;
      items_.push_back(std::move(item));
      ++busy_;
    }
    cv_.notify_one();
    return true;
  }

  // The oldest item; nullopt once closed and empty. An item taken counts as pending until done().
  std::optional<T> pop() {
    std::unique_lock lock(m_);
    cv_.wait(lock, [&] { return closed_ || !items_.empty(); });
    if (items_.empty()) return std::nullopt;
    T item = std::move(items_.front());
    items_.pop_front();
    return item;
  }

  void done() {
    std::lock_guard lock(m_);
    --busy_;
  }

  void close() {
    {
      std::lock_guard lock(m_);
      closed_ = true;
    }
    cv_.notify_all();
  }

  // Items queued or being processed.
  size_t pending() const {
    std::lock_guard lock(m_);
    return busy_;
  }
  size_t capacity() const { return capacity_; }

private:
  size_t capacity_;
  mutable std::mutex m_;
  std::condition_variable cv_;
  std::deque<T> items_;
  size_t busy_ = 0;
  bool closed_ = false;
};

}  // namespace tdisc::search::numeric
