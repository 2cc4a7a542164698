// The symmetric walker's flips: pairs of factor positions (3·orbit + slot) of different orbits that
// hold the same factor, with O(1) add/remove and a uniform draw in O(1) (as pair_index.hpp).
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

namespace tdisc::search::flip {

class PositionPairs {
public:
  // Forgets every pair; positions are numbered below cap (< 65536).
  void reset(int cap) {
    if (cap > cap_) {
      cap_ = cap;
      at_.assign(static_cast<size_t>(cap_) * cap_, 0);
    } else {
      for (std::uint32_t code : list_) at_[slot(code)] = 0;
    }
    list_.clear();
  }
  int capacity() const { return cap_; }
  void add(int a, int b) {
    const std::uint32_t code = encode(a, b);
    list_.push_back(code);
    at_[slot(code)] = static_cast<std::uint32_t>(list_.size());
  }
  void remove(int a, int b) {
    const std::uint32_t code = encode(a, b);
    std::uint32_t& at = at_[slot(code)];
    const std::uint32_t last = list_.back();
    list_[at - 1] = last;
    at_[slot(last)] = at;
    at = 0;
    list_.pop_back();
  }
  size_t size() const { return list_.size(); }
  std::uint32_t at(size_t i) const { return list_[i]; }  // code = lo << 16 | hi, lo < hi
  static int lo_of(std::uint32_t code) { return static_cast<int>(code >> 16); }
  static int hi_of(std::uint32_t code) { return static_cast<int>(code & 0xFFFFu); }

private:
  static std::uint32_t encode(int a, int b) {
    if (a > b) std::swap(a, b);
    return static_cast<std::uint32_t>(a) << 16 | static_cast<std::uint32_t>(b);
  }
  size_t slot(std::uint32_t code) const { return static_cast<size_t>(lo_of(code)) * cap_ + hi_of(code); }
  std::vector<std::uint32_t> list_;  // the pairs, in no order
  std::vector<std::uint32_t> at_;    // cap × cap: 1 + position in list_, 0 when absent
  int cap_ = 0;
};

}  // namespace tdisc::search::flip
